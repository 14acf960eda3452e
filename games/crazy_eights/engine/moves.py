"""Move types and their notation (docs/rules.md, "Crazy Eights notation").

``7H``, ``5C 5D 5S`` (cards in the order laid), ``8S/H``, ``8C 8D/S`` (the last 8 names the
suit), ``draw``, ``take``, ``pass``, ``resign``. Cards are ints (see ``cards``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARD_NAMES, SUITS, parse_card, parse_suit
from .errors import IllegalMoveError


@dataclass(frozen=True, slots=True)
class Play:
    cards: tuple[int, ...]  # in the order laid: the first must match, the last sets the suit
    suit: int | None = None  # the suit named by a last 8


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card from the stock."""


@dataclass(frozen=True, slots=True)
class Take:
    """Accept the pending draw-two penalty: draw all of it; the turn ends."""


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn after drawing (or with nothing to draw)."""


@dataclass(frozen=True, slots=True)
class Resign:
    seat: int | None = None  # None: the seat to act; any seat may resign at any time


Move = Play | Draw | Take | Pass | Resign

_WORDS: dict[str, Move] = {"draw": Draw(), "take": Take(), "pass": Pass(), "resign": Resign()}


def parse_move(text: str) -> Move:
    tokens = text.split()
    if not tokens:
        raise IllegalMoveError("bad_notation", "The move is empty.")
    if len(tokens) == 1 and tokens[0].lower() in _WORDS:
        return _WORDS[tokens[0].lower()]
    cards: list[int] = []
    suit = None
    for i, token in enumerate(tokens):
        if "/" in token:
            if i != len(tokens) - 1:
                raise IllegalMoveError(
                    "bad_notation",
                    "Only the last card of a play names a suit, e.g. 8C 8D/S.",
                    {"token": token},
                )
            token, _, suit_text = token.partition("/")
            suit = parse_suit(suit_text)
        cards.append(parse_card(token))
    return Play(tuple(cards), suit)


def format_move(move: Move) -> str:
    if isinstance(move, Play):
        text = " ".join(CARD_NAMES[c] for c in move.cards)
        return text if move.suit is None else f"{text}/{SUITS[move.suit]}"
    if isinstance(move, Draw):
        return "draw"
    if isinstance(move, Take):
        return "take"
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Resign):
        return "resign"
    raise TypeError(f"not a move: {move!r}")


def canonical(move: Play) -> Play:
    """The same play with its middle cards in ascending order: only the first card (it must
    match) and the last (it sets the suit) matter, so equal plays compare equal."""
    cards = move.cards
    if len(cards) <= 3:
        return move
    middle = tuple(sorted(cards[1:-1]))
    if middle == cards[1:-1]:
        return move
    return Play((cards[0], *middle, cards[-1]), move.suit)
