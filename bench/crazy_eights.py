"""Crazy Eights engine and regulars: ``python bench/crazy_eights.py [--seconds 3]``.

- random legal playouts: ``legal_moves`` + ``apply_legal`` until the match ends, moves per second;
- each regular's time per decision (median and p99) over the same positions, taken from
  seeded four-player matches of random play (every seat's own turn, with its public history);
- self-played matches per second (four regulars, one of each).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.crazy_eights.cli import selfplay  # noqa: E402
from games.crazy_eights.engine import (  # noqa: E402
    Options,
    apply_legal,
    legal_moves,
    new_match,
    view_for,
)
from games.crazy_eights.engine.knowledge import opening_record  # noqa: E402
from games.crazy_eights.engine.players import LEVELS, REGULARS, decide  # noqa: E402


def random_playouts(seconds: float, players: int) -> dict[str, float]:
    rng = random.Random(1)
    moves = matches = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = new_match(seed=rng.getrandbits(63), options=Options(players=players))
        while not state.is_over:
            state = apply_legal(state, rng.choice(legal_moves(state))).state
            moves += 1
        matches += 1
    elapsed = time.perf_counter() - started
    return {"moves_per_second": round(moves / elapsed), "matches": matches}


def positions(count: int, players: int) -> list[tuple[dict, list]]:
    """(view of the seat to act, public history) at random points of random matches."""
    rng = random.Random(2)
    found: list[tuple[dict, list]] = []
    while len(found) < count:
        state = new_match(seed=rng.getrandbits(63), options=Options(players=players))
        history = [opening_record(state)]
        stop = rng.randrange(1, 150)
        for _ in range(stop):
            if state.is_over:
                break
            result = apply_legal(state, rng.choice(legal_moves(state)))
            history.append(result.public_dict())
            state = result.state
        if not state.is_over:
            found.append((view_for(state, state.turn), history))
    return found


def decision_times(cases: list[tuple[dict, list]]) -> dict[str, dict[str, float]]:
    report = {}
    for name in (*LEVELS, "random"):
        rng = random.Random(3)
        times = []
        for view, history in cases:
            started = time.perf_counter()
            decide(REGULARS[name], view, history, rng)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        report[name] = {
            "median_ms": round(statistics.median(times), 3),
            "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 3),
            "max_ms": round(times[-1], 3),
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="random playout time")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--matches", type=int, default=10, help="self-played matches")
    args = parser.parse_args()
    report = {
        "random_playouts_2p": random_playouts(args.seconds, 2),
        "random_playouts_4p": random_playouts(args.seconds, 4),
        "decision_ms_4p": decision_times(positions(args.positions, 4)),
        "decision_ms_2p": decision_times(positions(args.positions, 2)),
    }
    summary = selfplay(args.matches, 0, list(LEVELS), Options(players=4))
    report["selfplay_matches_per_second_4p"] = summary["matches_per_second"]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
