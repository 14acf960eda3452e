"""Command line: ``python -m games.crazy10s score|analyze|selfplay|levelstats`` (JSON on stdout).

- ``score`` checks one placement on a board; the rack is the move's own tiles, so only the
  board's legality is judged.
- ``analyze`` lists every legal placement of a rack, best first.
- ``selfplay`` plays computer levels against each other and reports scores, wins and speed.
- ``levelstats`` plays each level against greedy over paired seeds (see ``levelstats.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from .engine import (
    Board,
    IllegalMoveError,
    Placement,
    ScoredPlacement,
    check_placement,
    format_move,
    generate_placements,
    parse_board,
    parse_layout,
    parse_move,
    parse_rack,
)
from .engine.players import LEVELS, PLAYERS
from .selfplay import play_game


def _board(text: str, layout_text: str | None) -> Board:
    layout = parse_layout(layout_text) if layout_text else None
    return parse_board(text, layout)


def _error(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def score_command(args: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {"legal": False, "score": 0, "lines": [], "error": None}
    try:
        board = _board(args.board, args.layout)
        move = parse_move(args.move)
        if not isinstance(move, Placement):
            raise IllegalMoveError("bad_notation", "Only placements can be scored.")
        if len(move.tiles) > args.rack_size:
            raise IllegalMoveError(
                "too_many_tiles", f"At most {args.rack_size} tiles can be placed in one move."
            )
        rack = tuple(t.rack_tile for t in move.tiles)
        scored = check_placement(board, move, rack, seven_tile_bonus=not args.puzzle)
    except IllegalMoveError as exc:
        result["error"] = _error(exc.code, exc.message)
        return result
    result.update(legal=True, score=scored.score, lines=scored.lines_dicts(board.size))
    return result


def ranked(moves: Sequence[ScoredPlacement]) -> list[tuple[str, ScoredPlacement]]:
    """Moves best first; equal scores in notation order so the listing is stable."""
    named = [(format_move(m.move), m) for m in moves]
    named.sort(key=lambda pair: (-pair[1].score, pair[0]))
    return named


def analyze_command(args: argparse.Namespace) -> dict[str, Any]:
    try:
        board = _board(args.board, args.layout)
        rack = parse_rack(args.rack)
    except IllegalMoveError as exc:
        return {"error": _error(exc.code, exc.message)}
    moves = ranked(generate_placements(board, rack, seven_tile_bonus=not args.puzzle))
    top = moves if args.top is None else moves[: args.top]
    return {
        "count": len(moves),
        "moves": [
            {"move": name, "score": m.score, "lines": m.lines_dicts(board.size)}
            for name, m in top
        ],
    }



def selfplay(games: int, seed: int, levels: tuple[str, str]) -> dict[str, Any]:
    """Play ``games`` games, alternating seats, and summarise each player's results."""
    rng = random.Random(seed)
    labels = [levels[0], levels[1]]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}#1", f"{labels[1]}#2"]
    totals = [{"score": 0, "wins": 0, "draws": 0, "seconds": 0.0, "moves": 0} for _ in range(2)]
    turns = 0
    started = time.perf_counter()
    for game in range(games):
        # Side i plays seat (i + game) % 2, so both sides move first equally often.
        seat_of = [game % 2, (game + 1) % 2]
        seat_levels = [""] * 2
        for side in range(2):
            seat_levels[seat_of[side]] = levels[side]
        record = play_game(rng.getrandbits(63), (seat_levels[0], seat_levels[1]))
        result = record.state.result
        turns += record.turns
        for side in range(2):
            seat = seat_of[side]
            totals[side]["score"] += record.state.scores[seat]
            totals[side]["seconds"] += record.seconds[seat]
            totals[side]["moves"] += record.moves[seat]
            if result is not None and result.winner is None:
                totals[side]["draws"] += 1
            elif result is not None and result.winner == seat:
                totals[side]["wins"] += 1
    elapsed = time.perf_counter() - started
    players = []
    for side in range(2):
        t = totals[side]
        players.append(
            {
                "player": labels[side],
                "level": levels[side],
                "average_score": round(t["score"] / max(games, 1), 1),
                "wins": t["wins"],
                "draws": t["draws"],
                "ms_per_move": round(1000 * t["seconds"] / max(t["moves"], 1), 2),
            }
        )
    return {
        "games": games,
        "seed": seed,
        "players": players,
        "average_moves_per_game": round(turns / max(games, 1), 1),
        "games_per_second": round(games / elapsed, 2) if elapsed else None,
    }


