"""Fit the computer players' leave values from self-play:
``python bench/fit_leaves.py [--pairs 1000] [--seed 1234] [--level strong] [--jobs 2]``.

The level plays greedy over paired seeds. For each of its turns that leaves the bag with a
full refill, the sample is (the tiles it kept, the points it scored on its next turn). A least
squares fit of the next turn's points on the kept tiles (a count per digit and for wilds, the
extra copies of a digit, the complementary pairs 1+9 ... 4+6) gives what each kept tile is worth
against a fresh draw: the intercept is the next turn's points after keeping nothing.
``LEAVE_VALUE``, ``DUPLICATE_PENALTY`` and ``PAIR_BONUS`` in
games/crazy10s/engine/players.py come from two rounds of this (the second playing with the
first round's values); bench/players.py then measures the levels against greedy.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.crazy10s.engine.moves import Swap  # noqa: E402
from games.crazy10s.engine.players import computer_choice  # noqa: E402
from games.crazy10s.engine.rules import ScoredPlacement  # noqa: E402
from games.crazy10s.engine.state import (  # noqa: E402
    apply_generated,
    apply_move,
    new_game_from_seed,
)
from games.crazy10s.engine.tiles import RACK_SIZE, WILD  # noqa: E402
from games.crazy10s.levelstats import paired_seeds  # noqa: E402

Sample = tuple[tuple[int, ...], int]  # (tiles kept, points on the next turn)
NAMES = [*(str(d) for d in range(10)), "wild", "extra copy", "pair"]


def kept_tiles(rack: Sequence[int], choice: object) -> tuple[int, ...] | None:
    if isinstance(choice, ScoredPlacement):
        return choice.rack_after
    if isinstance(choice, Swap):
        rest = Counter(rack)
        rest.subtract(choice.tiles)
        return tuple(sorted(rest.elements()))
    return None  # a pass keeps the rack but draws nothing: not a leave


def samples_of_seed(level: str, seed: int) -> list[Sample]:
    """Both games of a seed (the level in each seat once against greedy)."""
    samples: list[Sample] = []
    for seat in (0, 1):
        levels = (level, "greedy") if seat == 0 else ("greedy", level)
        state = new_game_from_seed(seed)
        rngs = (random.Random(f"{seed}:ai:0"), random.Random(f"{seed}:ai:1"))
        waiting: tuple[int, ...] | None = None  # the kept tiles whose next turn is awaited
        while not state.is_over:
            player = state.current_player
            assert player is not None
            choice = computer_choice(state, levels[player], rngs[player])
            if player == seat:
                if waiting is not None:
                    score = choice.score if isinstance(choice, ScoredPlacement) else 0
                    samples.append((waiting, score))
                kept = kept_tiles(state.racks[player], choice)
                drawn = RACK_SIZE - len(kept) if kept is not None else 0
                full_refill = kept is not None and len(state.bag) - drawn >= RACK_SIZE
                waiting = kept if full_refill else None
            if isinstance(choice, ScoredPlacement):
                state = apply_generated(state, choice).state
            else:
                state = apply_move(state, choice).state
    return samples


def features(kept: Sequence[int]) -> list[float]:
    counts = Counter(kept)
    extra = sum(n - 1 for tile, n in counts.items() if tile != WILD and n > 1)
    pairs = sum(min(counts[d], counts[10 - d]) for d in (1, 2, 3, 4))
    return [1.0, *(float(counts[t]) for t in (*range(10), WILD)), float(extra), float(pairs)]


def least_squares(rows: list[list[float]], targets: list[float]) -> tuple[list[float], list[float]]:
    """(coefficients, standard errors) by the normal equations, solved by Gauss-Jordan."""
    k = len(rows[0])
    gram = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    moment = [sum(r[i] * y for r, y in zip(rows, targets, strict=True)) for i in range(k)]
    inverse = _inverse(gram)
    coefficients = [sum(inverse[i][j] * moment[j] for j in range(k)) for i in range(k)]
    residuals = [
        y - sum(c * x for c, x in zip(coefficients, r, strict=True))
        for r, y in zip(rows, targets, strict=True)
    ]
    variance = sum(e * e for e in residuals) / max(1, len(rows) - k)
    return coefficients, [math.sqrt(variance * inverse[i][i]) for i in range(k)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        work[col], work[pivot] = work[pivot], work[col]
        scale = work[col][col]
        work[col] = [x / scale for x in work[col]]
        for r in range(n):
            if r != col and work[r][col]:
                factor = work[r][col]
                work[r] = [x - factor * y for x, y in zip(work[r], work[col], strict=True)]
    return [row[n:] for row in work]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    tasks = [(args.level, seed) for seed in paired_seeds(args.pairs, args.seed)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        per_seed = pool.starmap(samples_of_seed, tasks, chunksize=4)
    samples = [s for seed_samples in per_seed for s in seed_samples]
    coefficients, errors = least_squares(
        [features(kept) for kept, _ in samples], [float(score) for _, score in samples]
    )
    print(f"{len(samples)} turns; next turn's points after keeping nothing: "
          f"{coefficients[0]:.1f} ± {1.96 * errors[0]:.1f}")
    for name, value, error in zip(NAMES, coefficients[1:], errors[1:], strict=True):
        print(f"{name:>10} {value:+6.2f} ± {1.96 * error:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
