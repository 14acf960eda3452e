"""The web client's pages (namespace ``web``). Stable addresses: a link in an email or a phone's
home screen keeps working (``/games/<id>``, ``/puzzle``, ``/settings``, ``/tables/<code>``)."""

from django.urls import path, register_converter

from games.crazy10s.puzzles.api.urls import DayConverter
from web.views import account, account_pages, app, common, games, puzzle, social, tables
from web.views import archive as archive_views
from web.views import replay as replay_views
from web.views import vacation as vacation_views
from web.views import watching as watching_views

register_converter(DayConverter, "webday")

app_name = "web"

urlpatterns = [
    path("sw.js", app.service_worker, name="service-worker"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("offline", app.offline, name="offline"),
    path("offline/<str:language>", app.offline, name="offline-language"),
    path("", games.home, name="home"),
    path("favicon.ico", common.favicon),  # no name: not a page of its own
    path("signup", account.signup, name="signup"),
    path("signin", account.signin, name="signin"),
    path("signout", account.signout, name="signout"),
    path("settings", account.account_settings, name="settings"),
    path("settings/vacation", vacation_views.vacation, name="vacation"),
    path("language", account.set_language, name="language"),
    # Account pages (issue 14); the first two are the links of account emails.
    path("account/verify-email", account_pages.verify_email, name="verify-email"),
    path("account/reset-password", account_pages.reset_password, name="reset-password"),
    path("account/verify-email/resend", account_pages.resend_verification,
         name="resend-verification"),
    path("account/forgot-password", account_pages.forgot_password, name="forgot-password"),
    path("account/password", account_pages.change_password, name="change-password"),
    path("account/devices", account_pages.devices, name="devices"),
    path("account/export", account_pages.export_data, name="export"),
    path("account/delete", account_pages.delete_account, name="delete-account"),
    path("report", account_pages.report, name="report"),
    path("games/new", games.new_game, name="new-game"),
    path("games/lists", games.games_lists, name="games-lists"),
    path("games/badge", games.badge, name="badge"),
    path("archive", archive_views.archive, name="archive"),
    path("games/<int:game_id>/replay", replay_views.replay, name="replay"),
    path("games/<int:game_id>/watch", watching_views.watch, name="watch"),
    path("settings/watching", watching_views.public_games, name="public-games"),
    path("games/<int:game_id>", games.game_page, name="game"),
    path("games/<int:game_id>/panel", games.game_panel, name="game-panel"),
    path("games/<int:game_id>/again", games.play_again, name="game-again"),
    path("friends", social.friends_page, name="friends"),
    path("players/<str:username>", social.player_page, name="player"),
    path("puzzle", puzzle.puzzle_page, name="puzzle"),
    path("puzzle/<webday:day>", puzzle.puzzle_page, name="puzzle-day"),
    # Tables with friends (the share link opens /tables/<code>)
    path("tables", tables.find_table, name="tables"),
    path("tables/<str:code>", tables.table_page, name="table"),
    path("tables/<str:code>/panel", tables.table_panel, name="table-panel"),
]
