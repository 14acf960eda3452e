"""The web client's pages (namespace ``web``). Stable addresses: a link in an email or a phone's
home screen keeps working (``/games/<id>``, ``/puzzle``, ``/settings``)."""

from django.urls import path, register_converter

from games.crazy10s.puzzles.api.urls import DayConverter
from web.views import account, games, puzzle

register_converter(DayConverter, "webday")

app_name = "web"

urlpatterns = [
    path("", games.home, name="home"),
    path("signup", account.signup, name="signup"),
    path("signin", account.signin, name="signin"),
    path("signout", account.signout, name="signout"),
    path("settings", account.account_settings, name="settings"),
    path("language", account.set_language, name="language"),
    path("games/new", games.new_game, name="new-game"),
    path("games/<int:game_id>", games.game_page, name="game"),
    path("games/<int:game_id>/panel", games.game_panel, name="game-panel"),
    path("puzzle", puzzle.puzzle_page, name="puzzle"),
    path("puzzle/<webday:day>", puzzle.puzzle_page, name="puzzle-day"),
]
