"""Email and unsubscribe-page texts, as gettext messages (translated in locale/*/django.po).

Each text has a key used by ``emails.py`` and ``views.py``; its English wording is the gettext
message id. Placeholders are ``str.format`` fields filled in after translation.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

LANGUAGES = ("en", "de", "fr", "pt-br")

TEXTS = {
    "greeting": _("Hello {name},"),
    "subject_turn": _("Your turn in game #{game} against {opponent}"),
    "subject_gathered": _("{count} games are waiting for your move"),
    "subject_digest": _("Your games waiting for a move ({count})"),
    "subject_reminder": _("Reminder: your move in game #{game} is due soon"),
    "subject_started": _("Game #{game} against {opponent} has started"),
    "subject_finished": _("Game #{game} against {opponent} is over"),
    "subject_nudge": _("{opponent} is waiting for your move in game #{game}"),
    "turn": _("It is your turn in game #{game} against {opponent}."),
    "last_move": _("Last move by {opponent}: {move}."),
    "last_move_timeout": _("{opponent}'s time to move ran out: {consequence}."),
    "score": _("Score: you {mine}, {opponent} {theirs}."),
    "deadline": _("Please move before {deadline}."),
    "gathered": _("These games are waiting for your move, most urgent first:"),
    "game_line": _("Game #{game} against {opponent}, move before {deadline}"),
    "reminder": _(
        "Your time to move in game #{game} against {opponent} runs out at {deadline}. If "
        "you do not move by then, {consequence}."
    ),
    "started": _("Your game #{game} against {opponent} has started."),
    "started_you_first": _("You have the first move."),
    "started_they_first": _("{opponent} has the first move."),
    "won": _("You won game #{game} against {opponent}, {mine} to {theirs}."),
    "lost": _("You lost game #{game} against {opponent}, {mine} to {theirs}."),
    "draw": _("Game #{game} against {opponent} ended in a draw, {mine} to {theirs}."),
    "nudge": _("{opponent} is waiting for your move in game #{game} and sent you a reminder."),
    "open_game": _("Open the game"),
    "subject_invite": _("{host} invites you to a table of {title}"),
    "invite": _(
        "{host} invites you to sit at table {code}. Open the link to join; the match starts "
        "when the host deals."
    ),
    "open_table": _("Open the table"),
    "subject_match_over": _("Match #{game} is over"),
    "match_won": _("You won match #{game}. Scores: {scores}."),
    "match_lost": _("Match #{game} is over: {winner} won. Scores: {scores}."),
    "unsubscribe": _("Unsubscribe from these emails"),
    "footer": _("You receive this email because you play on Crazy10s Online."),
    "unsub_confirm_title": pgettext_lazy("page title", "Unsubscribe"),
    "unsub_confirm": _("Stop receiving these emails ({what})?"),
    "unsub_button": pgettext_lazy("button", "Unsubscribe"),
    "unsub_done": _("Done: you will no longer receive these emails ({what})."),
    "unsub_bad": _("This unsubscribe link is not valid."),
    "unsub_expired": _(
        "This unsubscribe link has expired. Use the link in a more recent email, or change "
        "your email settings in the app."
    ),
    "what_turn_emails": _("turn emails"),
    "what_reminder_emails": _("deadline reminders"),
    "what_result_emails": _("game results"),
    # Push notifications: short (a phone shows two lines), public facts only.
    "push_turn_title": _("Your turn in game #{game}"),
    "push_turn_points": _("{opponent} played for {points} points. Your move!"),
    "push_turn_plain": _("{opponent} played. Your move!"),
    "push_nudge_title": _("{opponent} is waiting for you"),
    "push_nudge": _("Game #{game}: it is your move."),
    "push_reminder_title": _("Your time in game #{game} runs out soon"),
    "push_reminder": _("Move before {deadline} in your game against {opponent}."),
    "push_result_title": _("Game #{game} is over"),
    "push_invite_title": _("{host} invites you to a table"),
    "push_invite": _("Table {code}: {title}. The match starts when the host deals."),
    "push_dealt_title": _("The match at table {code} has started"),
    "push_dealt": _("{host} dealt: game #{game} is on."),
    "push_chat_title": _("{author} wrote to you in game #{game}"),
    "push_chat": _("Open the game to read the message."),
}


def text(language: str, key: str, **fields: object) -> str:
    """The text ``key`` in ``language`` (English if the language is unknown), filled in."""
    language = (language or "en").lower()
    with translation.override(language if language in LANGUAGES else "en"):
        return str(TEXTS[key]).format(**fields)
