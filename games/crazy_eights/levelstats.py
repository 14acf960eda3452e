"""How strong the Crazy Eights regulars are, measured (issue 24), like Crazy10s's level stats.

``python -m games.crazy_eights levelstats --matches 200 --jobs 2 --write`` plays, with the
default rules and seats rotating so each player sits in every seat equally:

- each regular against a uniformly random legal player (``random``) and against one that always
  plays the first legal move (``first``: the first card that fits), at two seats (one
  opponent) and at four (three of them);
- the regulars against each other: every pair at two seats, and all four at one table.

Every configuration plays the same seeded matches. A match's winner is the engine's (the lowest
total once someone reaches the goal). Win rates come with their 95 % Wilson interval; the time
per decision (p50/p99) is the measured regular's, on this machine's clock, so this module lives
outside the pure engine. ``--write`` stores the result in ``engine/level_stats.json``, which the
regulars' descriptions quote (``levels.py``); the translations hold placeholders, never numbers.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

from games.levelmath import percentile, wilson

from .engine import Options, apply_legal, new_match, view_for
from .engine.knowledge import opening_record
from .engine.players import LEVELS, REGULARS, decide

STATS_PATH = Path(__file__).resolve().parent / "engine" / "level_stats.json"
BASELINES = ("random", "first")
MAX_MOVES = 20_000  # a safety net: a round is bounded (engine.state.max_round_moves)


@dataclass(frozen=True)
class Played:
    winner: int | None
    seats: tuple[str, ...]
    ms: tuple[tuple[float, ...], ...]  # per seat: the time of each of its decisions


def play(seed: int, seats: tuple[str, ...]) -> Played:
    """One match with the default rules, seat ``s`` played by ``seats[s]``."""
    state = new_match(seed=seed, options=Options(players=len(seats)))
    history: list[dict[str, Any]] = [opening_record(state)]
    rngs = [random.Random(f"levelstats:{seed}:{s}") for s in range(len(seats))]
    ms: list[list[float]] = [[] for _ in seats]
    for _ in range(MAX_MOVES):
        if state.is_over:
            break
        seat = state.turn
        assert seat is not None
        started = time.perf_counter()
        move = decide(REGULARS[seats[seat]], view_for(state, seat), history, rngs[seat])
        ms[seat].append(1000 * (time.perf_counter() - started))
        result = apply_legal(state, move)
        history.append(result.public_dict())
        state = result.state
    assert state.result is not None, "the match did not end"
    return Played(state.result.winner, seats, tuple(tuple(m) for m in ms))


def seating(players: tuple[str, ...], match: int) -> tuple[str, ...]:
    """``players`` rotated by ``match``: each sits in every seat equally."""
    n = len(players)
    return tuple(players[(s + match) % n] for s in range(n))


def configurations() -> list[tuple[str, tuple[str, ...]]]:
    """(name, players at the table) of every measurement."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for level in LEVELS:
        for baseline in BASELINES:
            found.append((f"{level} vs {baseline} at 2", (level, baseline)))
            found.append((f"{level} vs {baseline} at 4", (level, baseline, baseline, baseline)))
    for a, b in combinations(LEVELS, 2):
        found.append((f"{a} vs {b} at 2", (a, b)))
    found.append(("table of four", LEVELS))
    return found


def _task(args: tuple[int, tuple[str, ...], int]) -> Played:
    seed, players, match = args
    return play(seed, seating(players, match))


def measure(matches: int, seed: int = 0, jobs: int = 1) -> dict[str, Any]:
    """Every configuration over the same ``matches`` seeds; the figures per regular."""
    rng = random.Random(f"levelstats:{seed}")
    seeds = [rng.getrandbits(63) for _ in range(matches)]
    configs = configurations()
    tasks = [(s, players, m) for _, players in configs for m, s in enumerate(seeds)]
    started = time.perf_counter()
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            played = pool.map(_task, tasks, chunksize=4)
    else:
        played = [_task(t) for t in tasks]
    elapsed = time.perf_counter() - started
    results: dict[str, Any] = {}
    for i, (name, players) in enumerate(configs):
        games = played[i * matches : (i + 1) * matches]
        rows = {}
        for regular in dict.fromkeys(players):
            wins = sum(1 for g in games if g.winner is not None and g.seats[g.winner] == regular)
            share = players.count(regular)
            ms = [t for g in games for s, r in enumerate(g.seats) if r == regular for t in g.ms[s]]
            low, high = wilson(wins / share, matches)
            rows[regular] = {
                "seats": share,
                "wins": wins,
                # A regular on several seats (the baselines at four): the share per seat.
                "win_rate": round(wins / share / matches, 4),
                "ci95": [round(low, 4), round(high, 4)],
                "ms_per_decision_p50": round(percentile(ms, 0.5), 3),
                "ms_per_decision_p99": round(percentile(ms, 0.99), 3),
            }
        results[name] = {"players": list(players), "matches": matches, "results": rows}
    return {
        "command": f"python -m games.crazy_eights levelstats --matches {matches} --seed {seed}"
        " --write",
        "rules": "default (actions, several cards at once, 50 points a seat)",
        "seed": seed,
        "matches_per_configuration": matches,
        "seconds": round(elapsed, 1),
        "jobs": jobs,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "configurations": results,
    }


def format_table(data: dict[str, Any]) -> str:
    lines = [
        f"{'configuration':<28} {'regular':<11} {'win %':>6} {'95% CI':>12} {'ms p50':>7}"
        f" {'ms p99':>7}"
    ]
    for name, config in data["configurations"].items():
        for regular, r in config["results"].items():
            ci = f"{100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}"
            lines.append(
                f"{name:<28} {regular:<11} {100 * r['win_rate']:>6.1f} {ci:>12}"
                f" {r['ms_per_decision_p50']:>7} {r['ms_per_decision_p99']:>7}"
            )
    return "\n".join(lines)


def load_stats(path: Path = STATS_PATH) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def write_stats(data: dict[str, Any], path: Path = STATS_PATH) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n")


@cache
def _stored() -> dict[str, Any]:
    """The committed figures, read once per process (descriptions are built per request)."""
    return load_stats(STATS_PATH) if STATS_PATH.exists() else {"configurations": {}}


def level_figures(level: str) -> dict[str, Any]:
    """What a regular's description quotes (whole percents): its win rate against ``random``
    and ``first`` at two and four seats, and the matches per configuration. Empty when not
    measured."""
    data = _stored()
    configs = data.get("configurations", {})
    figures: dict[str, Any] = {}
    for baseline in BASELINES:
        for seats in (2, 4):
            config = configs.get(f"{level} vs {baseline} at {seats}")
            if config is None:
                return {}
            rate = config["results"][level]["win_rate"]
            figures[f"{baseline}_{seats}"] = round(100 * rate)
            figures["matches"] = config["matches"]
    return figures
