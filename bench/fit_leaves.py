"""Fit the computer players' leave values from self-play:
``python bench/fit_leaves.py [--pairs 1000] [--seed 1234] [--level strong] [--jobs 2]
[--leave-weight W]``.

The level plays greedy over paired seeds. For each of its turns after which the bag still
holds a full rack (mid-game turns: the players weigh the leave fully there), the sample is
(the tiles it kept, the points it scored on its own next turn; a pass or swap scores 0). A
least squares fit of those points on the kept tiles (a count per digit and for wilds, the extra
copies of a digit, the complementary pairs 1+9 ... 4+6) gives what each kept tile is worth
against a fresh draw; the intercept is the next turn's points after keeping nothing. The
errors are clustered by seed (the two games of a seed share their deal, and one turn's leave
feeds the next).

``LEAVE_VALUE``, ``DUPLICATE_PENALTY`` and ``PAIR_BONUS`` in games/crazy10s/engine/players.py
are the second of two rounds at leave weight 1.0: round 1 played with the earlier hand-set
table, round 2 with round 1's values (0: 7.3, 1: -1.3, 2: -1.8, 3: -1.9, 4: -2.5, 5: -3.2,
6: -2.7, 7: -2.7, 8: -2.6, 9: -2.85, wild: 9.0, extra copy -1.6). Round 2 (22,777 turns; next
turn after keeping nothing 37.5): 0 +6.76, 1 -0.02, 2 -0.71, 3 -1.12, 4 -1.81, 5 -1.79,
6 -2.11, 7 -2.00, 8 -1.98, 9 -2.08, wild +8.26, extra copy -1.96, pair +0.65 (standard errors
0.13-0.40, not clustered). A third round with round 2's values moved none by more than its
error. bench/players.py then chose the leave weight and measures the levels against greedy.
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

from games.crazy10s.engine import players  # noqa: E402
from games.crazy10s.engine.moves import Swap  # noqa: E402
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
        return players._returned(rack, choice.tiles)  # the rack less the swapped tiles
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
            choice = players.computer_choice(state, levels[player], rngs[player])
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


def least_squares(
    rows: list[list[float]], targets: list[float], clusters: list[int]
) -> tuple[list[float], list[float]]:
    """(coefficients, standard errors) by the normal equations, solved by Gauss-Jordan; the
    errors are cluster-robust (a sandwich over the ``clusters``, samples that are not
    independent of each other)."""
    k = len(rows[0])
    gram = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    moment = [sum(r[i] * y for r, y in zip(rows, targets, strict=True)) for i in range(k)]
    inverse = _inverse(gram)
    coefficients = [sum(inverse[i][j] * moment[j] for j in range(k)) for i in range(k)]
    scores: dict[int, list[float]] = {}  # per cluster: the sum of residual * features
    for r, y, cluster in zip(rows, targets, clusters, strict=True):
        residual = y - sum(c * x for c, x in zip(coefficients, r, strict=True))
        total = scores.setdefault(cluster, [0.0] * k)
        for i in range(k):
            total[i] += residual * r[i]
    meat = [[sum(g[i] * g[j] for g in scores.values()) for j in range(k)] for i in range(k)]
    groups = len(scores)
    correction = groups / (groups - 1) if groups > 1 else 1.0
    errors = []
    for i in range(k):
        row = [sum(inverse[i][a] * meat[a][b] for a in range(k)) for b in range(k)]
        errors.append(math.sqrt(correction * sum(row[b] * inverse[b][i] for b in range(k))))
    return coefficients, errors


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
    parser.add_argument("--leave-weight", type=float, default=players.LEAVE_WEIGHT,
                        help="the level's LEAVE_WEIGHT while it plays (the fit used 1.0)")
    args = parser.parse_args(argv)
    players.LEAVE_WEIGHT = args.leave_weight  # the forked processes inherit it
    tasks = [(args.level, seed) for seed in paired_seeds(args.pairs, args.seed)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        per_seed = pool.starmap(samples_of_seed, tasks, chunksize=4)
    samples = [(s, seed) for seed, seed_samples in enumerate(per_seed) for s in seed_samples]
    coefficients, errors = least_squares(
        [features(kept) for (kept, _), _ in samples],
        [float(score) for (_, score), _ in samples],
        [seed for _, seed in samples],
    )
    print(f"{len(samples)} turns; next turn's points after keeping nothing: "
          f"{coefficients[0]:.1f} ± {1.96 * errors[0]:.1f}")
    for name, value, error in zip(NAMES, coefficients[1:], errors[1:], strict=True):
        print(f"{name:>10} {value:+6.2f} ± {1.96 * error:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
