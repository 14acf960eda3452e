"""Render a ``SentNotification`` into a plain-text + HTML email in the recipient's language.

Only public facts go into an email: names, scores, deadlines and the public notation of the
last move (a swap shows only its count). Never a rack, the bag or the seed.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import signing
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.validators import single_line
from config import mail
from games import kinds
from games.models import Game, Move, Seat
from games.notifications.models import Kind, SentNotification
from games.notifications.texts import LANGUAGES, text

if TYPE_CHECKING:
    from accounts.models import User

UNSUBSCRIBE_SALT = "notifications.unsubscribe.v2"
LEGACY_UNSUBSCRIBE_SALT = "notifications.unsubscribe"  # tokens that held the user id
UNSUBSCRIBE_MAX_AGE = timedelta(days=60)

# Which preference an email's unsubscribe link turns off.
PREFERENCE_OF_KIND = {
    Kind.TURN: "turn_emails",
    Kind.GATHERED: "turn_emails",
    Kind.DIGEST: "turn_emails",
    Kind.STARTED: "turn_emails",
    Kind.NUDGE: "reminder_emails",
    Kind.REMINDER: "reminder_emails",
    Kind.FINISHED: "result_emails",
    Kind.INVITE: "turn_emails",
}
_PREFERENCE_CODES = {"turn_emails": "t", "reminder_emails": "r", "result_emails": "f"}


def game_url(game_id: int) -> str:
    # The game's page in the web client (web/urls.py: web:game); signed out, it leads
    # through sign-in and back.
    return f"{settings.SITE_BASE_URL}/games/{game_id}"


def unsubscribe_token(user: User, preference: str) -> str:
    """A link token naming the account by its random ``unsubscribe_key`` (never its id), signed
    with the time it was made: every email carries a new one, valid for UNSUBSCRIBE_MAX_AGE."""
    signer = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT)
    return signer.sign(f"{user.unsubscribe_key}.{_PREFERENCE_CODES[preference]}")


def read_unsubscribe_token(token: str) -> tuple[str, str]:
    """(unsubscribe key, preference) from a token. Raises ``signing.SignatureExpired`` for an
    expired token or one of the old format (which named the user id), and
    ``signing.BadSignature`` for anything forged or garbled."""
    signer = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT)
    try:
        value = signer.unsign(token, max_age=UNSUBSCRIBE_MAX_AGE)
    except signing.SignatureExpired:
        raise
    except signing.BadSignature:
        try:  # links sent before tokens expired: honest but too old now
            signing.loads(token, salt=LEGACY_UNSUBSCRIBE_SALT)
        except signing.BadSignature:
            raise signing.BadSignature("bad unsubscribe token") from None
        raise signing.SignatureExpired("unsubscribe token of the old format") from None
    key, _, code = value.rpartition(".")
    preference = {c: p for p, c in _PREFERENCE_CODES.items()}.get(code)
    if not key or preference is None:
        raise signing.BadSignature("unknown preference")
    return key, preference


def unsubscribe_url(user: User, preference: str) -> str:
    path = reverse("notifications-unsubscribe", args=[unsubscribe_token(user, preference)])
    return f"{settings.SITE_BASE_URL}{path}"


def format_deadline(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment else "-"


def _player_name(seat: Seat, language: str, kind: str | None = None) -> str:
    if seat.user is None:
        # The level's name reads as a name in every language ("gegen Computer (Experte)").
        with translation.override(language if language in LANGUAGES else "en"):
            return kinds.get(kind or seat.game.kind).computer_name(seat.ai_level or "")
    # Names reach the Subject header: never a line break there (names are validated on
    # input, but an older or admin-edited name must not make every email fail).
    return single_line(seat.user.public_name)


def _sides(game: Game, user_id: int, language: str) -> tuple[Seat, Seat, str]:
    seats = list(game.seats.select_related("user").order_by("index"))
    mine = next(s for s in seats if s.user_id == user_id)
    theirs = next(s for s in seats if s.index != mine.index)
    return mine, theirs, _player_name(theirs, language, game.kind)


def _game_fields(game: Game, user_id: int, language: str) -> dict[str, Any]:
    mine, theirs, opponent = _sides(game, user_id, language)
    with translation.override(language):
        consequence = kinds.get(game.kind).timeout_consequence()
    return {
        "consequence": consequence,
        "game": game.pk,
        "opponent": opponent,
        "mine": mine.score,
        "theirs": theirs.score,
        "deadline": format_deadline(game.turn_deadline),
        "mine_seat": mine.index,
        "theirs_seat": theirs.index,
    }


def _game_of(n: SentNotification) -> Game:
    """The game of a notification about one game (every kind but gathered, digest, invite)."""
    assert n.game is not None, n.kind
    return n.game


def _turn_paragraphs(n: SentNotification, language: str) -> list[str]:
    game = _game_of(n)
    fields = _game_fields(game, n.user_id, language)
    paragraphs = [text(language, "turn", **fields)]
    last = (
        Move.objects.filter(game=game, number=n.move_number).first()
        if n.move_number is not None
        else None
    )
    if last is not None and last.seat != fields["mine_seat"]:
        if last.is_timeout:
            paragraphs.append(text(language, "last_move_timeout", **fields))
        else:
            paragraphs.append(text(language, "last_move", move=last.public_notation, **fields))
    paragraphs.append(text(language, "score", **fields))
    paragraphs.append(text(language, "deadline", **fields))
    return paragraphs


def _game_list(game_ids: list[int], user_id: int, language: str) -> list[dict[str, str]]:
    games = Game.objects.filter(pk__in=game_ids).order_by("turn_deadline", "pk")
    return [
        {
            "text": text(language, "game_line", **_game_fields(g, user_id, language)),
            "url": game_url(g.pk),
        }
        for g in games
    ]


def _result_paragraph(game: Game, user_id: int, language: str) -> str:
    fields = _game_fields(game, user_id, language)
    result = game.result or {}
    scores = result.get("scores") or [fields["mine"], fields["theirs"]]
    mine_seat = fields["mine_seat"]
    fields["mine"], fields["theirs"] = scores[mine_seat], scores[fields["theirs_seat"]]
    winner = result.get("winner")
    if winner is None:
        return text(language, "draw", **fields)
    return text(language, "won" if winner == mine_seat else "lost", **fields)


def _match_result_paragraph(game: Game, user_id: int, language: str) -> str:
    """A match of three or four seats: who won, and every seat's score (public facts)."""
    seats = list(game.seats.select_related("user").order_by("index"))
    result = game.result or {}
    scores = result.get("scores") or [s.score for s in seats]
    listed = ", ".join(
        f"{_player_name(s, language, game.kind)} {scores[s.index]}" for s in seats
    )
    winners = result.get("winners") or []
    mine = next(s.index for s in seats if s.user_id == user_id)
    if mine in winners:
        return text(language, "match_won", game=game.pk, scores=listed)
    names = " / ".join(_player_name(seats[i], language, game.kind) for i in winners) or "-"
    return text(language, "match_lost", game=game.pk, winner=names, scores=listed)


