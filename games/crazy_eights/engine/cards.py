"""Cards, hands and the deck.

A card is an ``int`` 0–51: ``(rank - 2) * 4 + suit`` with ranks 2–14 (J=11, Q=12, K=13, A=14)
and suits 0–3 (C, D, H, S). Small ints keep hands and the stock cheap to copy, compare and hash,
which matters for self-play and search; the lookup tables below replace arithmetic in hot loops.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import IllegalMoveError

SUITS = "CDHS"
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
EIGHT, TWO, JACK, QUEEN, KING, ACE = 8, 2, 11, 12, 13, 14
DECK_SIZE = 52

FULL_DECK: tuple[int, ...] = tuple(range(DECK_SIZE))
RANK: tuple[int, ...] = tuple(c // 4 + 2 for c in FULL_DECK)
SUIT: tuple[int, ...] = tuple(c % 4 for c in FULL_DECK)


def card(rank: int, suit: int) -> int:
    return (rank - 2) * 4 + suit


def _rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


CARD_NAMES: tuple[str, ...] = tuple(_rank_name(RANK[c]) + SUITS[SUIT[c]] for c in FULL_DECK)
_BY_NAME: dict[str, int] = {name: c for c, name in enumerate(CARD_NAMES)}


def format_card(c: int) -> str:
    return CARD_NAMES[c]


def format_suit(suit: int) -> str:
    return SUITS[suit]


def parse_suit(text: str) -> int:
    index = SUITS.find(text.upper()) if len(text) == 1 else -1
    if index < 0:
        raise IllegalMoveError("bad_notation", f"'{text}' is not a suit (C, D, H or S).")
    return index


def parse_card(text: str) -> int:
    c = _BY_NAME.get(text.strip().upper())
    if c is None:
        raise IllegalMoveError(
            "bad_notation", f"'{text}' is not a card such as 7H, 10S, QD or AC.", {"card": text}
        )
    return c


def parse_hand(text: str) -> tuple[int, ...]:
    """A hand in notation (``"7H 8S QD"``) as a sorted tuple of cards."""
    return tuple(sorted(parse_card(t) for t in text.split()))


def format_hand(cards: Iterable[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


# docs/rules.md, default scoring: 8 = 50, 2/Queen/Ace = 20, Jack/King = 10, other cards face value.
DEFAULT_VALUE: tuple[int, ...] = tuple(
    50 if r == EIGHT else 20 if r in (TWO, QUEEN, ACE) else 10 if r in (JACK, KING) else r
    for r in RANK
)
# Classic: 8 = 50, J/Q/K = 10, A = 1, others face value.
CLASSIC_VALUE: tuple[int, ...] = tuple(
    50 if r == EIGHT else 10 if r in (JACK, QUEEN, KING) else 1 if r == ACE else r for r in RANK
)


def hand_value(cards: Iterable[int], classic: bool = False) -> int:
    values = CLASSIC_VALUE if classic else DEFAULT_VALUE
    return sum(values[c] for c in cards)
