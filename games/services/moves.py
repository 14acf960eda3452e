"""A player's moves: play one (with optional idempotency), preview one, and note that a player
looked at the game."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.utils.encoders import JSONEncoder

from games import dispatch, effects, errors, kinds, selectors, writes
from games.kinds.base import GameKind
from games.models import Game, IdempotencyRecord, Seat
from games.services import idempotency
from games.services._common import (
    _lock_game,
    _lock_game_and_seats,
    _record_move,
    _seat_of,
    _seats,
)

if TYPE_CHECKING:
    from accounts.models import User


@dataclass(frozen=True)
class MoveReceipt:
    """What ``submit_move`` answers: the response body, and whether it was a stored replay."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


def _check_playable(game: Game, expected_move_number: int | None) -> None:
    if game.is_over:
        raise errors.game_over()
    if game.status == Game.Status.WAITING:
        raise errors.not_your_turn(_("The game is waiting for an opponent."))
    if expected_move_number is not None and expected_move_number != game.move_number:
        raise errors.stale_move_number(game.move_number)


def submit_move(
    *,
    game_id: int,
    user: User,
    move: dict[str, Any] | str | None = None,
    expected_move_number: int | None = None,
    read: Callable[[GameKind], tuple[dict[str, Any] | str, int]] | None = None,
    idempotency_key: str | None = None,
    render: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> MoveReceipt:
    """Play the user's move (the kind's move input, validated, or its notation) and return
    the response body.

    Instead of ``move`` and ``expected_move_number``, ``read(kind)`` reads the request with
    the game's kind (its move input, validated, or its
    notation) and returns (move, expected move number): the kind is known once the game is
    locked, so no query runs before the lock just to learn it.

    ``render`` turns the body into the response (the API's serializers) before the transaction
    commits: a body that cannot be rendered rolls the move back, so a committed move always has
    its answer. With ``idempotency_key`` that answer is stored in the same transaction; a retry
    with the same key gets it back and plays nothing, and a request with the key while another
    one is in flight is refused (409 ``idempotency_key_in_use``).
    """
    with effects.one_publication(), transaction.atomic():
        game, seats = _lock_game_and_seats(game_id)
        kind = kinds.get(game.kind)
        seat = _seat_of(seats, user)
        if read is not None:
            move, expected_move_number = read(kind)
        assert move is not None, "submit_move needs a move or a read"
        fingerprint = ""
        if idempotency_key:
            fingerprint = _request_fingerprint(game.pk, move, expected_move_number)
            stored = idempotency.hold(user, idempotency_key)
            if stored is not None:
                if stored.game_id != game.pk:
                    raise errors.idempotency_key_reused()
                if stored.fingerprint and stored.fingerprint != fingerprint:
                    raise errors.idempotency_key_mismatch()
                return MoveReceipt(stored.status, stored.body, replayed=True)
        _check_playable(game, expected_move_number)
        if game.current_seat != seat.index:
            raise errors.not_your_turn()
        try:
            played = kind.play(kind.load(game.state), _parse(kind, move), seat=seat.index)
        except kind.IllegalMove as exc:
            raise errors.illegal_move(kind, exc) from exc
        if seat.away or seat.left:
            _take_back(seat)  # acting gives the seat back: the server stops playing it
        # The move's writes and its key's record go to the database together, in one round
        # trip (games/writes.py): nothing below reads what they write.
        with writes.batched():
            _record_move(game, seats, played)
            view = selectors.player_view(
                game=game, seat_index=seat.index, seats=seats, state=played.state
            )
            record = played.record
            body = {
                **record.public,
                **record.private.get(seat.index, {}),  # what only the mover learns (drawn tiles)
                "kind": game.kind,
                "score": record.score,
                "game": view,
            }
            # A rendered body is already JSON's types (the serializers' output).
            body = render(body) if render is not None else _jsonable(body)
            if idempotency_key:
                writes.insert(IdempotencyRecord(
                    user=user,
                    key=idempotency_key,
                    game=game,
                    response_status=201,
                    response_body=body,
                    request_fingerprint=fingerprint,
                ))
            try:
                writes.flush()
            except IntegrityError as exc:
                if idempotency_key and "idempotency" in str(exc):
                    # Stored meanwhile by a request on another game that the claim could not
                    # see (SQLite has none): refuse; leaving the block rolls the move back.
                    raise errors.idempotency_key_reused() from exc
                raise
        return MoveReceipt(201, body)


def _parse(kind: GameKind, move: dict[str, Any] | str) -> Any:
    """The engine move: from notation, or from the kind's move input."""
    return kind.parse_notation(move) if isinstance(move, str) else kind.parse(move)


def _take_back(seat: Seat) -> None:
    seat.away = seat.left = False
    Seat.objects.filter(pk=seat.pk).update(away=False, left=False)


def come_back(*, game_id: int, user: User, now: datetime | None = None) -> Game:
    """The person takes their seat back from the computer (after a missed deadline or after
    leaving a table). On their turn the clock starts again, with its own timer; a computer
    turn already queued for the seat finds it taken back and plays nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if not (seat.away or seat.left) or game.is_over:
            return game
        _take_back(seat)
        if game.status == Game.Status.ACTIVE and game.current_seat == seat.index:
            _restart_turn_clock(game, now)
        return game


def leave_seat(*, game_id: int, user: User) -> Game:
    """The person leaves the game's table: the computer plays their seat from now on (at once
    if it is their turn); joining again (``come_back``) gives it back."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if seat.left or game.is_over:
            return game
        already_away = seat.away
        seat.left = seat.away = True
        Seat.objects.filter(pk=seat.pk).update(left=True, away=True)
        if game.status == Game.Status.ACTIVE and game.current_seat == seat.index:
            if not already_away:
                dispatch.enqueue_ai_turn_on_commit(game.pk, game.move_number)
        return game


