"""What every write to a game shares: the row lock, the seats, the turn clock, side effects
scheduled with ``transaction.on_commit``, and ``_record_move``, which persists an engine result.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Case, F, QuerySet, When
from django.utils import timezone

from config.compiled_queries import CompiledQuery
from games import dispatch, effects, errors, kinds, writes
from games.correspondence import selectors as vacations
from games.kinds.base import GameOutcome, PlayedMove
from games.models import Game, Move, Seat
from games.results import result_problems
from games.services import analysis

if TYPE_CHECKING:
    from accounts.models import User


def _lock_game(game_id: int) -> Game:
    # FOR NO KEY UPDATE: writers of one game still queue behind each other, but rows that merely
    # reference the game (notifications, moves of other transactions) don't block or get skipped.
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None:
        raise errors.game_not_found()
    return game


def _lock_game_and_seats(game_id: int) -> tuple[Game, list[Seat]]:
    """The game locked as ``_lock_game`` locks it, with its seats and their players, in one
    query when nobody holds the game (the move path counts its queries): the seats joined to
    the game, the game's row locked unless another write holds it (``SKIP LOCKED``).

    When another write holds it, the lock is waited for with ``_lock_game`` and the seats read
    after it: PostgreSQL re-reads a row it waited for, but the joined seats would be those of
    the statement's snapshot, before the other write (a seat that left meanwhile would still
    look like a person)."""
    seats = _locked_seats(game_id)
    if not seats:  # the game is locked by another write (or there is no such game)
        with_vacations = Seat.objects.annotate(
            vacation_until=vacations.vacation_until_annotation()
        )
        game = _lock_game(game_id)
        waited: list[Seat] = list(
            with_vacations.filter(game=game).select_related("user").order_by("index")
        )
        return game, waited
    game = seats[0].game
    if seats[0].index == 0:  # a game waiting for its first seat's player reads it when asked
        game.state = seats[0].game_state  # type: ignore[attr-defined]
    for seat in seats:
        seat.game = game
    return game, seats


def _locked_seats_query(game_id: int) -> QuerySet[Seat]:
    # With each player's running vacation (the answer's view shows it): no query of its own.
    with_vacations = Seat.objects.annotate(vacation_until=vacations.vacation_until_annotation())
    return (
        with_vacations.select_related("game", "user")
        # The game's state (its largest column) on the first seat's row only: every row of the
        # join would carry it, to be sent, parsed and dropped once per seat.
        .defer("game__state")
        .annotate(game_state=Case(When(index=0, then=F("game__state")),
                                  output_field=Game._meta.get_field("state")))
        .select_for_update(no_key=True, of=("game",), skip_locked=True)
        .filter(game_id=game_id)
        .order_by("index")
    )


# Compiled once per thread (config/compiled_queries.py): building and compiling this queryset
# cost more CPU than the rest of the read (issue 28: every move starts here).
_LOCKED_SEATS = CompiledQuery(_locked_seats_query, 1)


def _locked_seats(game_id: int) -> list[Seat]:
    """``list(_locked_seats_query(game_id))``, from the statement compiled once."""
    return _LOCKED_SEATS.run([game_id])


def _seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user").order_by("index"))


def _seat_of(seats: list[Seat], user: User) -> Seat:
    for seat in seats:
        if seat.user_id is not None and seat.user_id == user.pk:
            return seat
    raise errors.not_a_player()


def _begin_turn(
    game: Game, seats: list[Seat], now: datetime, *, after_computer: bool = False
) -> None:
    """Start the turn of ``game.current_seat``: clock, its effects (the turn email, events),
    and the computer if it moves.

    A game with one person against computers of a kind without a solo turn clock waits for
    that person: no deadline (so no timeout and no reminder). A computer turn that follows
    another computer turn is queued after ``GAMES_AI_PAUSE_SECONDS``, so a person can follow
    the play."""
    game.turn_started_at = now
    assert game.current_seat is not None  # a turn begins only while someone is to move
    seat = seats[game.current_seat]
    if _untimed(game, seats):
        game.turn_deadline = None
    elif game.turn_seconds:
        # A table's short clock. Every seat gets the deadline (the sweep's safety net), but
        # only a person's turn needs its own timer: the server plays the others at once.
        game.turn_deadline = now + timedelta(seconds=game.turn_seconds)
        if not seat.plays_itself:
            dispatch.enqueue_turn_deadline_on_commit(game.pk, game.move_number, game.turn_deadline)
    else:
        game.turn_deadline = now + timedelta(hours=game.turn_hours)
    effects.turn_started(game, seats)
    if seat.plays_itself:
        pause = float(getattr(settings, "GAMES_AI_PAUSE_SECONDS", 0)) if after_computer else 0
        dispatch.enqueue_ai_turn_on_commit(game.pk, game.move_number, countdown=pause)


def _untimed(game: Game, seats: list[Seat]) -> bool:
    if game.turn_seconds:
        return False  # a table's turns are always timed, whoever sits there
    kind = kinds.get(game.kind)
    people = sum(1 for seat in seats if not seat.is_computer)
    return people == 1 and not kind.solo_turn_clock


def _start(game: Game, seats: list[Seat], now: datetime) -> None:
    """Every seat is filled: the game becomes active and the first turn begins."""
    kind = kinds.get(game.kind)
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.current_seat = kind.summary(kind.load(game.state)).to_move
    _begin_turn(game, seats, now)
    game.save()
    effects.game_started(game, seats)


_MOVE_FIELDS = ["state", "move_number", "current_seat", "turn_started_at", "turn_deadline"]


def _record_move(
    game: Game, seats: list[Seat], played: PlayedMove, *, now: datetime | None = None
) -> PlayedMove:
    """Persist a played move: state, seats, the Move row, clock, end of game."""
    with writes.batched():  # one round trip for the move's writes (games/writes.py)
        return _record_move_writes(game, seats, played, now=now)


def _record_move_writes(
    game: Game, seats: list[Seat], played: PlayedMove, *, now: datetime | None
) -> PlayedMove:
    kind = kinds.get(game.kind)
    now = now or timezone.now()
    summary, record = played.summary, played.record
    game.state = kind.dump(played.state)
    game.move_number = summary.move_number
    move = Move(
        game=game,
        number=summary.move_number,
        seat=record.seat,
        kind=record.kind,
        notation=record.notation,
        public_notation=record.public_notation,
        score=record.score,
        public=record.public,
        is_timeout=record.is_timeout,
    )
    writes.insert(move)
    # Only the seats the move changed are written (most moves change the mover's alone): the
    # seats were read under the game's lock, so an equal value is the stored one.
    changed = []
    for seat in seats:
        score, private = summary.scores[seat.index], summary.private[seat.index]
        if seat.score != score or seat.private != private:
            seat.score, seat.private = score, private
            changed.append(seat)
    fields = ["score", "private"]
    if summary.outcome is not None:
        _set_results(seats, summary.outcome, now)
        fields += ["result", "finished_at"]
        changed = seats
    for seat in changed:
        writes.update(seat, fields)
    effects.move_played(game, seats, move)
    if summary.outcome is not None:
        _finish(game, seats, summary.outcome, now)
    else:
        game.current_seat = summary.to_move
        _begin_turn(game, seats, now, after_computer=seats[record.seat].plays_itself)
    # A move that does not end the game changes only these of the game's columns (the others,
    # the options' JSON among them, are not converted and sent again on every move).
    writes.update(game, _MOVE_FIELDS if summary.outcome is None else None)
    # Last of the move's after-commit work: the analysis message is best effort and skipped
    # when the broker just refused the messages before it (see dispatch.enqueue_analysis).
    analysis.enqueue_after_move(
        game, seats[record.seat].user_id, record.kind, summary.move_number,
        over=summary.outcome is not None,
    )
    return played


def _set_results(seats: list[Seat], outcome: GameOutcome, now: datetime) -> None:
    """Each seat's result, and the game's end time (``_finish`` gives the game the same
    ``now``): the finished lists read it from the seats."""
    for seat in seats:
        seat.result = outcome.results[seat.index]
        seat.finished_at = now


def _finish(
    game: Game, seats: list[Seat], outcome: GameOutcome, now: datetime, *, aborted: bool = False
) -> None:
    """The game is over (``game.save()`` is the caller's): result, no clock, its effects.

    The result is checked before anything is saved: one that does not fit the game's seats is
    a bug, and storing it would break every later read of the game (the database refuses it
    too, ``game_result_fits_seats``)."""
    problems = result_problems(outcome.to_json(), game.seat_count)
    if problems:
        raise ValueError(f"game {game.pk}: refusing to store its result: {'; '.join(problems)}")
    game.status = Game.Status.ABORTED if aborted else Game.Status.FINISHED
    game.finished_at = now
    game.current_seat = None
    game.turn_started_at = None
    game.turn_deadline = None
    game.result = outcome.to_json()
    effects.game_finished(game, seats)
