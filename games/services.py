"""Every write to a game: lock the row, check the move number, call the engine, save, and
schedule side effects (computer turn, signals) with ``transaction.on_commit``.

All functions are keyword-only; they raise ``config.errors.ApiError`` for refusals and leave the
database unchanged when they do (the transaction rolls back).
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import zlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.utils.encoders import JSONEncoder

from games import errors, registry, selectors, signals
from games.models import TURN_HOURS_CHOICES, Game, IdempotencyRecord, Move, Seat

DEFAULT_KIND = "crazy10s"


@dataclass(frozen=True)
class MoveReceipt:
    """What ``submit_move`` answers: the response body, and whether it was a stored replay."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


# --- helpers --------------------------------------------------------------------------------
def _new_seed() -> int:
    """A game's seed decides its bag: it must not be guessable, so it comes from the OS."""
    return secrets.randbits(63)


def _lock_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise errors.game_not_found()
    return game


def _seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user").order_by("index"))


def _seat_of(seats: list[Seat], user) -> Seat:
    for seat in seats:
        if seat.user_id is not None and seat.user_id == user.pk:
            return seat
    raise errors.not_a_player()


def _send_on_commit(signal, **kwargs: Any) -> None:
    transaction.on_commit(lambda: signal.send(sender=Game, **kwargs))


def _queue_ai_turn_on_commit(game_id: int, move_number: int) -> None:
    def enqueue() -> None:
        from games.tasks import enqueue_ai_turn  # tasks import services: import late

        enqueue_ai_turn(game_id, move_number)

    transaction.on_commit(enqueue)


def _begin_turn(game: Game, seats: list[Seat], now) -> None:
    """Start the turn of ``game.current_seat``: clock, signal, and the computer if it moves."""
    game.turn_started_at = now
    game.turn_deadline = now + timedelta(hours=game.turn_hours)
    _send_on_commit(
        signals.turn_started,
        game_id=game.pk,
        seat_index=game.current_seat,
        move_number=game.move_number,
    )
    if seats[game.current_seat].is_computer:
        _queue_ai_turn_on_commit(game.pk, game.move_number)


def _start(game: Game, seats: list[Seat], now) -> None:
    """Both seats are filled: the game becomes active and the first turn begins."""
    adapter = registry.get(game.kind)
    state = adapter.load(game.state)
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.current_seat = state.current_player
    _begin_turn(game, seats, now)
    game.save()
    _send_on_commit(signals.game_started, game_id=game.pk)


# --- create ---------------------------------------------------------------------------------
def _validate_create(opponent: dict[str, Any], turn_hours: int, layout: str, kind: str) -> None:
    if kind not in registry.KINDS:
        raise errors.invalid(
            _("Unknown game kind '%(kind)s'.") % {"kind": kind},
            kind=[f"one of {list(registry.KINDS)}"],
        )
    if turn_hours not in TURN_HOURS_CHOICES:
        raise errors.invalid(
            _("turn_hours must be one of %(choices)s.") % {"choices": list(TURN_HOURS_CHOICES)},
            turn_hours=[f"one of {list(TURN_HOURS_CHOICES)}"],
        )
    if layout not in registry.LAYOUTS:
        raise errors.invalid(
            _("layout must be one of %(choices)s.") % {"choices": list(registry.LAYOUTS)},
            layout=[f"one of {list(registry.LAYOUTS)}"],
        )
    if len(opponent) != 1 or not set(opponent) <= {"ai", "username", "random"}:
        raise errors.invalid(
            _('opponent is one of {"ai": LEVEL}, {"username": NAME} or {"random": true}.')
        )


