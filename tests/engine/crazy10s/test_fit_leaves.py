"""bench/fit_leaves.py, where the players' leave values come from: its samples and its fit."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from games.crazy10s.engine.tiles import WILD

_PATH = Path(__file__).resolve().parents[3] / "bench" / "fit_leaves.py"
_spec = importlib.util.spec_from_file_location("fit_leaves", _PATH)
assert _spec is not None and _spec.loader is not None
fit_leaves = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fit_leaves)


def test_features_count_digits_extra_copies_and_pairs() -> None:
    row = fit_leaves.features((0, 3, 3, 7, 5, 5, WILD))
    intercept, *per_tile, extra, pairs = row
    assert intercept == 1.0
    assert per_tile == [1, 0, 0, 2, 0, 2, 0, 1, 0, 0, 1]  # 0 to 9, then wilds
    assert extra == 2  # a second 3 and a second 5
    assert pairs == 1  # 3 and 7 (5 and 5 is an extra copy, not a pair)


def test_least_squares_recovers_known_values_with_clustered_errors() -> None:
    rng = random.Random(5)
    rows, targets, clusters = [], [], []
    for cluster in range(300):
        shared = rng.gauss(0, 2)  # the same luck for every sample of a cluster
        for _ in range(8):
            x = rng.random()
            rows.append([1.0, x])
            targets.append(3.0 - 4.0 * x + shared + rng.gauss(0, 0.5))
            clusters.append(cluster)
    (intercept, slope), (intercept_error, _) = fit_leaves.least_squares(rows, targets, clusters)
    assert abs(intercept - 3.0) < 0.5 and abs(slope + 4.0) < 0.2
    _, (alone_error, _) = fit_leaves.least_squares(rows, targets, list(range(len(rows))))
    assert intercept_error > 1.5 * alone_error  # shared luck widens the intercept's error


def test_samples_are_kept_tiles_and_the_next_turns_points() -> None:
    samples = fit_leaves.samples_of_seed("strong", 11)
    assert len(samples) > 10
    for kept, points in samples:
        assert len(kept) < 7 and all(0 <= t <= WILD for t in kept)
        assert points >= 0
    assert any(points > 0 for _, points in samples)
