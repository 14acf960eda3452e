"""Everything a player can do in the web client, and the JSON API operation(s) that do the
same. ``tests/web/test_api_parity.py`` compares this list with the web's URLs, the API paths
the page scripts call and the API's schema: each web action is backed by the API, and an API
operation the web client does not offer yet is listed in ``API_ONLY`` with the reason."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WebAction:
    name: str
    page: str | None  # the web URL name that does it (None: the page's script, via the API)
    operations: tuple[str, ...]  # operationId in /api/v1/schema/


WEB_ACTIONS: tuple[WebAction, ...] = (
    WebAction("see your games (your turn first) and the waiting badge", "home", ("games_list",)),
    WebAction("follow your games live: the lists and the waiting badge", "games-lists",
              ("games_list", "events_stream")),
    WebAction("the waiting badge on any page, followed live", "badge",
              ("games_list", "events_stream")),
    WebAction("sign up", "signup", ("auth_register",)),
    WebAction("sign in (a session instead of a token)", "signin", ("auth_token",)),
    WebAction("sign out", "signout", ("auth_logout",)),
    WebAction("see and change settings (display name, email, language, emails)", "settings",
              ("me_retrieve", "me_update")),
    WebAction("switch the language", "language", ("me_update",)),
    WebAction("switch each kind of push notification on or off (beside the emails)",
              "settings", ("me_push_retrieve", "me_push_update")),
    WebAction("turn on notifications on this device (Settings, or the offer after a move)",
              None, ("me_push_retrieve", "me_push_subscribe")),
    WebAction("turn off notifications on this device", None, ("me_push_unsubscribe",)),
    # The installable app: what the browser fetches itself (no API behind them).
    WebAction("install the app (the browser reads the manifest)", "manifest", ()),
    WebAction("keep the app shell and the offline page (the service worker)",
              "service-worker", ()),
    WebAction("see the offline page when the network is gone", "offline", ()),
    WebAction("the offline page in each language (what the service worker caches)",
              "offline-language", ()),
    WebAction("confirm the email address (the email's link)", "verify-email",
              ("auth_email_verify",)),
    WebAction("ask for a new verification email", "resend-verification",
              ("auth_email_resend",)),
    WebAction("ask for a password reset link", "forgot-password", ("auth_password_reset",)),
    WebAction("choose a new password (the email's link)", "reset-password",
              ("auth_password_reset_confirm",)),
    WebAction("change the password", "change-password", ("me_password",)),
    WebAction("see the signed-in devices, sign out one or all", "devices",
              ("me_devices", "me_device_revoke", "me_devices_revoke_all")),
    WebAction("download everything about you", "export", ("me_export",)),
    WebAction("delete the account", "delete-account", ("me_delete",)),
    WebAction("report a player or a game", "report", ("reports_create",)),
    WebAction("start a game of any kind (each seat: a computer level, a friend or random; "
              "turn time, rated, the kind's options)", "new-game",
              ("games_create", "games_computer_levels")),
    WebAction("play a game that is over again (same seats, turn time, rating, settings)",
              "game-again", ("games_create",)),
    WebAction("open a game: board, rack, scores, bag, turn, deadline, history, how to play",
              "game", ("games_retrieve", "games_moves_list", "games_how_to_play")),
    WebAction("follow the game after a move or an event", "game-panel",
              ("games_retrieve", "games_moves_list", "events_stream")),
    WebAction("preview the score of the staged tiles", None, ("games_preview",)),
    WebAction("play, pass or swap", None, ("games_moves_create",)),
    WebAction("resign", None, ("games_resign",)),
    WebAction("cancel a game nobody joined yet (a random-opponent request)", None,
              ("games_cancel",)),
    WebAction("nudge a person whose turn it is", None, ("games_nudge",)),
    WebAction("see the Daily Puzzle, your result, the best move, the streak", "puzzle",
              ("puzzles_daily", "me_retrieve")),
    WebAction("see a past day's puzzle", "puzzle-day", ("puzzles_retrieve",)),
    WebAction("try the Daily Puzzle", None, ("puzzles_attempt",)),
    # Crazy Eights
    WebAction("ask for a hint (Crazy Eights)", None, ("games_hint",)),
    WebAction("open a table with friends (the kind's table options)", None,
              ("tables_create",)),
    WebAction("go to a table by its code", "tables", ("tables_retrieve",)),
    WebAction("see a table: code, share link, seats, the host's rules, the match",
              "table", ("tables_retrieve",)),
    WebAction("follow a table (someone joins, leaves, the host deals)", "table-panel",
              ("tables_retrieve", "events_stream")),
    WebAction("take a seat at a table, or take it back from the computer", None,
              ("tables_join",)),
    WebAction("leave a table (the computer plays the seat)", None, ("tables_leave",)),
    WebAction("deal (the host)", None, ("tables_deal",)),
    WebAction("come back after a missed turn", None, ("tables_back",)),
    WebAction("invite a player to a table by username", None, ("tables_invite",)),
    WebAction("see the puzzle's leaderboard", "puzzle", ("puzzles_leaderboard",)),
    WebAction("chat in a game: read, write, mute and unmute it", None,
              ("games_chat_list", "games_chat_create", "games_chat_mute", "games_chat_unmute")),
    WebAction("offer, accept, decline or withdraw a rematch", None,
              ("games_rematch", "games_rematch_cancel")),
    WebAction("see your friends (online, whose turn), requests for you and yours", "friends",
              ("me_friends_list",)),
    WebAction("ask a player to be a friend, accept, decline, remove", None,
              ("me_friends_create", "me_friends_accept", "me_friends_remove")),
    WebAction("play again with a friend", None, ("me_friends_play",)),
    WebAction("see a player's profile, ratings and (your own) statistics", "player",
              ("players_retrieve", "players_ratings")),
    WebAction("block or unblock a player", None, ("players_block", "players_unblock")),
    WebAction("see the players you blocked and your social settings", "settings",
              ("me_blocked_list", "me_social_retrieve")),
    WebAction("hide your profile, mute chat in every game", None, ("me_social_update",)),
    # Correspondence play (games.correspondence)
    WebAction("see your vacation days, start and end a vacation (settings)", "vacation",
              ("me_vacation_retrieve", "me_vacation_start", "me_vacation_end")),
    WebAction("make your games public for spectators (settings)", "public-games",
              ("me_watching_retrieve", "me_watching_update")),
    WebAction("search your finished games (opponent, kind, result, month), page through",
              "archive", ("me_archive_list",)),
    WebAction("download a game as text or JSON, or your whole history (JSON Lines): the "
              "archive page's links", "archive",
              ("games_export", "games_export_text", "me_archive_export")),
    WebAction("replay a finished game move by move", "replay", ("games_export",)),
    WebAction("watch a friend's game or a public one, live", "watch", ("games_watch",)),
)

# API operations without a web action yet, and why.
API_ONLY: dict[str, str] = {
    "me_push_subscriptions": "the settings page shows this device's state from the browser's "
    "own subscription; an app lists its devices' subscriptions",
    "game_events_stream": "the page follows the player's stream (events_stream) instead",
    "games_analysis": "the game page's history shows each move's score / best (percent) from "
    "the same stored analysis; no page of its own yet",
}
