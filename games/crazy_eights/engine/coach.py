"""The coach: a note the first time each card effect comes into play in a player's first match.

``coach_notes(result, seen)`` reads one move's public record (a ``MoveResult`` or its
``public_dict()``) and returns a note ``{"code", "params"}`` for every effect in it whose code is
not in ``seen``; the caller keeps the codes it has shown (``seen |= {n["code"] for n in notes}``)
so each note fires once. The service translates the codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from .play import MoveResult

COACH_CODES: tuple[str, ...] = (
    "coach_eight",  # an 8 was played on anything and named the suit to follow
    "coach_draw_two",  # a 2: the next player answers with a 2 or draws the penalty
    "coach_stacked_twos",  # 2s stacked: the penalty grows by two for each
    "coach_skip",  # a Queen skips the next player (two Queens skip two)
    "coach_skip_round",  # as many Queens as players: the layer's own next turn is skipped too
    "coach_reverse",  # an Ace reverses the direction of play
    "coach_two_players",  # with two players a Queen or an Ace gives another turn
    "coach_penalty_taken",  # a player took the penalty: drew it all and lost the turn
    "coach_stock_rebuilt",  # the empty stock was rebuilt from the discards
    "coach_round_scored",  # how the round just ended was scored
)


def _notes(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    events = record.get("events", [])
    two_players = any(e["kind"] == "extra_turn" for e in events)
    notes: list[dict[str, Any]] = []
    for e in events:
        kind = e["kind"]
        if kind == "suit_named":
            notes.append({"code": "coach_eight", "params": {"seat": e["seat"], "suit": e["suit"]}})
        elif kind == "penalty_raised":
            params = {"seat": e["seat"], "added": e["added"], "total": e["total"]}
            notes.append({"code": "coach_draw_two", "params": params})
            if e["total"] > 2:
                notes.append({"code": "coach_stacked_twos", "params": params})
        elif kind in ("seats_skipped", "direction_reversed") and two_players:
            card = "Q" if kind == "seats_skipped" else "A"
            notes.append({"code": "coach_two_players", "params": {"seat": e["seat"], "card": card}})
        elif kind == "seats_skipped":
            params = {"seat": e["seat"], "skipped": e["skipped"]}
            # Four Queens at four seats skip the three others and then the layer's own next
            # turn: said in words, not as "skipping their own seat".
            code = "coach_skip_round" if e["seat"] in e["skipped"] else "coach_skip"
            notes.append({"code": code, "params": params})
        elif kind == "direction_reversed":
            params = {"seat": e["seat"], "times": e["times"], "direction": e["direction"]}
            notes.append({"code": "coach_reverse", "params": params})
        elif kind == "penalty_taken":
            notes.append(
                {"code": "coach_penalty_taken", "params": {"seat": e["seat"], "size": e["size"]}}
            )
        elif kind == "stock_rebuilt":
            notes.append({"code": "coach_stock_rebuilt", "params": {"size": e["size"]}})
        elif kind == "round_over":
            params = {
                "round": e["round"],
                "reason": e["reason"],
                "winner": e["winner"],
                "points": e["points"],
                "scores": e["scores"],
            }
            notes.append({"code": "coach_round_scored", "params": params})
    return notes


def coach_notes(
    result: MoveResult | Mapping[str, Any], seen: Set[str] = frozenset()
) -> list[dict[str, Any]]:
    """The notes for one move whose codes are not in ``seen`` (each code at most once)."""
    record = result.public_dict() if isinstance(result, MoveResult) else result
    fresh: list[dict[str, Any]] = []
    shown = set(seen)
    for note in _notes(record):
        if note["code"] not in shown:
            shown.add(note["code"])
            fresh.append(note)
    return fresh
