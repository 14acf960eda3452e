"""Hints: a move for a seat that follows the game's strategy text, with the reason as a message
code.

``hint(view, history)`` suggests a move from what the seat may know (as a regular decides) and
explains it with ``{"code": ..., "params": {...}}``; the service translates the code. Hints are
unlimited and deterministic: the same view and history give the same hint.

The strategy text (how to play better, from the rules seed) gives the advice a hint keeps to:

- keep your 8s for the turn where nothing else fits, or the one that empties your hand; but when
  another player is down to one card, lay your 8 (caught in your hand it costs 50);
- when the card you draw fits, lay it;
- with an 8, name the suit you hold most of;
- keep a 2 as a shield: answer a draw-two with it.

``text_moves`` keeps the legal moves that follow that advice; the strong regular's search
chooses among them. One departure is deliberate, and its reason says so: a drawn 2 that is the
only 2 in hand may be kept as a shield (the text's own shield advice, against "lay a drawn card
that fits"). Every reason only says what the position shows.
"""

from __future__ import annotations

import random
from collections import Counter
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
from .players import strong_player

HINT_CODES = frozenset(
    {
        "hint_wait",  # not this seat's turn (or the match is over)
        "hint_go_out",  # these cards empty the hand: the round ends
        "hint_answer_two",  # answer the draw-two with a 2: the penalty passes on, bigger
        "hint_take_penalty",  # no 2 to answer with: take it
        "hint_draw",  # nothing matches the suit or the rank, and no 8: draw
        "hint_pass",  # the drawn cards do not fit: pass
        "hint_pass_no_stock",  # nothing fits and no card is left to draw: pass
        "hint_keep_drawn",  # the drawn card fits but is kept (only the simplest policy's)
        "hint_keep_shield",  # a drawn 2 kept as a shield: departs from "lay a drawn card"
        "hint_play_drawn",  # play the card just drawn
        "hint_play_eight_last",  # the 8 is the only card that fits: play it, name a suit
        "hint_play_eight",  # an 8 now, naming the suit
        "hint_eight_danger",  # another player holds one card: lay the 8 before it costs 50
        "hint_attack",  # a Queen, 2 or Ace against the seat about to go out
        "hint_shed_several",  # several cards of one rank at once
        "hint_shed",  # the most expensive card that fits
        "hint_follow_suit",  # leaves the suit the hand holds most of on the pile
        "hint_play",  # a card that fits, chosen by the search
    }
)

TWOS_IN_DECK = 4


def _reason(code: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "params": params}


