from django.urls import path

from games.api import views
from games.notifications.views import NudgeView

urlpatterns = [
    path("games", views.GamesView.as_view(), name="games"),
    path("games/computer-levels", views.ComputerLevelsView.as_view(), name="computer-levels"),
    path("games/<int:game_id>", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/moves", views.GameMovesView.as_view(), name="game-moves"),
    path("games/<int:game_id>/preview", views.GamePreviewView.as_view(), name="game-preview"),
    path("games/<int:game_id>/resign", views.GameResignView.as_view(), name="game-resign"),
    path("games/<int:game_id>/cancel", views.GameCancelView.as_view(), name="game-cancel"),
    path("games/<int:game_id>/hint", views.GameHintView.as_view(), name="game-hint"),
    path("games/<int:game_id>/analysis", views.GameAnalysisView.as_view(), name="game-analysis"),
    path("games/<int:game_id>/nudge", NudgeView.as_view(), name="game-nudge"),
    path("games/<int:game_id>/how-to-play", views.HowToPlayView.as_view(), name="game-how-to-play"),
]
