from django.urls import path

from social.api import views

USERNAME = "<str:username>"

urlpatterns = [
    path("games/<int:game_id>/chat", views.ChatView.as_view(), name="game-chat"),
    path("games/<int:game_id>/chat/mute", views.ChatMuteView.as_view(), name="game-chat-mute"),
    path("games/<int:game_id>/rematch", views.RematchView.as_view(), name="game-rematch"),
    path("me/friends", views.FriendsView.as_view(), name="me-friends"),
    path(f"me/friends/{USERNAME}", views.FriendDetailView.as_view(), name="me-friend"),
    path(f"me/friends/{USERNAME}/accept", views.FriendAcceptView.as_view(),
         name="me-friend-accept"),
    path(f"me/friends/{USERNAME}/play", views.FriendPlayView.as_view(), name="me-friend-play"),
    path("me/blocked", views.BlockedListView.as_view(), name="me-blocked"),
    path("me/social", views.SocialSettingsView.as_view(), name="me-social"),
    path(f"players/{USERNAME}", views.ProfileView.as_view(), name="player"),
    path(f"players/{USERNAME}/ratings", views.RatingsView.as_view(), name="player-ratings"),
    path(f"players/{USERNAME}/block", views.BlockView.as_view(), name="player-block"),
]
