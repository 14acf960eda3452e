from django.urls import path, register_converter

from games.crazy10s.puzzles.api import views


class DayConverter:
    """Only the ISO form YYYY-MM-DD names a day (date.fromisoformat would also read 20261201);
    anything else does not match, and the API answers 404 not_found."""

    regex = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(DayConverter, "day")

# Mounted under api/v1/puzzles/ by config/urls.py.
urlpatterns = [
    path("daily", views.DailyPuzzleView.as_view(), name="puzzles-daily"),
    path("<day:day>", views.PuzzleView.as_view(), name="puzzles-detail"),
    path("<day:day>/attempt", views.AttemptView.as_view(), name="puzzles-attempt"),
    path("<day:day>/leaderboard", views.LeaderboardView.as_view(), name="puzzles-leaderboard"),
]
