"""Hints: the strong regular's move for a seat, with the reason as a message code.

``hint(view, history)`` suggests a move from what the seat may know (as a regular decides) and
explains it with ``{"code": ..., "params": {...}}``; the service translates the code. Hints are
unlimited and deterministic: the same view and history give the same hint.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import (
    ACE,
    CARD_NAMES,
    CLASSIC_VALUE,
    DEFAULT_VALUE,
    EIGHT,
    QUEEN,
    RANK,
    SUIT,
    SUITS,
    TWO,
)
from .knowledge import Knowledge, Record, knowledge, legal_moves_for_view
from .moves import Draw, Move, Pass, Play, Take, format_move
from .players import REGULARS

HINT_CODES = frozenset(
    {
        "hint_wait",  # not this seat's turn (or the match is over)
        "hint_go_out",  # these cards empty the hand: the round ends
        "hint_answer_two",  # answer the draw-two with a 2: the penalty passes on, bigger
        "hint_take_penalty",  # no 2 to answer with (or keeping it is worth more): take it
        "hint_draw",  # nothing matches the suit or the rank, and no 8: draw
        "hint_pass",  # the drawn cards do not fit (or the stock is empty): pass
        "hint_keep_drawn",  # the drawn card fits but is worth keeping: pass
        "hint_play_drawn",  # play the card just drawn
        "hint_play_eight_last",  # the 8 is the only card that fits: play it, name a suit
        "hint_play_eight",  # an 8 now, naming the suit
        "hint_attack",  # a Queen, 2 or Ace against the seat about to go out
        "hint_shed_several",  # several cards of one rank at once
        "hint_shed",  # the most expensive card that fits
    }
)


def _reason(code: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "params": params}


def _names(cards: Sequence[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def explain(k: Knowledge, move: Move) -> dict[str, Any]:
    """Why ``move`` suits the position ``k`` (a code and its parameters)."""
    if isinstance(move, Take):
        return _reason("hint_take_penalty", penalty=k.penalty)
    if isinstance(move, Draw):
        return _reason("hint_draw", suit=SUITS[k.suit], top=CARD_NAMES[k.top])
    if isinstance(move, Pass):
        if k.drawn is not None and _fits(k, k.drawn):
            return _reason("hint_keep_drawn", card=CARD_NAMES[k.drawn])
        return _reason("hint_pass")
    assert isinstance(move, Play)
    cards = move.cards
    values = CLASSIC_VALUE if k.options.classic else DEFAULT_VALUE
    points = sum(values[c] for c in cards)
    rank = RANK[cards[0]]
    if len(cards) == len(k.hand):
        return _reason("hint_go_out", cards=_names(cards))
    if k.penalty:
        return _reason("hint_answer_two", penalty=k.penalty, total=k.penalty + 2 * len(cards))
    if k.draws:
        return _reason("hint_play_drawn", card=CARD_NAMES[cards[0]])
    if rank == EIGHT:
        assert move.suit is not None
        only = all(RANK[c] == EIGHT for c in k.hand if _fits(k, c))
        code = "hint_play_eight_last" if only else "hint_play_eight"
        return _reason(code, card=CARD_NAMES[cards[-1]], suit=SUITS[move.suit])
    nxt = k.next_seat(k.seat)
    if k.options.actions and rank in (QUEEN, TWO, ACE) and k.hand_sizes[nxt] <= 3:
        return _reason(
            "hint_attack", cards=_names(cards), seat=nxt, cards_left=k.hand_sizes[nxt]
        )
    if len(cards) > 1:
        return _reason("hint_shed_several", cards=_names(cards), points=points)
    return _reason("hint_shed", cards=_names(cards), points=points)


def _fits(k: Knowledge, c: int) -> bool:
    return RANK[c] == EIGHT or SUIT[c] == k.suit or RANK[c] == RANK[k.top]


def hint(view: Mapping[str, Any], history: Sequence[Record] = ()) -> dict[str, Any]:
    """``{"move": notation or None, "reason": {"code", "params"}}`` for the seat of ``view``."""
    if not view.get("your_turn") or view.get("match_over"):
        return {"move": None, "reason": _reason("hint_wait")}
    k = knowledge(view, history)
    # Seeded from the position itself: asking again gives the same hint.
    rng = random.Random(f"hint:{k.round}:{k.move_number}:{k.seat}")
    move = REGULARS["strong"](k, rng)
    return {"move": format_move(move), "reason": explain(k, move)}


def simple_hint(view: Mapping[str, Any]) -> dict[str, Any]:
    """The first legal move and its reason, without search: what the service answers when
    ``hint`` fails (it cannot: it needs nothing but the seat's own cards and the table)."""
    if not view.get("your_turn") or view.get("match_over"):
        return {"move": None, "reason": _reason("hint_wait")}
    k = knowledge(view)
    move = legal_moves_for_view(view)[0]
    return {"move": format_move(move), "reason": explain(k, move)}
