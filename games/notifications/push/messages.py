"""What a push says: the JSON the service worker reads, in the recipient's language, and the
headers (RFC 8030) that go with it.

Only public facts: names, scores, game and table numbers, the deadline. Never a rack, a hand,
the bag or a chat line (the chat push only says that someone wrote). The service worker
(web/static/web/sw.js) shows ``title``/``body`` under the tag ``tag`` (one notification per
game: a newer one replaces it), closes that tag's notification on ``clear``, opens ``url`` on a
click and sets the app badge to ``badge`` (games waiting for the recipient's move).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import selectors
from games.models import Game, Seat
from games.notifications.emails import (
    _match_result_paragraph,
    _player_name,
    _result_paragraph,
    _table_title,
    format_deadline,
)
from games.notifications.models import PushDelivery, PushKind
from games.notifications.texts import LANGUAGES, text

# Seconds a push service keeps an undelivered message (TTL) and how urgently it should wake a
# phone (Urgency, RFC 8030 5.3), per kind of message. A turn waits a day for a phone that is
# off; a reminder or a chat line is stale sooner; a clear must still reach a phone that comes
# back a day later, but need not wake it.
TTL = {
    PushKind.TURN: 24 * 3600,
    PushKind.CLEAR: 24 * 3600,
    PushKind.NUDGE: 12 * 3600,
    PushKind.INVITE: 6 * 3600,
    PushKind.DEALT: 600,
    PushKind.CHAT: 3600,
    PushKind.RESULT: 3 * 24 * 3600,
    PushKind.REMINDER: 3600,
}
URGENCY = {
    PushKind.TURN: "high",
    PushKind.CLEAR: "low",
    PushKind.NUDGE: "normal",
    PushKind.INVITE: "high",
    PushKind.DEALT: "high",
    PushKind.CHAT: "normal",
    PushKind.RESULT: "normal",
    PushKind.REMINDER: "high",
}


@dataclass(frozen=True)
class PushMessage:
    payload: dict[str, Any]
    ttl: int
    urgency: str
    topic: str  # RFC 8030 5.4: a newer message with the same topic replaces a queued one


def language_of(user: Any) -> str:
    language = (user.language or "en").lower()
    return language if language in LANGUAGES else "en"


def games_waiting(user: Any) -> int:
    """The badge: the same count as the web client's "waiting for you" badge."""
    return selectors.waiting_for_you_count(user=user)


def tag_of(delivery: PushDelivery) -> str:
    if delivery.game_id is not None:
        return f"game-{delivery.game_id}"
    return f"{delivery.kind}-{delivery.facts.get('code', delivery.pk)}"


def _seat_name(game: Game, index: int, language: str) -> str:
    seat = Seat.objects.select_related("user", "game").get(game=game, index=index)
    return _player_name(seat, language, game.kind)


def _texts(delivery: PushDelivery, language: str) -> tuple[str, str]:
    facts = delivery.facts
    game = delivery.game
    kind = delivery.kind
    if kind == PushKind.TURN:
        assert game is not None
        opponent = _seat_name(game, int(facts["mover_seat"]), language)
        points = int(facts.get("points") or 0)
        body_key = "push_turn_points" if points else "push_turn_plain"
        return (text(language, "push_turn_title", game=game.pk),
                text(language, body_key, opponent=opponent, points=points))
    if kind == PushKind.NUDGE:
        assert game is not None
        opponent = _seat_name(game, int(facts["sender_seat"]), language)
        return (text(language, "push_nudge_title", opponent=opponent),
                text(language, "push_nudge", game=game.pk))
    if kind == PushKind.REMINDER:
        assert game is not None
        seats = list(game.seats.select_related("user").exclude(user_id=delivery.user_id))
        opponent = _player_name(seats[0], language, game.kind) if seats else ""
        return (text(language, "push_reminder_title", game=game.pk),
                text(language, "push_reminder", opponent=opponent,
                     deadline=format_deadline(game.turn_deadline)))
    if kind == PushKind.RESULT:
        assert game is not None
        line = (_result_paragraph(game, delivery.user_id, language) if game.seat_count == 2
                else _match_result_paragraph(game, delivery.user_id, language))
        return (text(language, "push_result_title", game=game.pk), line)
    if kind == PushKind.INVITE:
        title = _table_title(facts, language)
        return (text(language, "push_invite_title", host=facts["host"]),
                text(language, "push_invite", code=facts["code"], title=title))
    if kind == PushKind.DEALT:
        return (text(language, "push_dealt_title", code=facts["code"]),
                text(language, "push_dealt", host=facts["host"], game=facts["game"]))
    if kind == PushKind.CHAT:
        assert game is not None
        return (text(language, "push_chat_title", author=facts["author"], game=game.pk),
                text(language, "push_chat"))
    return ("", "")


def build(delivery: PushDelivery) -> PushMessage:
    """The message of one claimed push (reads the database: call it before marking it sent)."""
    user = delivery.user
    language = language_of(user)
    payload: dict[str, Any] = {
        "type": delivery.kind,
        "tag": tag_of(delivery),
        "badge": games_waiting(user),
        "lang": language,
    }
    if delivery.game_id is not None:
        payload["game"] = delivery.game_id
        payload["url"] = f"/games/{delivery.game_id}"
    elif "url" in delivery.facts:
        payload["url"] = str(delivery.facts["url"])
    if delivery.kind != PushKind.CLEAR:
        payload["title"], payload["body"] = _texts(delivery, language)
    # The chat has its own topic: a chat line must not replace a queued "your turn".
    topic = payload["tag"] if delivery.kind != PushKind.CHAT else f"chat-{delivery.game_id}"
    return PushMessage(payload, TTL[PushKind(delivery.kind)], URGENCY[PushKind(delivery.kind)],
                       topic)