def _table_title(payload: dict[str, Any], language: str) -> str:
    """The name of the game a table invitation is for (older invitations name no kind: the
    first kind that has tables)."""
    name = payload.get("kind")
    kind = (
        kinds.get(name) if name in kinds.names()
        else next(k for k in kinds.all_kinds() if k.table is not None)
    )
    with translation.override(language):
        return str(kind.title)


def content(n: SentNotification) -> dict[str, Any]:
    """Subject and body parts of the email for ``n`` (in the recipient's language)."""
    user = n.user
    language = (user.language or "en").lower()
    parts: dict[str, Any] = {"paragraphs": [], "games": [], "action_url": None}
    if n.kind == Kind.TURN:
        fields = _game_fields(_game_of(n), user.pk, language)
        parts["subject"] = text(language, "subject_turn", **fields)
        parts["paragraphs"] = _turn_paragraphs(n, language)
    elif n.kind in (Kind.GATHERED, Kind.DIGEST):
        parts["games"] = _game_list(n.payload.get("games", []), user.pk, language)
        parts["subject"] = text(language, f"subject_{n.kind}", count=len(parts["games"]))
        parts["paragraphs"] = [text(language, "gathered")]
    elif n.kind in (Kind.REMINDER, Kind.NUDGE, Kind.STARTED):
        fields = _game_fields(_game_of(n), user.pk, language)
        parts["subject"] = text(language, f"subject_{n.kind}", **fields)
        parts["paragraphs"] = [text(language, str(n.kind), **fields)]
        if n.kind == Kind.STARTED:
            first = "you" if _game_of(n).current_seat == fields["mine_seat"] else "they"
            parts["paragraphs"].append(text(language, f"started_{first}_first", **fields))
        if n.kind == Kind.NUDGE:
            parts["paragraphs"].append(text(language, "deadline", **fields))
    elif n.kind == Kind.INVITE:
        fields = {"host": single_line(n.payload.get("host", "")), "code": n.payload.get("code"),
                  "title": _table_title(n.payload, language)}
        parts["subject"] = text(language, "subject_invite", **fields)
        parts["paragraphs"] = [text(language, "invite", **fields)]
        parts["action_url"] = n.payload.get("url")
    elif n.kind == Kind.FINISHED and _game_of(n).seat_count > 2:
        parts["subject"] = text(language, "subject_match_over", game=n.game_id)
        parts["paragraphs"] = [_match_result_paragraph(_game_of(n), user.pk, language)]
    elif n.kind == Kind.FINISHED:
        fields = _game_fields(_game_of(n), user.pk, language)
        parts["subject"] = text(language, "subject_finished", **fields)
        parts["paragraphs"] = [_result_paragraph(_game_of(n), user.pk, language)]
    else:
        raise ValueError(f"unknown notification kind {n.kind!r}")
    if n.game_id is not None:
        parts["action_url"] = game_url(n.game_id)
    parts.update(
        language=language,
        greeting=text(language, "greeting", name=user.public_name),
        action_label=text(language, "open_table" if n.kind == Kind.INVITE else "open_game"),
        footer=text(language, "footer"),
        unsubscribe_label=text(language, "unsubscribe"),
        unsubscribe_url=unsubscribe_url(user, PREFERENCE_OF_KIND[Kind(n.kind)]),
    )
    return parts


def public_reference(n: SentNotification) -> str:
    """``turn:<game>:<move>:<digest>``, ``started:<game>:<digest>``, ``digest:<digest>``...: the
    kind, the game (and the move of a turn or reminder), never the internal key's user ids."""
    parts: list[object] = [n.kind]
    if n.game_id is not None:
        parts.append(n.game_id)
        if n.kind in (Kind.TURN, Kind.REMINDER) and n.move_number is not None:
            parts.append(n.move_number)
    return mail.reference(n.key, *parts)


def build_message(n: SentNotification) -> mail.Email:
    parts = content(n)
    with translation.override(parts["language"]):
        body = render_to_string("notifications/email.txt", parts)
        html = render_to_string("notifications/email.html", parts)
    message = mail.Email(
        subject=single_line(parts["subject"]),
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[n.user.email],
        headers=mail.headers(
            public_reference(n),
            # RFC 2369 + RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click".
            **{
                "List-Unsubscribe": f"<{parts['unsubscribe_url']}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "Content-Language": parts["language"],
            },
        ),
    )
    message.attach_alternative(html, "text/html")
    return message
