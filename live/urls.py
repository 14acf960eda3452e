from django.urls import path

from live import views

urlpatterns = [
    path("events", views.events, name="live-events"),
    path("games/<int:game_id>/events", views.game_events, name="live-game-events"),
]
