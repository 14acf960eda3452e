"""Daily Puzzle generation time: ``python bench/puzzles.py [--days 365]``.

Generates one puzzle per day from 2026-01-01 (pure engine work, no database) and prints the
median, p99 and maximum time per puzzle.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.crazy10s.puzzles.generation import generate_puzzle  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--days", type=int, default=365)
    args = parser.parse_args()
    times = []
    for offset in range(args.days):
        started = time.perf_counter()
        generate_puzzle(date(2026, 1, 1) + timedelta(days=offset), secret="bench")
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p99 = times[max(0, round(0.99 * len(times)) - 1)]
    print(
        f"{args.days} puzzles: median {statistics.median(times):.0f} ms  "
        f"p99 {p99:.0f} ms  max {times[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
