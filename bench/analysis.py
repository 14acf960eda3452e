"""Move analysis ("% of best") cost: ``python bench/analysis.py [--games 20] [--seed 0]``.

Plays seeded strong-vs-strong games, then does what the worker's ``games.analyse_moves`` does
for each move, without the database: replay the game from its seed to the position before the
move (``kind.play`` on the stored notation, as ``verify_games`` does) and search the mover's best
placement (``kind.best_move``: every legal placement, as ``analyze`` lists them). Prints the
median, p99 and maximum per move of the replay and of the search, and per game of the whole
analysis (one replay, every move searched: the game-end task).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from games.crazy10s import engine as c10s  # noqa: E402
from games.crazy10s.engine.players import computer_choice  # noqa: E402
from games.crazy10s.kind import Crazy10sKind  # noqa: E402

KIND = Crazy10sKind()


def played_game(seed: int) -> tuple[int, list[tuple[int, str, str]]]:
    """A strong-vs-strong game: its seed and moves as (seat, kind, notation)."""
    state = c10s.new_game_from_seed(seed)
    rng = random.Random(f"{seed}:bench-analysis")
    moves: list[tuple[int, str, str]] = []
    while not state.is_over and len(moves) < 200:
        choice = computer_choice(state, "strong", rng)
        played = KIND.play(state, choice)
        moves.append((played.record.seat, played.record.kind, played.record.notation))
        state = played.state
    return seed, moves


def replay_to(seed: int, moves: list[tuple[int, str, str]], before: int) -> c10s.GameState:
    state = KIND.new_state(seed=seed, options={})
    for seat, kind, notation in moves[:before]:
        parsed = KIND.replay_move(seat=seat, kind=kind, notation=notation, is_timeout=False)
        state = KIND.play(state, parsed, seat=seat).state
    return state


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(label: str, values: list[float]) -> str:
    return (f"{label:<28} n={len(values):<5} median {statistics.median(values):8.2f} ms  "
            f"p99 {percentile(values, 0.99):8.2f} ms  max {max(values):8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(f"bench-analysis:{args.seed}")
    replay_ms: list[float] = []
    search_ms: list[float] = []
    game_ms: list[float] = []
    for _ in range(args.games):
        seed, moves = played_game(rng.getrandbits(63))
        game_started = time.perf_counter()
        state = KIND.new_state(seed=seed, options={})
        for seat, kind, notation in moves:
            if kind in KIND.analysed_move_kinds:
                KIND.best_move(state, seat)
            parsed = KIND.replay_move(seat=seat, kind=kind, notation=notation, is_timeout=False)
            state = KIND.play(state, parsed, seat=seat).state
        game_ms.append(1000 * (time.perf_counter() - game_started))
        for number, (seat, kind, _notation) in enumerate(moves):
            if kind not in KIND.analysed_move_kinds:
                continue
            started = time.perf_counter()
            before = replay_to(seed, moves, number)
            replayed = time.perf_counter()
            KIND.best_move(before, seat)
            searched = time.perf_counter()
            replay_ms.append(1000 * (replayed - started))
            search_ms.append(1000 * (searched - replayed))
    print(f"{args.games} strong-vs-strong games, seed {args.seed}")
    print(line("per move: replay to it", replay_ms))
    print(line("per move: best move search", search_ms))
    print(line("per game: whole analysis", game_ms))


if __name__ == "__main__":
    main()
