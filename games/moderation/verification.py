"""Replay a game's moves from its seed and compare with what is stored (``verify_games``).

A finished game's stored state must equal the replay of its move log: if it doesn't, the state,
a score or the log was changed outside the services (or the engine changed its rules).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch

from games import registry
from games.models import Game, Move, Seat

# Terminations the engine decides (an abort or award ends a game without an engine move).
ENGINE_TERMINATIONS = {"rack_emptied", "scoreless_turns", "resignation"}


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
    adapter = registry.get(game.kind)
    problems: list[str] = []
    state = adapter.new_state(seed=game.seed, options=game.options)
    for expected_number, move in enumerate(game.moves.all(), start=1):
        if move.number != expected_number:
            return [*problems, f"move numbers: expected {expected_number}, found {move.number}"]
        try:
            if move.kind == Move.Kind.RESIGN:
                parsed = adapter.resign(move.seat)
            elif move.kind == Move.Kind.TIMEOUT or move.is_timeout:
                parsed = adapter.timeout()
            else:
                parsed = adapter.parse(move.notation)
            result = adapter.apply(state, parsed)
        except adapter.IllegalMove as exc:
            return [*problems, f"move {move.number} {move.notation!r} is illegal: {exc.code}"]
        if result.player != move.seat:
            problems.append(_differ(f"move {move.number} seat", move.seat, result.player))
        if result.score != move.score:
            problems.append(_differ(f"move {move.number} score", move.score, result.score))
        state = result.state

    problems += _compare_state(game, adapter.dump(state))
    racks = adapter.racks(state)
    for seat in game.seats.all():
        if seat.score != state.scores[seat.index]:
            problems.append(_differ(f"seat {seat.index} score", seat.score,
                                    state.scores[seat.index]))
        if seat.rack != racks[seat.index]:
            problems.append(_differ(f"seat {seat.index} rack", seat.rack, racks[seat.index]))
    if game.move_number != state.move_number:
        problems.append(_differ("move_number", game.move_number, state.move_number))
    problems += _compare_result(game, state)
    return problems


def _compare_state(game: Game, replayed: dict[str, Any]) -> list[str]:
    stored = game.state or {}
    return [
        _differ(f"state.{key}", stored.get(key), replayed.get(key))
        for key in sorted(set(stored) | set(replayed))
        if stored.get(key) != replayed.get(key)
    ]


def _compare_result(game: Game, state) -> list[str]:
    termination = (game.result or {}).get("termination")
    engine_result = state.result.to_dict() if state.result is not None else None
    if termination in ENGINE_TERMINATIONS or engine_result is not None:
        if game.status != Game.Status.FINISHED:
            return [_differ("status", game.status, Game.Status.FINISHED)]
        if game.result != engine_result:
            return [_differ("result", game.result, engine_result)]
    elif game.status == Game.Status.FINISHED and termination != "awarded":
        return [f"status finished but the replay is not over (result {game.result!r})"]
    return []
