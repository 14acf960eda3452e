"""One game between two computer levels from a seed: what the command line's ``selfplay`` and
``levelstats`` (and the benchmarks) play, timed per move."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .engine import (
    GameState,
    Options,
    ScoredPlacement,
    apply_generated,
    apply_move,
    new_game_from_seed,
)
from .engine.players import computer_choice

MAX_TURNS = 1000  # a safety net: six scoreless turns end every game long before this


@dataclass
class GameRecord:
    state: GameState
    levels: tuple[str, str]  # level of seat 0 and seat 1
    turns: int = 0
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[int] = field(default_factory=lambda: [0, 0])
    move_ms: list[list[float]] = field(default_factory=lambda: [[], []])  # per move, per seat


def play_game(seed: int, levels: tuple[str, str], options: Options | None = None) -> GameRecord:
    """Play one game between two levels (seat 0 plays ``levels[0]``) from ``seed``."""
    state = new_game_from_seed(seed, options)
    rngs = (random.Random(f"{seed}:ai:0"), random.Random(f"{seed}:ai:1"))
    record = GameRecord(state, levels)
    while not state.is_over and record.turns < MAX_TURNS:
        player = state.current_player
        assert player is not None
        started = time.perf_counter()
        choice = computer_choice(state, levels[player], rngs[player])
        elapsed = time.perf_counter() - started
        record.seconds[player] += elapsed
        record.move_ms[player].append(1000 * elapsed)
        record.moves[player] += 1
        if isinstance(choice, ScoredPlacement):
            state = apply_generated(state, choice).state
        else:
            state = apply_move(state, choice).state
        record.turns += 1
    record.state = state
    return record


