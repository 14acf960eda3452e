"""Move-generation benchmark: ``python bench/movegen.py [--positions 200] [--repeats 5]``.

Builds seeded mid-game 13×13 positions by strong-vs-strong self-play (10–30 moves in), gives
the player to move a rack with 0, 1, 2 or 3 wilds (a quarter each), times ``legal_moves()`` (the
full listing) and ``legal_moves(best_wilds=True)`` (the computer players' path), the median of
several repeats per position, and prints the median and p99 time per wild count, the move
counts, the self-play rate in games per second and the load average. Every request a player
waits on (a move, a preview, the analysis of a move) takes the players' path or checks one
placement: the full listing is the command line's ``analyze`` only.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.crazy10s.engine import (  # noqa: E402
    WILD,
    GameState,
    apply_generated,
    apply_move,
    legal_moves,
    new_game_from_seed,
)
from games.crazy10s.engine.players import computer_choice  # noqa: E402
from games.crazy10s.engine.rules import ScoredPlacement  # noqa: E402
from games.crazy10s.selfplay import play_game  # noqa: E402


def mid_game_position(index: int) -> GameState:
    rng = random.Random(f"bench:{index}")
    state = new_game_from_seed(rng.getrandbits(63))
    target = rng.randrange(10, 31)
    while state.move_number < target and not state.is_over:
        choice = computer_choice(state, "strong", rng)
        if isinstance(choice, ScoredPlacement):
            state = apply_generated(state, choice).state
        else:
            state = apply_move(state, choice).state
    if state.is_over:  # rare: start again from a later seed
        return mid_game_position(index + 100_000)
    player = state.current_player
    assert player is not None
    wilds = index % 4
    digits = [t for t in state.racks[player] if t != WILD]
    while len(digits) < 7:
        digits.append(rng.randrange(10))
    rack = tuple(sorted(digits[: 7 - wilds] + [WILD] * wilds))
    racks = (rack, state.racks[1]) if player == 0 else (state.racks[0], rack)
    return replace(state, racks=racks)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=20, help="strong-vs-strong games for the rate")
    args = parser.parse_args()

    positions = [mid_game_position(i) for i in range(args.positions)]
    print(f"legal_moves() over {len(positions)} mid-game 13x13 positions "
          f"(median of {args.repeats} runs each)")
    for label, best_wilds in (("full listing", False), ("players' path (best_wilds)", True)):
        times: list[float] = []
        counts: list[int] = []
        by_wilds: dict[int, list[float]] = {0: [], 1: [], 2: [], 3: []}
        for i, state in enumerate(positions):
            runs = []
            for _ in range(args.repeats):
                started = time.perf_counter()
                moves = legal_moves(state, best_wilds=best_wilds)
                runs.append(time.perf_counter() - started)
            times.append(statistics.median(runs) * 1000)
            by_wilds[i % 4].append(times[-1])
            counts.append(len(moves))
        print(f" {label}: median {statistics.median(times):.2f} ms"
              f"  p99 {percentile(times, 0.99):.2f}  max {max(times):.2f};"
              f" moves median {statistics.median(counts):.0f} max {max(counts)}")
        for wilds, values in by_wilds.items():
            print(f"  {wilds} wild(s): median {statistics.median(values):.2f} ms"
                  f"  p99 {percentile(values, 0.99):.2f} ms  max {max(values):.2f} ms")

    started = time.perf_counter()
    for game in range(args.games):
        play_game(game, ("strong", "strong"))
    elapsed = time.perf_counter() - started
    print(f"self-play strong vs strong: {args.games} games in {elapsed:.1f} s "
          f"= {args.games / elapsed:.2f} games/s")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
