"""Command line: ``python -m games.crazy_eights analyze|selfplay|levelstats`` (JSON on stdout).

- ``analyze`` lists every legal move of a position in docs/rules.md notation, with the hint. The
  position is a hand, the top card and the table's state (``--hand "7H 7C 8S" --top 7S``), or a
  seat's view as JSON (``--view``, as ``view_for`` gives it).
- ``selfplay`` plays computer regulars against each other over many matches and reports each
  regular's win share (with a 95 % Wilson interval), points per round and ms per move.
- ``levelstats`` measures every regular against the random and first-legal-card baselines and
  against each other (``levelstats.py``); ``--write`` stores ``engine/level_stats.json``, which
  the regulars' descriptions quote.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import (
    CARD_NAMES,
    SUITS,
    IllegalMoveError,
    InvalidOptionsError,
    Options,
    apply_legal,
    format_move,
    new_match,
    parse_card,
    parse_hand,
    parse_suit,
)
from .engine.hints import hint
from .engine.knowledge import knowledge, legal_moves_for_view, opening_record
from .engine.players import REGULARS, Regular, decide, strong_player
from .engine.view import view_for

MAX_MOVES = 20_000  # a safety net: matches end long before (the engine's property tests)


def _error(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def position_view(args: argparse.Namespace) -> dict[str, Any]:
    """Seat 0's view of the position given on the command line; the other hands are full
    (``--hand-sizes`` otherwise) and the rest of the deck is the stock."""
    options = Options(
        players=args.players,
        actions=not args.no_actions,
        several=not args.no_several,
        classic=args.classic,
    )
    hand = parse_hand(args.hand)
    top = parse_card(args.top)
    if len(set(hand)) != len(hand) or top in hand:
        raise IllegalMoveError("duplicate_card", "A card appears twice in the position.")
    suit = parse_suit(args.suit) if args.suit else top % 4
    drawn = parse_card(args.drawn) if args.drawn else None
    if args.draws and (drawn is None or drawn not in hand):
        raise IllegalMoveError("not_in_hand", "With --draws, --drawn names a card of the hand.")
    sizes = [len(hand)] + [options.hand_size] * (options.players - 1)
    if args.hand_sizes:
        sizes[1:] = [int(x) for x in args.hand_sizes.split(",")]
    if len(sizes) != options.players or min(sizes[1:]) < 0:
        raise InvalidOptionsError("hand_sizes", "Give one hand size per other player.")
    stock = 52 - sum(sizes) - 1
    if stock < 0:
        raise InvalidOptionsError("hand_sizes", "The hands hold more than the deck.")
    return {
        "seat": 0,
        "options": options.to_dict(),
        "players": options.players,
        "goal": options.goal,
        "round": 1,
        "dealer": options.players - 1,
        "turn": 0,
        "your_turn": True,
        "direction": 1,
        "top": CARD_NAMES[top],
        "suit": SUITS[suit],
        "hand_sizes": sizes,
        "stock_size": stock,
        "discard_size": 1,
        "penalty": args.penalty,
        "draws": args.draws,
        "passes": 0,
        "scores": [0] * options.players,
        "move_number": 0,
        "last_round": None,
        "result": None,
        "match_over": False,
        "hand": [CARD_NAMES[c] for c in hand],
        "drawn": CARD_NAMES[drawn] if drawn is not None and args.draws else None,
    }


def analyze_command(args: argparse.Namespace) -> dict[str, Any]:
    try:
        if args.view:
            view = json.loads(args.view)
            history = json.loads(args.history) if args.history else []
            knowledge(view, history)  # a seat's view, well formed
            if not view.get("your_turn"):
                return _error("not_your_turn", "The view's seat is not the seat to act.")
        else:
            if not args.hand or not args.top:
                return _error("bad_position", "Give --hand and --top, or --view.")
            view = position_view(args)
            history = []
        moves = legal_moves_for_view(view)
        return {"moves": [format_move(m) for m in moves], "hint": hint(view, history)}
    except (IllegalMoveError, InvalidOptionsError) as exc:
        return _error(exc.code, exc.message)
    except (ValueError, KeyError, TypeError) as exc:
        return _error("bad_position", f"Not a position: {exc}")


@dataclass
class MatchRecord:
    regulars: tuple[str, ...]  # per seat
    winner: int | None = None
    scores: tuple[int, ...] = ()
    rounds: int = 0
    moves: int = 0
    seconds: list[float] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)


def play_match(
    seed: int, regulars: Sequence[str], options: Options, players: dict[str, Regular]
) -> MatchRecord:
    """One match: seat ``s`` is played by ``regulars[s]``, each seat with its own rng."""
    state = new_match(seed=seed, options=options)
    history: list[dict[str, Any]] = [opening_record(state)]
    n = options.players
    rngs = [random.Random(f"{seed}:regular:{s}") for s in range(n)]
    record = MatchRecord(tuple(regulars), seconds=[0.0] * n, decisions=[0] * n)
    while not state.is_over and record.moves < MAX_MOVES:
        seat = state.turn
        assert seat is not None
        started = time.perf_counter()
        move = decide(players[regulars[seat]], view_for(state, seat), history, rngs[seat])
        record.seconds[seat] += time.perf_counter() - started
        record.decisions[seat] += 1
        result = apply_legal(state, move)
        history.append(result.public_dict())
        state = result.state
        record.moves += 1
    assert state.result is not None, "the match did not end"
    record.winner = state.result.winner
    record.scores = state.scores
    record.rounds = state.round
    return record


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials
    )
    return (max(0.0, centre - half), min(1.0, centre + half))


def selfplay(
    matches: int,
    seed: int,
    regulars: Sequence[str],
    options: Options,
    rollouts: int | None = None,
) -> dict[str, Any]:
    """``matches`` matches; the seats rotate so every regular sits in every seat equally.
    Results are per regular name (three copies of one regular share one line)."""
    players = dict(REGULARS)
    if rollouts is not None:
        players["strong"] = strong_player(rollouts)
    rng = random.Random(seed)
    n = options.players
    names = list(dict.fromkeys(regulars))
    totals = {
        name: {"seats": regulars.count(name), "wins": 0, "points": 0, "rounds": 0,
               "seconds": 0.0, "decisions": 0}
        for name in names
    }
    rounds = moves = 0
    started = time.perf_counter()
    for m in range(matches):
        seating = [regulars[(s + m) % n] for s in range(n)]
        record = play_match(rng.getrandbits(63), seating, options, players)
        rounds += record.rounds
        moves += record.moves
        for seat, name in enumerate(seating):
            t = totals[name]
            t["wins"] += int(record.winner == seat)
            t["points"] += record.scores[seat]
            t["rounds"] += record.rounds
            t["seconds"] += record.seconds[seat]
            t["decisions"] += record.decisions[seat]
    elapsed = time.perf_counter() - started
    report = []
    for name in names:
        t = totals[name]
        low, high = wilson(t["wins"], matches)
        report.append(
            {
                "regular": name,
                "seats": t["seats"],
                "wins": t["wins"],
                "win_share": round(t["wins"] / max(matches, 1), 4),
                "win_share_ci95": [round(low, 4), round(high, 4)],
                "points_per_round": round(t["points"] / max(t["rounds"], 1), 2),
                "ms_per_move": round(1000 * t["seconds"] / max(t["decisions"], 1), 3),
            }
        )
    return {
        "matches": matches,
        "seed": seed,
        "options": options.to_dict(),
        "regulars": report,
        "rounds_per_match": round(rounds / max(matches, 1), 2),
        "moves_per_match": round(moves / max(matches, 1), 1),
        "matches_per_second": round(matches / elapsed, 3) if elapsed else None,
    }


def _regulars(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",")]
    unknown = [p for p in names if p not in REGULARS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown regular {unknown[0]!r}; choose from {', '.join(REGULARS)}"
        )
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.crazy_eights", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    analyze = commands.add_parser("analyze", help="every legal move of a position, and a hint")
    analyze.add_argument("--hand", help='the hand, e.g. "7H 7C 8S"')
    analyze.add_argument("--top", help="the top card of the discard pile, e.g. 7S")
    analyze.add_argument("--suit", help="the suit to follow (default: the top card's)")
    analyze.add_argument("--penalty", type=int, default=0, help="a pending draw-two penalty")
    analyze.add_argument("--draws", type=int, default=0, help="cards drawn this turn")
    analyze.add_argument("--drawn", help="the card drawn last this turn (with --draws)")
    analyze.add_argument("--players", type=int, default=2)
    analyze.add_argument("--hand-sizes", help="the other players' hand sizes, e.g. 3,7,5")
    analyze.add_argument("--no-actions", action="store_true", help="2, Queen, Ace plain")
    analyze.add_argument("--no-several", action="store_true", help="one card per play")
    analyze.add_argument("--classic", action="store_true")
    analyze.add_argument("--view", help="a seat's view as JSON, instead of the options above")
    analyze.add_argument("--history", help="with --view: the public records as a JSON list")

    play = commands.add_parser("selfplay", help="regulars play each other")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--regulars", type=_regulars, default=None,
                      help=f"one per seat, e.g. strong,cautious,... (from {', '.join(REGULARS)})")
    play.add_argument("--matches", type=int, default=10)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--classic", action="store_true")
    play.add_argument("--no-actions", action="store_true")
    play.add_argument("--no-several", action="store_true")
    play.add_argument("--target", type=int, default=None)
    play.add_argument("--rollouts", type=int, default=None, help="the strong regular's budget")

    stats = commands.add_parser("levelstats", help="the regulars' published strength")
    stats.add_argument("--matches", type=int, default=200, help="matches per configuration")
    stats.add_argument("--seed", type=int, default=0)
    stats.add_argument("--jobs", type=int, default=1, help="processes")
    stats.add_argument("--write", action="store_true",
                       help="store the figures in engine/level_stats.json")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "analyze":
        result = analyze_command(args)
        print(json.dumps(result))
        return 2 if "error" in result else 0
    if args.command == "levelstats":
        from . import levelstats

        data = levelstats.measure(args.matches, args.seed, args.jobs)
        if args.write:
            levelstats.write_stats(data)
        print(levelstats.format_table(data))
        return 0
    try:
        options = Options(
            players=args.players,
            actions=not args.no_actions,
            several=not args.no_several,
            target=args.target,
            classic=args.classic,
        )
    except InvalidOptionsError as exc:
        print(json.dumps(_error(exc.code, exc.message)))
        return 2
    regulars = args.regulars or (list(REGULARS)[: options.players])
    if len(regulars) != options.players:
        print(json.dumps(_error("bad_regulars", "Name one regular per seat.")))
        return 2
    print(json.dumps(selfplay(args.matches, args.seed, regulars, options, args.rollouts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
