"""Each computer level against the greedy yardstick over paired seeds (issue 16).

Every seed is played twice, once with each side moving first (the seats are swapped; the seed
fixes the tiles and which seat starts), so luck of the draw and of the first move cancels out.
A draw counts as half a win. The result is what ``games/crazy10s/engine/level_stats.json``
holds (``--write``): the level descriptions quote its figures rather than typed-in numbers.
Timing uses the clock, so this module lives outside the pure engine.
"""

from __future__ import annotations

import json
import random
import statistics
from functools import cache
from pathlib import Path
from typing import Any

from games.levelmath import percentile, wilson

from .engine.players import LEVELS
from .selfplay import play_game

STATS_PATH = Path(__file__).resolve().parent / "engine" / "level_stats.json"
YARDSTICK = "greedy"


def paired_seeds(pairs: int, seed: int) -> list[int]:
    rng = random.Random(f"levelstats:{seed}")
    return [rng.getrandbits(63) for _ in range(pairs)]


def play_pair(level: str, opponent: str, game_seed: int) -> list[dict[str, Any]]:
    """One seed played from both seats: per game the level's result, scores and move times."""
    games = []
    for seat in (0, 1):
        seats = (level, opponent) if seat == 0 else (opponent, level)
        record = play_game(game_seed, seats)
        result = record.state.result
        assert result is not None
        games.append({
            "won": 1.0 if result.winner == seat else 0.5 if result.winner is None else 0.0,
            "score": record.state.scores[seat],
            "opponent_score": record.state.scores[1 - seat],
            "move_ms": record.move_ms[seat],
        })
    return games


def match(
    level: str, pairs: int, seed: int = 0, opponent: str = YARDSTICK, jobs: int = 1
) -> dict[str, Any]:
    """``level`` against ``opponent`` over ``pairs`` seeds, each played from both seats, on
    ``jobs`` processes (the figures do not depend on it, but for the times per move)."""
    tasks = [(level, opponent, game_seed) for game_seed in paired_seeds(pairs, seed)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            per_pair = pool.starmap(play_pair, tasks, chunksize=1)
    else:
        per_pair = [play_pair(*task) for task in tasks]
    played = [game for pair in per_pair for game in pair]
    games = len(played)
    won = sum(g["won"] for g in played)
    wins = sum(g["won"] == 1.0 for g in played)
    draws = sum(g["won"] == 0.5 for g in played)
    move_ms = [ms for g in played for ms in g["move_ms"]]
    low, high = wilson(won, games)
    return {
        "level": level,
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": round(won / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "average_score": round(statistics.fmean(g["score"] for g in played), 1),
        "opponent_average_score": round(statistics.fmean(g["opponent_score"] for g in played), 1),
        "ms_per_move_p50": round(percentile(move_ms, 0.5), 2),
        "ms_per_move_p99": round(percentile(move_ms, 0.99), 2),
        "pair_wins": [sum(g["won"] for g in pair) for pair in per_pair],
    }


def format_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        f"{'level':<9} {'games':>6} {'win %':>6} {'95% CI':>13} {'avg':>6} {'greedy':>6}"
        f" {'ms p50':>7} {'ms p99':>7}"
    ]
    for r in rows:
        ci = f"{100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}"
        lines.append(
            f"{r['level']:<9} {r['games']:>6} {100 * r['win_rate']:>6.1f} {ci:>13}"
            f" {r['average_score']:>6} {r['opponent_average_score']:>6}"
            f" {r['ms_per_move_p50']:>7} {r['ms_per_move_p99']:>7}"
        )
    return "\n".join(lines)


def load_stats(path: Path = STATS_PATH) -> dict[str, Any]:
    """The stored figures: {"levels": {level: match(...)}, ...}."""
    return json.loads(path.read_text())


def write_stats(rows: list[dict[str, Any]], pairs: dict[str, int], seed: int,
                path: Path = STATS_PATH) -> None:
    """Merge ``rows`` into the stored figures (levels not measured keep their old entry)."""
    data: dict[str, Any] = {"opponent": YARDSTICK, "seed": seed, "levels": {}}
    if path.exists():
        data = load_stats(path)
    for row in rows:
        figures = {key: value for key, value in row.items() if key != "pair_wins"}
        data["levels"][row["level"]] = figures | {"pairs": pairs[row["level"]], "seed": seed}
    data["levels"] = {lv: data["levels"][lv] for lv in LEVELS if lv in data["levels"]}
    path.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")


@cache
def _stored() -> dict[str, Any]:
    """The committed figures, read once per process (descriptions are built per request)."""
    return load_stats(STATS_PATH)


def level_figures(level: str, path: Path = STATS_PATH) -> dict[str, Any]:
    """The measured figures a level's description quotes, ready for ``%`` formatting:
    ``win_rate`` (percent, whole number), ``average_score`` (whole points), ``games`` and the
    opponent's ``opponent_average_score``. Empty for a level never measured."""
    data = _stored() if path == STATS_PATH else load_stats(path)
    row = data["levels"].get(level)
    if row is None:
        return {}
    return {
        "win_rate": round(100 * row["win_rate"]),
        "average_score": round(row["average_score"]),
        "opponent_average_score": round(row["opponent_average_score"]),
        "games": row["games"],
    }
