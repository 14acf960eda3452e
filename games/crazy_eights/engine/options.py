"""Match options (house rules) of a Crazy Eights match, validated on construction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidOptionsError

MIN_PLAYERS, MAX_PLAYERS = 2, 4
TARGETS = (100, 150, 200)  # fixed targets; None means 50 points per seat
CLASSIC_TARGET = 100
POINTS_PER_SEAT = 50
HAND_SIZE = 7
CLASSIC_HAND_SIZE_MANY = 5  # classic rules deal 5 each to three or four players


@dataclass(frozen=True, slots=True)
class Options:
    """``classic`` plays the game as usually described: no action cards (whatever ``actions``
    says: it is stored as False so equal matches compare equal), 7 cards for two players and 5
    for three or four, the goer-out scores, first to 100. ``several`` (several cards of one rank
    at once) stays the host's choice in both modes."""

    players: int = 2
    actions: bool = True
    several: bool = True
    target: int | None = None
    classic: bool = False

    def __post_init__(self) -> None:
        for name in ("actions", "several", "classic"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionsError(name, f"'{name}' must be true or false.")
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not (
            MIN_PLAYERS <= self.players <= MAX_PLAYERS
        ):
            raise InvalidOptionsError(
                "players", f"A match has {MIN_PLAYERS} to {MAX_PLAYERS} players."
            )
        if self.target is not None and (
            isinstance(self.target, bool) or self.target not in TARGETS
        ):
            raise InvalidOptionsError(
                "target", "The target is 100, 150 or 200 points, or empty for 50 per seat."
            )
        if self.classic and self.actions:
            object.__setattr__(self, "actions", False)

    @property
    def goal(self) -> int:
        """The score that ends the match (classic: first to reach it wins)."""
        if self.target is not None:
            return self.target
        return CLASSIC_TARGET if self.classic else POINTS_PER_SEAT * self.players

    @property
    def hand_size(self) -> int:
        if self.classic and self.players > 2:
            return CLASSIC_HAND_SIZE_MANY
        return HAND_SIZE

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "actions": self.actions,
            "several": self.several,
            "target": self.target,
            "classic": self.classic,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        unknown = set(data) - {"players", "actions", "several", "target", "classic"}
        if unknown:
            name = sorted(unknown)[0]
            raise InvalidOptionsError(name, f"Unknown option '{name}'.")
        return cls(**data)