def _lock_pairing_pool(kind: str, layout: str, turn_hours: int) -> None:
    """Serialize search-or-create per pairing pool until the transaction ends.

    Without it two players asking at the same moment each find nobody waiting, each create a
    waiting game, and are never paired. SQLite serializes writers anyway, so only PostgreSQL
    needs the (transaction-scoped) advisory lock.
    """
    if connection.vendor != "postgresql":
        return
    key = zlib.crc32(f"c10s-random-pairing:{kind}:{layout}:{turn_hours}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def create_game(
    *,
    user,
    opponent: dict[str, Any],
    turn_hours: int = 72,
    layout: str = "classic",
    kind: str = DEFAULT_KIND,
) -> Game:
    """A new game against the computer, a named player, or a random opponent (pair or wait)."""
    _validate_create(opponent, turn_hours, layout, kind)
    adapter = registry.get(kind)
    now = timezone.now()
    with transaction.atomic():
        if "random" in opponent:
            if opponent["random"] is not True:
                raise errors.invalid(_('Use {"random": true} for a random opponent.'))
            _lock_pairing_pool(kind, layout, turn_hours)
            waiting = (
                Game.objects.select_for_update(skip_locked=True)
                .filter(status=Game.Status.WAITING, kind=kind, layout=layout, turn_hours=turn_hours)
                .exclude(seats__user=user)
                .exclude(seats__user__is_active=False)  # a suspended player's request is dead
                .order_by("created_at", "id")
                .first()
            )
            if waiting is not None:
                racks = adapter.racks(adapter.load(waiting.state))
                Seat.objects.create(game=waiting, index=1, user=user, rack=racks[1])
                _start(waiting, _seats(waiting), now)
                return waiting
        second: dict[str, Any] | None
        if "ai" in opponent:
            level = opponent["ai"]
            if level not in adapter.levels:
                raise errors.invalid(
                    _("Unknown computer level '%(level)s'.") % {"level": level},
                    ai=[f"one of {list(adapter.levels)}"],
                )
            second = {"ai_level": level}
        elif "username" in opponent:
            other = (
                get_user_model()
                .objects.filter(username=opponent["username"], is_active=True)
                .first()
            )
            if other is None:
                raise errors.invalid(
                    _("There is no player named '%(name)s'.") % {"name": opponent["username"]},
                    username=["unknown player"],
                )
            if other.pk == user.pk:
                raise errors.invalid(_("You cannot play against yourself."), username=["yourself"])
            second = {"user": other}
        else:
            second = None  # a random request that found nobody: wait for a partner

        seed = _new_seed()
        options = adapter.options(layout=layout)
        state = adapter.new_state(seed=seed, options=options)
        racks = adapter.racks(state)
        game = Game.objects.create(
            kind=kind,
            status=Game.Status.WAITING,
            options=options,
            layout=layout,
            seed=seed,
            state=adapter.dump(state),
            turn_hours=turn_hours,
        )
        seats = [Seat.objects.create(game=game, index=0, user=user, rack=racks[0])]
        if second is None:
            game.save()
            return game
        seats.append(Seat.objects.create(game=game, index=1, rack=racks[1], **second))
        _start(game, seats, now)
        return game


# --- moves ----------------------------------------------------------------------------------
def _record_move(game: Game, seats: list[Seat], result: Any, *, now=None) -> dict[str, Any]:
    """Persist an engine ``MoveResult``: state, seats, the Move row, clock, end of game."""
    adapter = registry.get(game.kind)
    now = now or timezone.now()
    state = result.state
    facts = adapter.describe(result)
    game.state = adapter.dump(state)
    game.move_number = state.move_number
    Move.objects.create(
        game=game,
        number=state.move_number,
        seat=result.player,
        kind=facts["kind"],
        notation=facts["notation"],
        public_notation=facts["public_notation"],
        score=facts["score"],
        lines=facts["lines"],
        drawn=len(facts["drawn"]),
        is_timeout=facts["kind"] == Move.Kind.TIMEOUT,
    )
    racks = adapter.racks(state)
    for seat in seats:
        seat.score = state.scores[seat.index]
        seat.rack = racks[seat.index]
    Seat.objects.bulk_update(seats, ["score", "rack"])
    if state.result is not None:
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.current_seat = None
        game.turn_started_at = None
        game.turn_deadline = None
        game.result = {
            "termination": state.result.termination.value,
            "winner": state.result.winner,
            "scores": list(state.result.scores),
            "adjustments": list(state.result.adjustments),
        }
        _send_on_commit(signals.game_finished, game_id=game.pk)
    else:
        game.current_seat = state.current_player
        _begin_turn(game, seats, now)
    game.save()
    return facts


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
    user,
    move: str | list[dict[str, Any]],
    expected_move_number: int,
    idempotency_key: str | None = None,
) -> MoveReceipt:
    """Play the user's move (notation or a list of placed tiles) and return the response body.

    With ``idempotency_key`` the first response is stored in the same transaction; a retry
    with the same key gets that response back and plays nothing.
    """
    with transaction.atomic():
        game = _lock_game(game_id)
        adapter = registry.get(game.kind)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        fingerprint = _request_fingerprint(game.pk, move, expected_move_number)
        if idempotency_key:
            record = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
            if record is not None:
                if record.game_id != game.pk:
                    raise errors.idempotency_key_reused()
                if record.request_fingerprint and record.request_fingerprint != fingerprint:
                    raise errors.idempotency_key_mismatch()
                return MoveReceipt(record.response_status, record.response_body, replayed=True)
        _check_playable(game, expected_move_number)
        if game.current_seat != seat.index:
            raise errors.not_your_turn()
        try:
            parsed = adapter.parse(move)
            result = adapter.apply(adapter.load(game.state), parsed)
        except adapter.IllegalMove as exc:
            raise errors.illegal_move(exc) from exc
        facts = _record_move(game, seats, result)
        view = selectors.player_view(
            game=game, seat_index=seat.index, seats=seats, state=result.state
        )
        body = {
            "score": facts["score"],
            "lines": facts["lines"],
            "drawn": facts["drawn"],
            "game": _jsonable(view),
        }
        if idempotency_key:
            try:
                with transaction.atomic():  # savepoint: the error below must stay catchable
                    IdempotencyRecord.objects.create(
                        user=user,
                        key=idempotency_key,
                        game=game,
                        response_status=201,
                        response_body=body,
                        request_fingerprint=fingerprint,
                    )
            except IntegrityError as exc:
                # The same key was stored meanwhile by a request on another game (that game's
                # row lock does not serialize us): refuse, and the whole move rolls back.
                raise errors.idempotency_key_reused() from exc
        return MoveReceipt(201, body)


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