def _restart_turn_clock(game: Game, now: datetime) -> None:
    if not game.turn_seconds:
        return
    game.turn_started_at = now
    game.turn_deadline = now + timedelta(seconds=game.turn_seconds)
    game.save(update_fields=["turn_started_at", "turn_deadline"])
    dispatch.enqueue_turn_deadline_on_commit(game.pk, game.move_number, game.turn_deadline)


def _request_fingerprint(game_id: int, move: Any, expected_move_number: int | None) -> str:
    """sha256 of the request's canonical JSON: a retry must repeat the request exactly."""
    canonical = json.dumps(
        {"game": game_id, "move": move, "expected_move_number": expected_move_number},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _jsonable(view: dict[str, Any]) -> dict[str, Any]:
    """Datetimes as ISO strings (the view is stored in an idempotency record as JSON)."""
    return json.loads(json.dumps(view, cls=JSONEncoder))


def preview_move(
    *,
    game_id: int,
    user: User,
    move: dict[str, Any] | str | None = None,
    read: Callable[[GameKind], dict[str, Any] | str] | None = None,
) -> dict[str, Any]:
    """Check a tentative move against the user's own pieces without playing it (read-only):
    legal or not, its score and the kind's public facts (``Preview.public``). ``read(kind)``
    may read the move with the game's kind instead of ``move``."""
    game, seat = selectors.game_for_player(game_id=game_id, user=user)
    kind = kinds.get(game.kind)
    if read is not None:
        move = read(kind)
    assert move is not None, "preview_move needs a move or a read"
    if kind.preview_output is None:
        raise errors.no_preview()
    if game.is_over:
        raise errors.game_over()
    state = kind.load(game.state)
    try:
        scored = kind.preview(state, seat.index, _parse(kind, move))
    except kind.IllegalMove as exc:
        error = errors.illegal_move_dict(kind, exc)
        return {"kind": game.kind, "legal": False, "score": None, "error": error}
    return {**scored.public, "kind": game.kind, "legal": True, "score": scored.score,
            "error": None}


SEEN_RESOLUTION = timedelta(seconds=30)


def note_seen(*, seat: Seat, now: datetime | None = None) -> None:
    """Remember that the seat's player looked at the game (for "is the player online?").

    Written at most every ``SEEN_RESOLUTION`` so that polling costs no write per request.
    """
    now = now or timezone.now()
    if seat.last_seen_at is None or now - seat.last_seen_at >= SEEN_RESOLUTION:
        Seat.objects.filter(pk=seat.pk).update(last_seen_at=now)
        seat.last_seen_at = now
