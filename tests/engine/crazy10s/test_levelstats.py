"""The level benchmark against greedy and the figures it stores for the level descriptions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.crazy10s import levelstats
from games.crazy10s.engine import LEVELS


def test_wilson_interval_known_values() -> None:
    low, high = levelstats.wilson(70, 100)
    assert (round(low, 3), round(high, 3)) == (0.604, 0.781)
    assert levelstats.wilson(0, 10)[0] == 0.0 and levelstats.wilson(10, 10)[1] == 1.0


def test_match_plays_each_seed_from_both_seats() -> None:
    row = levelstats.match("casual", 2, seed=3)
    assert row["games"] == 4 and row["opponent"] == "greedy"
    assert 0 <= row["wins"] + row["draws"] <= 4
    assert row["win_rate"] == pytest.approx((row["wins"] + row["draws"] / 2) / 4, abs=1e-4)
    low, high = row["ci95"]
    assert low <= row["win_rate"] <= high
    assert row["ms_per_move_p50"] <= row["ms_per_move_p99"]
    assert levelstats.paired_seeds(2, 3) == levelstats.paired_seeds(2, 3)


def test_write_merges_and_figures_read_back(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    row = {"level": "casual", "opponent": "greedy", "games": 4, "wins": 1, "draws": 1,
           "win_rate": 0.375, "ci95": [0.1, 0.8], "average_score": 401.26,
           "opponent_average_score": 420.5, "ms_per_move_p50": 1.0, "ms_per_move_p99": 2.0}
    levelstats.write_stats([row], {"casual": 2}, 0, path)
    levelstats.write_stats([row | {"level": "beginner"}], {"beginner": 2}, 0, path)
    data = json.loads(path.read_text())
    assert list(data["levels"]) == ["beginner", "casual"]  # in level order, both kept
    assert levelstats.level_figures("casual", path) == {
        "win_rate": 38, "average_score": 401, "opponent_average_score": 420, "games": 4,
    }
    assert levelstats.level_figures("expert", path) == {}


def test_stored_figures_cover_every_level() -> None:
    data = levelstats.load_stats()
    assert data["opponent"] == "greedy"
    for level in LEVELS:
        row = data["levels"][level]
        assert row["games"] >= 200 and row["games"] == 2 * row["pairs"]
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    rates = [data["levels"][lv]["win_rate"] for lv in LEVELS]
    assert rates == sorted(rates)  # the levels are ordered in strength