def preview_move(*, game_id: int, user, move: str | list[dict[str, Any]]) -> dict[str, Any]:
    """Score a tentative move against the user's rack without playing it (read-only)."""
    game, seat = selectors.game_for_player(game_id=game_id, user=user)
    if game.is_over:
        raise errors.game_over()
    adapter = registry.get(game.kind)
    state = adapter.load(game.state)
    try:
        scored = adapter.preview(state, seat.index, adapter.parse(move))
    except adapter.IllegalMove as exc:
        return {"legal": False, "score": None, "lines": [], "error": errors.illegal_move_dict(exc)}
    if scored is None:
        return {"legal": True, "score": 0, "lines": [], "error": None}
    return {
        "legal": True,
        "score": scored.score,
        "lines": scored.lines_dicts(state.board.size),
        "error": None,
    }


def resign(*, game_id: int, user) -> Game:
    """The user gives up (at any time, on either player's turn); the opponent wins."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seats = _seats(game)
        seat = _seat_of(seats, user)
        if game.is_over:
            raise errors.game_over()
        adapter = registry.get(game.kind)
        if game.status == Game.Status.WAITING:
            # Nobody to lose against: withdrawing a random-opponent request aborts it.
            _end_without_moves(game, termination="aborted", winner=None)
            return game
        result = adapter.apply(adapter.load(game.state), adapter.resign(seat.index))
        _record_move(game, seats, result)
        return game


def _end_without_moves(game: Game, *, termination: str, winner: int | None) -> None:
    seats = _seats(game)
    scores = [0, 0]
    for seat in seats:
        scores[seat.index] = seat.score
    game.status = Game.Status.ABORTED if termination == "aborted" else Game.Status.FINISHED
    game.finished_at = timezone.now()
    game.current_seat = None
    game.turn_started_at = None
    game.turn_deadline = None
    game.result = {
        "termination": termination,
        "winner": winner,
        "scores": scores,
        "adjustments": [0, 0],
    }
    game.save()
    _send_on_commit(signals.game_finished, game_id=game.pk)


def abort_game(*, game_id: int) -> Game:
    """Moderation: end the game with no winner (the admin records who did it)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.is_over:
            raise errors.game_over()
        _end_without_moves(game, termination="aborted", winner=None)
        return game


def award_game(*, game_id: int, seat_index: int) -> Game:
    """Moderation: end the game as a win for ``seat_index``."""
    if seat_index not in (0, 1):
        raise errors.invalid("seat_index is 0 or 1.")
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.is_over:
            raise errors.game_over()
        _end_without_moves(game, termination="awarded", winner=seat_index)
        return game


def play_ai_turn(*, game_id: int, expected_move_number: int) -> Move | None:
    """The computer plays its turn; does nothing if the game moved on or it is not its turn.

    The move is drawn from ``Random(f"{seed}:ai:{move_number}")``, so a retried task plays
    exactly the same move.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return None
        if game.move_number != expected_move_number:
            return None
        seats = _seats(game)
        seat = seats[game.current_seat]
        if not seat.is_computer:
            return None
        adapter = registry.get(game.kind)
        state = adapter.load(game.state)
        rng = random.Random(f"{game.seed}:ai:{game.move_number}")
        choice = adapter.computer_move(state, seat.ai_level, rng)
        _record_move(game, seats, adapter.apply(state, choice))
        return Move.objects.get(game=game, number=game.move_number)


def play_timeout(*, game_id: int, expected_move_number: int, now=None) -> Move | None:
    """The turn's deadline passed: play a timeout pass, unless the game moved on meanwhile."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return None
        if game.move_number != expected_move_number:
            return None
        if game.turn_deadline is None or game.turn_deadline > now:
            return None
        seats = _seats(game)
        adapter = registry.get(game.kind)
        state = adapter.load(game.state)
        _record_move(game, seats, adapter.apply(state, adapter.timeout()), now=now)
        return Move.objects.get(game=game, number=game.move_number)


SEEN_RESOLUTION = timedelta(seconds=30)


def note_seen(*, seat: Seat, now=None) -> None:
    """Remember that the seat's player looked at the game (for "is the player online?").

    Written at most every ``SEEN_RESOLUTION`` so that polling costs no write per request.
    """
    now = now or timezone.now()
    if seat.last_seen_at is None or now - seat.last_seen_at >= SEEN_RESOLUTION:
        Seat.objects.filter(pk=seat.pk).update(last_seen_at=now)
        seat.last_seen_at = now
