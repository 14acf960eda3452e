"""What a move did, as small frozen events.

``MoveResult.events`` are public: everyone at the table may see them (a draw says that a card was
drawn, never which). ``MoveResult.private`` (``CardsReceived``) is for the drawing seat only.
``to_dict`` gives JSON-ready dicts with cards and suits in notation, tagged by ``kind``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import CARD_NAMES, SUITS

_CARD_FIELDS = frozenset({"cards", "returned"})


def _jsonable(name: str, value: Any) -> Any:
    if name in _CARD_FIELDS:
        return [CARD_NAMES[c] for c in value]
    if name == "starter":
        return CARD_NAMES[value]
    if name == "suit":
        return SUITS[value]
    if name == "hands":
        return [[CARD_NAMES[c] for c in hand] for hand in value]
    if isinstance(value, tuple):
        return list(value)
    return value


class Event:
    __slots__ = ()
    kind: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            data[f.name] = _jsonable(f.name, getattr(self, f.name))
        return data


@dataclass(frozen=True, slots=True)
class CardsPlayed(Event):
    kind: ClassVar[str] = "cards_played"
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SuitNamed(Event):
    kind: ClassVar[str] = "suit_named"
    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class PenaltyRaised(Event):
    """Draw-two cards were played: the penalty grew by ``added`` to ``total``."""

    kind: ClassVar[str] = "penalty_raised"
    seat: int
    added: int
    total: int


@dataclass(frozen=True, slots=True)
class SeatsSkipped(Event):
    kind: ClassVar[str] = "seats_skipped"
    seat: int
    skipped: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DirectionReversed(Event):
    kind: ClassVar[str] = "direction_reversed"
    seat: int
    times: int
    direction: int  # the direction now: 1 clockwise, -1 counter-clockwise


@dataclass(frozen=True, slots=True)
class ExtraTurn(Event):
    """With two players a Queen or an Ace gives the same player another turn."""

    kind: ClassVar[str] = "extra_turn"
    seat: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    kind: ClassVar[str] = "card_drawn"
    seat: int


@dataclass(frozen=True, slots=True)
class PenaltyTaken(Event):
    """``drawn`` is less than ``size`` only when the stock ran out and could not be rebuilt."""

    kind: ClassVar[str] = "penalty_taken"
    seat: int
    size: int
    drawn: int


@dataclass(frozen=True, slots=True)
class StockRebuilt(Event):
    kind: ClassVar[str] = "stock_rebuilt"
    size: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    """``reason``: "out" (``winner`` played their last card) or "blocked". ``points`` are what
    each seat's total changed by; ``hands`` are every hand, revealed."""

    kind: ClassVar[str] = "round_over"
    round: int
    reason: str
    winner: int | None
    hands: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """``returned``: starter cards (8, 2, Queen, Ace) put back into the stock before ``starter``."""

    kind: ClassVar[str] = "round_started"
    round: int
    dealer: int
    starter: int
    returned: tuple[int, ...]
    hand_size: int


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    kind: ClassVar[str] = "resigned"
    seat: int


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    kind: ClassVar[str] = "match_over"
    termination: str
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """Private: the cards a draw or a taken penalty put into ``seat``'s hand."""

    kind: ClassVar[str] = "cards_received"
    seat: int
    cards: tuple[int, ...]
