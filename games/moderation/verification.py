"""Replay a game's moves from its seed and compare with what is stored (``verify_games``).

A finished game's stored state must equal the replay of its move log: if it doesn't, the state,
a score or the log was changed outside the services (or the engine changed its rules). Every
stored result must also fit the game: one score and one adjustment per seat, winners that are
seats (``games.results.result_problems``), and only a game that never started may have seats
nobody sat in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django.db.models import Prefetch

from games import kinds
from games.kinds.base import GameOutcome, Refusal
from games.models import Game, Move, Seat
from games.results import NOT_PLAYED, SERVICE_TERMINATIONS, result_problems


def games_to_verify(*, include_active: bool) -> Iterable[Game]:
    statuses = [Game.Status.FINISHED, Game.Status.ABORTED]
    if include_active:
        statuses += [Game.Status.ACTIVE, Game.Status.WAITING]
    return (
        Game.objects.filter(status__in=statuses)
        .order_by("pk")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("index")),
            Prefetch("moves", queryset=Move.objects.order_by("number")),
        )
        .iterator(chunk_size=200)
    )


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _differ(label: str, stored: Any, replayed: Any) -> str:
    return f"{label}: stored {_short(stored)} != replayed {_short(replayed)}"


def verify_game(game: Game) -> list[str]:
    """Differences between the stored game and the replay of its moves (empty when they agree)."""
    kind = kinds.get(game.kind)
    problems: list[str] = _check_shape(game)
    state = kind.new_state(seed=game.seed, options=game.options, seats=game.seat_count)
    for expected_number, move in enumerate(game.moves.all(), start=1):
        if move.number != expected_number:
            return [*problems, f"move numbers: expected {expected_number}, found {move.number}"]
        try:
            parsed = kind.replay_move(
                seat=move.seat, kind=move.kind, notation=move.notation, is_timeout=move.is_timeout
            )
            played = kind.play(state, parsed, seat=move.seat)
        except kind.IllegalMove as exc:
            code = cast(Refusal, exc).code
            return [*problems, f"move {move.number} {move.notation!r} is illegal: {code}"]
        record = played.record
        if record.seat != move.seat:
            problems.append(_differ(f"move {move.number} seat", move.seat, record.seat))
        if record.score != move.score:
            problems.append(_differ(f"move {move.number} score", move.score, record.score))
        if record.public != move.public:
            problems.append(_differ(f"move {move.number} public", move.public, record.public))
        state = played.state

    summary = kind.summary(state)
    problems += _compare_state(game, kind.dump(state))
    for seat in game.seats.all():
        if seat.score != summary.scores[seat.index]:
            problems.append(_differ(f"seat {seat.index} score", seat.score,
                                    summary.scores[seat.index]))
        if seat.private != summary.private[seat.index]:
            problems.append(_differ(f"seat {seat.index} private", seat.private,
                                    summary.private[seat.index]))
    if game.move_number != summary.move_number:
        problems.append(_differ("move_number", game.move_number, summary.move_number))
    problems += _compare_result(game, summary.outcome)
    return problems


def _check_shape(game: Game) -> list[str]:
    """What is wrong with the game whatever its moves: a result that does not fit its seats,
    seats missing from a game that started."""
    problems = result_problems(game.result, game.seat_count)
    termination = game.result.get("termination") if isinstance(game.result, dict) else None
    if termination in NOT_PLAYED and game.status != Game.Status.ABORTED:
        problems.append(f"result.termination {termination!r} but status {game.status!r}")
    seated = {seat.index for seat in game.seats.all()}
    missing = sorted(set(range(game.seat_count)) - seated)
    if missing and game.started_at is not None:
        problems.append(f"seats {missing} of {game.seat_count} are empty in a started game")
    return problems


def _compare_state(game: Game, replayed: dict[str, Any]) -> list[str]:
    stored = game.state or {}
    return [
        _differ(f"state.{key}", stored.get(key), replayed.get(key))
        for key in sorted(set(stored) | set(replayed))
        if stored.get(key) != replayed.get(key)
    ]


def _compare_result(game: Game, outcome: GameOutcome | None) -> list[str]:
    termination = game.result.get("termination") if isinstance(game.result, dict) else None
    replayed = outcome.to_json() if outcome is not None else None
    if outcome is not None or termination not in (None, *SERVICE_TERMINATIONS):
        if game.status != Game.Status.FINISHED:
            return [_differ("status", game.status, Game.Status.FINISHED)]
        if game.result != replayed:
            return [_differ("result", game.result, replayed)]
    elif game.status == Game.Status.FINISHED and termination != "awarded":
        return [f"status finished but the replay is not over (result {game.result!r})"]
    return []
