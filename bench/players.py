"""Computer levels against each other: ``python bench/players.py [--games 20] [--seed 0]``.

A round robin: every pair of levels plays ``--games`` games (seats alternating). Prints each
level's average score per game, its overall win rate, and the win rate of every pairing.
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.crazy10s.cli import selfplay  # noqa: E402
from games.crazy10s.engine import LEVELS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    levels = args.levels.split(",")

    totals = {lv: {"score": 0.0, "games": 0, "wins": 0.0, "ms": 0.0} for lv in levels}
    pairs = {}
    for a, b in combinations(levels, 2):
        summary = selfplay(args.games, args.seed, (a, b))
        pa, pb = summary["players"]
        for level, p in ((a, pa), (b, pb)):
            t = totals[level]
            t["score"] += p["average_score"] * args.games
            t["games"] += args.games
            t["wins"] += p["wins"] + p["draws"] / 2
            t["ms"] += p["ms_per_move"] * args.games
        pairs[f"{a} vs {b}"] = {
            "wins": [pa["wins"], pb["wins"]],
            "draws": pa["draws"],
            "average_scores": [pa["average_score"], pb["average_score"]],
        }
    report = {
        "games_per_pair": args.games,
        "levels": {
            lv: {
                "average_score": round(t["score"] / t["games"], 1),
                "win_rate": round(t["wins"] / t["games"], 3),
                "ms_per_move": round(t["ms"] / t["games"], 2),
            }
            for lv, t in totals.items()
        },
        "pairs": pairs,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"Round robin, {args.games} games per pair (seed {args.seed})")
    print(f"{'level':<10} {'avg score':>9} {'win rate':>9} {'ms/move':>8}")
    for lv, r in report["levels"].items():
        print(f"{lv:<10} {r['average_score']:>9} {r['win_rate']:>9.1%} {r['ms_per_move']:>8}")
    for name, r in pairs.items():
        print(f"  {name:<22} wins {r['wins'][0]:>2}-{r['wins'][1]:<2} draws {r['draws']}"
              f"  avg {r['average_scores'][0]}-{r['average_scores'][1]}")


if __name__ == "__main__":
    main()
