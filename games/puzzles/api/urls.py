from django.urls import path

from games.puzzles.api import views

# Mounted under api/v1/puzzles/ by config/urls.py.
urlpatterns = [
    path("daily", views.DailyPuzzleView.as_view(), name="puzzles-daily"),
    path("<str:day>", views.PuzzleView.as_view(), name="puzzles-detail"),
    path("<str:day>/attempt", views.AttemptView.as_view(), name="puzzles-attempt"),
    path("<str:day>/leaderboard", views.LeaderboardView.as_view(), name="puzzles-leaderboard"),
]
