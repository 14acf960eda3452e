"""``python -m games.crazy_eights analyze|selfplay``: JSON on stdout."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.crazy_eights.cli import main, wilson
from games.crazy_eights.engine import (
    Options,
    apply_legal,
    format_move,
    legal_moves,
    new_match,
    view_for,
)

ROOT = Path(__file__).resolve().parents[3]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    return code, json.loads(capsys.readouterr().out)


def test_analyze_lists_every_legal_move_and_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "analyze", "--hand", "7H 7C 8S", "--top", "7S", "--suit", "S")
    assert code == 0
    assert sorted(out["moves"]) == sorted(
        ["7C", "7H", "7C 7H", "7H 7C", "8S/C", "8S/D", "8S/H", "8S/S"]
    )
    assert out["hint"]["move"] in out["moves"]
    assert out["hint"]["reason"]["code"].startswith("hint_")


def test_analyze_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, single = run(capsys, "analyze", "--hand", "7H 7C 8S", "--top", "7S", "--no-several")
    assert sorted(single["moves"]) == ["7C", "7H", "8S/C", "8S/D", "8S/H", "8S/S"]
    _, penalty = run(capsys, "analyze", "--hand", "2H 5C", "--top", "2S", "--penalty", "2")
    assert penalty["moves"] == ["2H", "take"]
    _, plain = run(capsys, "analyze", "--hand", "2H 5C", "--top", "2S", "--no-actions",
                   "--players", "4")
    assert plain["moves"] == ["2H"]
    _, drawn = run(capsys, "analyze", "--hand", "4D 9S", "--top", "7S", "--draws", "1",
                   "--drawn", "9S")
    assert sorted(drawn["moves"]) == ["9S", "pass"]
    _, classic = run(capsys, "analyze", "--hand", "4D", "--top", "7S", "--classic",
                     "--players", "3")
    assert classic["moves"] == ["draw"] and classic["hint"]["move"] == "draw"


def test_analyze_a_view_gives_the_states_legal_moves(capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(41)
    state = new_match(seed=41, options=Options(players=3))
    for _ in range(20):
        state = apply_legal(state, rng.choice(legal_moves(state))).state
    view = json.dumps(view_for(state, state.turn))
    code, out = run(capsys, "analyze", "--view", view)
    assert code == 0
    assert out["moves"] == [format_move(m) for m in legal_moves(state)]


def test_analyze_refuses_a_bad_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "analyze", "--hand", "7H 1X", "--top", "7S")
    assert code == 2 and out["error"]["code"] == "bad_notation"
    code, out = run(capsys, "analyze", "--hand", "7H 7S", "--top", "7S")
    assert code == 2 and out["error"]["code"] == "duplicate_card"
    code, out = run(capsys, "analyze", "--view", "{}")
    assert code == 2 and out["error"]["code"] == "bad_position"
    state = new_match(seed=1, options=Options(players=2))
    waiting = json.dumps(view_for(state, 1 - state.turn))
    code, out = run(capsys, "analyze", "--view", waiting)
    assert code == 2 and out["error"]["code"] == "not_your_turn"


def test_selfplay_reports_shares_points_rounds_and_speed() -> None:
    # Run as a user would, in a subprocess.
    proc = subprocess.run(
        [sys.executable, "-m", "games.crazy_eights", "selfplay", "--players", "3",
         "--regulars", "cautious,aggressive,chaotic", "--matches", "3", "--seed", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )
    out = json.loads(proc.stdout)
    assert out["matches"] == 3 and out["rounds_per_match"] >= 1
    assert [r["regular"] for r in out["regulars"]] == ["cautious", "aggressive", "chaotic"]
    assert sum(r["wins"] for r in out["regulars"]) == 3
    for r in out["regulars"]:
        low, high = r["win_share_ci95"]
        assert low <= r["win_share"] <= high
        assert r["points_per_round"] >= 0 and r["ms_per_move"] > 0


def test_selfplay_refuses_a_wrong_number_of_regulars(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "selfplay", "--players", "3", "--regulars", "cautious,chaotic")
    assert code == 2 and out["error"]["code"] == "bad_regulars"


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0