def _print_selfplay_table(summary: dict[str, Any]) -> None:
    print(f"{summary['games']} games, seed {summary['seed']}, "
          f"{summary['average_moves_per_game']} moves per game, "
          f"{summary['games_per_second']} games/s")
    print(f"{'player':<12} {'avg score':>9} {'wins':>5} {'draws':>5} {'ms/move':>8}")
    for p in summary["players"]:
        print(f"{p['player']:<12} {p['average_score']:>9} {p['wins']:>5} {p['draws']:>5} "
              f"{p['ms_per_move']:>8}")


def _levels(text: str) -> tuple[str, str]:
    parts = tuple(p.strip() for p in text.split(","))
    if len(parts) != 2 or any(p not in PLAYERS for p in parts):
        raise argparse.ArgumentTypeError(f"two levels separated by a comma, from {PLAYERS}")
    return parts


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.crazy10s", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="check and score one placement")
    score.add_argument("--board", required=True, help="board notation, rows separated by /")
    score.add_argument("--layout", help="layout notation (default: the classic layout)")
    score.add_argument("--move", required=True, help="placement, e.g. 'g7=3 h7=*7'")
    score.add_argument("--rack-size", type=int, default=7, help="most tiles one move may place")
    score.add_argument("--puzzle", action="store_true", help="no seven-tile bonus")

    analyze = commands.add_parser("analyze", help="list every legal placement of a rack")
    analyze.add_argument("--board", required=True)
    analyze.add_argument("--layout")
    analyze.add_argument("--rack", required=True, help="rack notation, e.g. 1237*55")
    analyze.add_argument("--top", type=int, help="only the best K moves")
    analyze.add_argument("--puzzle", action="store_true", help="no seven-tile bonus")

    play = commands.add_parser("selfplay", help="computer levels play each other")
    play.add_argument("--games", type=int, default=10)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--players", type=_levels, default=("strong", "strong"),
                      help=f"two levels, e.g. expert,beginner (levels: {', '.join(PLAYERS)})")
    play.add_argument("--json", action="store_true", help="print JSON instead of a table")

    stats = commands.add_parser(
        "levelstats", help="each level against greedy over paired seeds (bench/players.py)"
    )
    stats.add_argument("--pairs", type=int, default=100, help="seeds, each played twice")
    stats.add_argument("--pairs-expert", type=int, help="fewer pairs for the slow expert")
    stats.add_argument("--seed", type=int, default=0)
    stats.add_argument("--levels", default=",".join(LEVELS))
    stats.add_argument("--jobs", type=int, default=1, help="processes (times per move are "
                       "measured with the processes competing for the cores)")
    stats.add_argument("--write", action="store_true",
                       help="store the figures in engine/level_stats.json")
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def levelstats_command(args: argparse.Namespace) -> int:
    from . import levelstats  # it imports this module (play_game)

    levels = [lv.strip() for lv in args.levels.split(",")]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown:
        print(f"unknown levels {unknown}; choose from {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    pairs = {
        lv: args.pairs_expert if lv == "expert" and args.pairs_expert else args.pairs
        for lv in levels
    }
    rows = []
    for level in levels:
        rows.append(levelstats.match(level, pairs[level], args.seed, jobs=args.jobs))
        if not args.json:
            print(levelstats.format_table(rows[-1:]).splitlines()[-1], flush=True)
    if args.json:
        print(json.dumps(rows))
    else:
        print(levelstats.format_table(rows))
    if args.write:
        levelstats.write_stats(rows, pairs, args.seed)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "score":
        print(json.dumps(score_command(args)))
        return 0
    if args.command == "analyze":
        result = analyze_command(args)
        print(json.dumps(result))
        return 2 if "error" in result else 0
    if args.command == "levelstats":
        return levelstats_command(args)
    summary = selfplay(args.games, args.seed, args.players)
    if args.json:
        print(json.dumps(summary))
    else:
        _print_selfplay_table(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
