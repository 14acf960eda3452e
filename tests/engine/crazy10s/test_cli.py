"""The analysis CLI, run as a user would: ``python -m games.crazy10s ...`` in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
EMPTY_13 = "/".join(["." * 13] * 13)
FIVE_ON_G7 = "/".join(["." * 13] * 6 + ["......5......"] + ["." * 13] * 6)


def run(*args: str) -> tuple[int, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "games.crazy10s", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    return proc.returncode, proc.stdout


def run_json(*args: str) -> dict[str, Any]:
    code, out = run(*args)
    assert code == 0, out
    return json.loads(out)


def test_score_legal_first_move_uses_the_start_square_as_double_line() -> None:
    result = run_json("score", "--board", EMPTY_13, "--move", "g7=3 h7=*7")
    assert result == {
        "legal": True,
        "score": 20,
        "lines": [{"direction": "across", "start": "g7", "end": "h7", "values": [3, 7],
                   "score": 20}],
        "error": None,
    }


def test_score_illegal_move_names_the_rule() -> None:
    result = run_json("score", "--board", EMPTY_13, "--move", "a1=3 b1=7")
    assert result["legal"] is False and result["score"] == 0 and result["lines"] == []
    assert result["error"]["code"] == "first_move_centre"
    bad_sum = run_json("score", "--board", FIVE_ON_G7, "--move", "h7=4")
    assert bad_sum["error"]["code"] == "bad_sum"


def test_score_rack_size_and_puzzle_flags() -> None:
    # d7 and j7 are DN squares, g7 the start square: (0+0+1+1+2+2+4×2) × 2 = 28, +20 for seven.
    seven = "d7=0 e7=0 f7=1 g7=1 h7=2 i7=2 j7=4"
    assert run_json("score", "--board", EMPTY_13, "--move", seven)["score"] == 48
    assert run_json("score", "--board", EMPTY_13, "--move", seven, "--puzzle")["score"] == 28
    limited = run_json("score", "--board", EMPTY_13, "--move", seven, "--rack-size", "5")
    assert limited["error"]["code"] == "too_many_tiles"


def test_score_bad_notation() -> None:
    for board, move in (("..x/.../...", "b2=1"), (EMPTY_13, "g7=x"), (EMPTY_13, "pass")):
        result = run_json("score", "--board", board, "--move", move)
        assert result["legal"] is False
        assert result["error"]["code"] == "bad_notation"


def test_analyze_lists_moves_best_first() -> None:
    everything = run_json("analyze", "--board", FIVE_ON_G7, "--rack", "55*")
    top = run_json("analyze", "--board", FIVE_ON_G7, "--rack", "55*", "--top", "3")
    assert top["count"] == everything["count"] > 3
    assert len(top["moves"]) == 3 and top["moves"] == everything["moves"][:3]
    scores = [m["score"] for m in everything["moves"]]
    assert scores == sorted(scores, reverse=True)
    best = everything["moves"][0]
    check = run_json("score", "--board", FIVE_ON_G7, "--move", best["move"])
    assert check["legal"] and check["score"] == best["score"] and check["lines"] == best["lines"]


def test_analyze_puzzle_board_and_bad_rack() -> None:
    board = "/".join(["." * 11] * 5 + [".....5....."] + ["." * 11] * 5)
    result = run_json("analyze", "--board", board, "--rack", "5", "--puzzle")
    assert {m["move"] for m in result["moves"]} == {"e6=5", "g6=5", "f5=5", "f7=5"}
    code, out = run("analyze", "--board", board, "--rack", "12x")
    assert code == 2 and json.loads(out)["error"]["code"] == "bad_notation"


def test_selfplay_reports_each_level() -> None:
    summary = run_json("selfplay", "--games", "2", "--seed", "4", "--players",
                       "casual,beginner", "--json")
    assert summary["games"] == 2
    assert [p["level"] for p in summary["players"]] == ["casual", "beginner"]
    for player in summary["players"]:
        assert player["average_score"] > 0 and player["ms_per_move"] > 0
    wins = sum(p["wins"] for p in summary["players"])
    draws = summary["players"][0]["draws"]
    assert wins + draws == 2
    assert summary["average_moves_per_game"] > 10
    code, table = run("selfplay", "--games", "1", "--players", "strong,strong")
    assert code == 0 and "strong#1" in table and "strong#2" in table


def test_levelstats_reports_each_level_against_greedy() -> None:
    code, out = run("levelstats", "--pairs", "1", "--levels", "beginner,casual", "--json")
    assert code == 0, out
    rows = json.loads(out)
    assert [r["level"] for r in rows] == ["beginner", "casual"]
    assert all(r["games"] == 2 and r["opponent"] == "greedy" for r in rows)
    code, _ = run("levelstats", "--pairs", "1", "--levels", "greedy")
    assert code == 2  # the yardstick is no level