def _names(cards: Sequence[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _fits(k: Knowledge, c: int) -> bool:
    if k.penalty:
        return RANK[c] == TWO
    return RANK[c] == EIGHT or SUIT[c] == k.suit or RANK[c] == RANK[k.top]


def _suit_counts(cards: Sequence[int]) -> Counter[int]:
    return Counter(SUIT[c] for c in cards if RANK[c] != EIGHT)


def _most_held(cards: Sequence[int]) -> set[int]:
    """The suits ``cards`` hold most of (8s aside); empty when they hold none."""
    counts = _suit_counts(cards)
    if not counts:
        return set()
    top = max(counts.values())
    return {s for s, n in counts.items() if n == top}


def _left(k: Knowledge, play: Play) -> list[int]:
    return [c for c in k.hand if c not in play.cards]


def _someone_on_one_card(k: Knowledge) -> int | None:
    """A player (the soonest to act) who holds a single card."""
    for step in range(1, k.players):
        seat = k.next_seat(k.seat, step)
        if k.hand_sizes[seat] == 1:
            return seat
    return None


def _shield_kept(k: Knowledge) -> bool:
    """A drawn 2 the text would keep as a shield: action cards on, it is the only 2 in hand,
    and not every other 2 is already on the pile (then it is played for its effect)."""
    drawn = k.drawn
    if drawn is None or not k.options.actions or RANK[drawn] != TWO:
        return False
    if sum(1 for c in k.hand if RANK[c] == TWO) > 1:
        return False
    return sum(1 for c in k.played if RANK[c] == TWO) < TWOS_IN_DECK - 1


def text_moves(k: Knowledge, moves: list[Move]) -> list[Move]:
    """The legal moves that follow the strategy text (never empty when ``moves`` is not)."""
    plays = [m for m in moves if isinstance(m, Play)]
    if k.penalty:
        answers: list[Move] = list(plays)
        return answers or moves  # answer a draw-two with a 2 when you hold one
    if k.draws:
        if not plays:
            return moves
        keep = [m for m in moves if isinstance(m, Pass)] if _shield_kept(k) else []
        return [*_named_well(k, plays), *keep]  # a drawn card that fits is laid
    eights = [p for p in plays if RANK[p.cards[0]] == EIGHT]
    plain: list[Move] = [p for p in plays if RANK[p.cards[0]] != EIGHT]
    if eights and (not plain or _someone_on_one_card(k) is not None):
        return _named_well(k, eights)
    return plain or moves


def _named_well(k: Knowledge, plays: list[Play]) -> list[Move]:
    """Plays of 8s keep to naming the suit the hand left holds most of."""
    kept: list[Move] = []
    for p in plays:
        if RANK[p.cards[-1]] == EIGHT:
            best = _most_held(_left(k, p))
            if best and p.suit not in best:
                continue
        kept.append(p)
    return kept or list(plays)


def explain(k: Knowledge, move: Move) -> dict[str, Any]:
    """Why ``move`` suits the position ``k`` (a code and its parameters); every claim in the
    reason holds in the position."""
    if isinstance(move, Take):
        return _reason("hint_take_penalty", penalty=k.penalty)
    if isinstance(move, Draw):
        return _reason("hint_draw", suit=SUITS[k.suit], top=CARD_NAMES[k.top])
    if isinstance(move, Pass):
        if k.drawn is not None and _fits(k, k.drawn):
            if _shield_kept(k):
                return _reason("hint_keep_shield", card=CARD_NAMES[k.drawn])
            return _reason("hint_keep_drawn", card=CARD_NAMES[k.drawn])
        if k.drawn is None:
            return _reason("hint_pass_no_stock")
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
    fitting = [c for c in k.hand if _fits(k, c) and RANK[c] != EIGHT]
    if rank == EIGHT:
        assert move.suit is not None
        card, suit = CARD_NAMES[cards[-1]], SUITS[move.suit]
        if not fitting:
            return _reason("hint_play_eight_last", card=card, suit=suit)
        danger = _someone_on_one_card(k)
        if danger is not None:
            return _reason("hint_eight_danger", card=card, suit=suit, seat=danger)
        return _reason("hint_play_eight", card=card, suit=suit)
    nxt = k.next_seat(k.seat)
    if k.options.actions and rank in (QUEEN, TWO, ACE) and k.hand_sizes[nxt] <= 3:
        return _reason(
            "hint_attack", cards=_names(cards), seat=nxt, cards_left=k.hand_sizes[nxt]
        )
    if len(cards) > 1:
        return _reason("hint_shed_several", cards=_names(cards), points=points)
    if points >= max(values[c] for c in fitting):
        return _reason("hint_shed", cards=_names(cards), points=points)
    left_suit = SUIT[cards[-1]]
    if left_suit in _most_held(_left(k, move)):
        return _reason("hint_follow_suit", cards=_names(cards), suit=SUITS[left_suit])
    return _reason("hint_play", cards=_names(cards))


# The search behind hints: the strong regular, kept to the moves the strategy text advises.
_SEARCH = strong_player(allowed=text_moves)


def hint(view: Mapping[str, Any], history: Sequence[Record] = ()) -> dict[str, Any]:
    """``{"move": notation or None, "reason": {"code", "params"}}`` for the seat of ``view``."""
    if not view.get("your_turn") or view.get("match_over"):
        return {"move": None, "reason": _reason("hint_wait")}
    k = knowledge(view, history)
    # Seeded from the position itself: asking again gives the same hint.
    rng = random.Random(f"hint:{k.round}:{k.move_number}:{k.seat}")
    move = _SEARCH(k, rng)
    return {"move": format_move(move), "reason": explain(k, move)}


def simple_hint(view: Mapping[str, Any]) -> dict[str, Any]:
    """The first legal move that follows the strategy text, and its reason, without search:
    what the service answers when ``hint`` fails (it needs nothing but the seat's own cards
    and the table)."""
    if not view.get("your_turn") or view.get("match_over"):
        return {"move": None, "reason": _reason("hint_wait")}
    k = knowledge(view)
    move = text_moves(k, legal_moves_for_view(view))[0]
    return {"move": format_move(move), "reason": explain(k, move)}
