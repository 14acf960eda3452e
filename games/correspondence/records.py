"""A game's record for exports and the replay viewer, built by replaying the move log from the
game's seed (as the analysis and ``verify_games`` do).

What a record holds depends on whether the game is over: once it has ended by play
(``selectors.analysis_public``: not aborted or awarded), the full record (every seat's pieces
before each move, the full notation of a swap, the best moves) is open to its players, as
Woogles shows it; while it runs, only what every player sees anyway (public notation, scores)
— never a rack, a hand, the bag, the stock or the seed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from games import kinds, selectors
from games.kinds.base import GameKind
from games.models import Game, Move, Seat

log = logging.getLogger(__name__)


def pieces_text(kind: GameKind, private: dict[str, Any]) -> str:
    """A seat's pieces in the rules' notation: the kind's text of them, with single-character
    pieces written together (a Crazy10s rack ``1237*55``; cards stay spaced, ``7H 10S``)."""
    text = kind.admin_private_text(private)
    if text == "(empty)":
        return ""
    tokens = text.split()
    return "".join(tokens) if all(len(t) == 1 for t in tokens) else " ".join(tokens)


def _players(game: Game, seats: Iterable[Seat]) -> list[dict[str, Any]]:
    out = []
    for seat in seats:
        who = selectors.describe_seat(seat, game.kind) or {}
        out.append({
            "seat": seat.index,
            "name": who.get("display_name"),
            "username": who.get("username"),
            "level": who.get("level"),
            "score": seat.score,
            "result": seat.result,
        })
    return out


def build(
    game: Game, moves: list[Move] | None = None, *, positions_for: int | None = None
) -> dict[str, Any]:
    """The record of ``game`` (its seats prefetched with their users), as its players may see
    it now: full once the game is over, public while it runs.

    ``positions_for`` (a seat; finished games only, for the replay viewer): the kind's position
    as that seat saw it at the start (``initial``) and after each move (``position``: only the
    keys whose value differs from the start's)."""
    kind = kinds.get(game.kind)
    # Over by play (a resignation too): every seat's pieces are open, as the analysis's best
    # moves are. An aborted or awarded game keeps them private, as it does for the analysis.
    full = selectors.analysis_public(game)
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    if moves is None:
        moves = list(Move.objects.filter(game=game).order_by("number"))
    names = {p["seat"]: p["name"] for p in _players(game, seats)}
    state = kind.new_state(seed=game.seed, options=game.options, seats=game.seat_count)
    entries: list[dict[str, Any]] = []
    replays = True
    with_positions = full and positions_for is not None
    initial = (
        kind.position(state, positions_for, over=True)
        if with_positions and positions_for is not None else None
    )
    for move in moves:
        entry: dict[str, Any] = {
            "number": move.number,
            "seat": move.seat,
            "player": names.get(move.seat),
            "kind": move.kind,
            "notation": move.notation if full else move.public_notation,
            "score": move.score,
            "is_timeout": move.is_timeout,
            "played_at": move.created_at,
            "scores_after": None,
        }
        if full:
            entry["best_score"] = move.best_score
            entry["best_notation"] = move.best_notation or None
            entry["percent_of_best"] = (
                None if move.best_score is None
                else selectors.percent_of_best(move.score, move.best_score)
            )
        if replays:
            try:
                before = kind.summary(state)
                if full:
                    entry["pieces_before"] = pieces_text(kind, before.private[move.seat])
                parsed = kind.replay_move(seat=move.seat, kind=move.kind,
                                          notation=move.notation, is_timeout=move.is_timeout)
                state = kind.play(state, parsed, seat=move.seat).state
                entry["scores_after"] = list(kind.summary(state).scores)
                if initial is not None and positions_for is not None:
                    after = kind.position(state, positions_for, over=True)
                    entry["position"] = {
                        k: v for k, v in after.items() if initial.get(k, None) != v
                    }
            except kind.IllegalMove:
                log.error("game %s: move %s does not replay; its record stops there",
                          game.pk, move.number)
                replays = False
        entries.append(entry)
    record: dict[str, Any] = {
        "id": game.pk,
        "kind": game.kind,
        "title": kind.title,
        "status": game.status,
        "full": full,
        "turn_hours": game.turn_hours,
        "rated": game.rated,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "players": _players(game, seats),
        "result": _result(game),
        "moves": entries,
    }
    if initial is not None:
        record["initial"] = initial
    return record


def _result(game: Game) -> dict[str, Any] | None:
    result = game.result
    if not isinstance(result, dict):
        return None
    return {
        "termination": result.get("termination"),
        "winners": list(result.get("winners") or []),
        "scores": list(result.get("scores") or []),
        "adjustments": list(result.get("adjustments") or []),
    }


def as_text(record: dict[str, Any]) -> str:
    """The record in the notation of the rules: a header (players, dates, result), then one
    line per move: number, player, the pieces before it (finished games), the move, its score
    and the scores after it."""

    def when(value: Any) -> str:
        return value.strftime("%Y-%m-%d %H:%M UTC") if value else "-"

    players = record["players"]
    lines = [
        f"[Game \"{record['title']} #{record['id']}\"]",
        f"[Kind \"{record['kind']}\"]",
        *(f"[Seat{p['seat']} \"{p['name'] or '-'}\"{_user(p)}]" for p in players),
        f"[Started \"{when(record['started_at'])}\"]",
        f"[Finished \"{when(record['finished_at'])}\"]",
        f"[TurnHours \"{record['turn_hours']}\"]",
    ]
    result = record["result"]
    if result is not None:
        scores = " : ".join(str(s) for s in result["scores"])
        winners = ",".join(str(w) for w in result["winners"]) or "-"
        lines.append(f"[Result \"{result['termination']}; winners {winners}; {scores}\"]")
    else:
        lines.append(f"[Result \"{record['status']}\"]")
    lines.append("")
    for move in record["moves"]:
        parts = [f"{move['number']}.", f"{move['player'] or '-'}"]
        if "pieces_before" in move:
            parts.append(f"[{move['pieces_before']}]")
        parts.append(move["notation"])
        parts.append(f"{move['score']:+d}")
        if move["scores_after"] is not None:
            parts.append("(" + " : ".join(str(s) for s in move["scores_after"]) + ")")
        lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


def _user(player: dict[str, Any]) -> str:
    if player["username"]:
        return f" @{player['username']}"
    if player["level"]:
        return f" computer:{player['level']}"
    return ""
