"""The boundary between the generic game service and one game kind.

Generic code (models, services, selectors, tasks, notifications, admin, API, moderation) reaches
a kind only through ``GameKind`` (registered in ``games.kinds``); everything a kind knows about
its rules, notation, texts and staff pages stays in its own package (``games/<kind>/``).

Engine states and moves are opaque to generic code (``Any``): it stores ``dump(state)`` as the
game's JSON, hands parsed moves back to the kind, and reads what it needs from the frozen
dataclasses below.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

# Per-seat result values stored on ``Seat.result`` (the database column is a plain string).
WIN, LOSS, DRAW, NONE = "win", "loss", "draw", "none"


@dataclass(frozen=True)
class MoveRecord:
    """One played move as the service stores it (``Move`` row) and reports it.

    ``public`` is kind-neutral JSON every player may see (Crazy10s: the scored ``lines`` and
    the ``drawn`` count; Crazy Eights: its public events). ``private`` maps a seat to what
    only that seat may learn from the move (the tiles or cards it drew); it never reaches
    anyone else.
    """

    seat: int
    kind: str
    notation: str  # full notation: may name private tiles/cards (a swap's tiles)
    public_notation: str  # what the other seats see
    score: int
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[int, dict[str, Any]] = field(default_factory=dict)
    is_timeout: bool = False


@dataclass(frozen=True)
class GameOutcome:
    """How a finished game ended, for every seat (2–4 seats)."""

    termination: str
    winners: tuple[int, ...]  # empty: a draw (or nobody won)
    scores: tuple[int, ...]
    adjustments: tuple[int, ...]
    results: tuple[str, ...]  # per seat: WIN, LOSS, DRAW or NONE

    def to_json(self) -> dict[str, Any]:
        """``Game.result``: N-seat lists; ``winner`` keeps its two-seat meaning (one seat or
        None) for the v1 API and older readers."""
        return {
            "termination": self.termination,
            "winner": self.winners[0] if len(self.winners) == 1 else None,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "adjustments": list(self.adjustments),
        }


@dataclass(frozen=True)
class StateSummary:
    """What generic code reads from an engine state: no hidden information leaves through it
    except ``private`` (the per-seat staff mirror, ``Seat.private``)."""

    move_number: int
    to_move: int | None  # seat index, None once the game is over
    scores: tuple[int, ...]
    private: tuple[dict[str, Any], ...]  # per seat, staff only (Crazy10s: {"rack": [...]})
    piece_counts: tuple[int, ...]  # per seat: tiles on the rack / cards in hand
    outcome: GameOutcome | None = None


@dataclass(frozen=True)
class PlayedMove:
    """What ``GameKind.play`` answers: the new engine state, its summary and the move record."""

    state: Any
    summary: StateSummary
    record: MoveRecord


@dataclass(frozen=True)
class Preview:
    """A tentative move checked without playing it (kinds that offer previews)."""

    score: int
    public: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BestMove:
    """The best a seat could have scored in a position (kinds that analyse moves):
    ``notation`` is that move's full notation, "" when nothing could be played for points."""

    score: int
    notation: str


@dataclass(frozen=True)
class ComputerLevel:
    level: str
    name: str  # in the active language
    description: str  # in the active language


@runtime_checkable
class GameKind(Protocol):
    """One game kind. Methods that take ``state`` get what ``load`` returned."""

    name: ClassVar[str]  # the value of ``Game.kind``
    seats: ClassVar[range]  # how many seats a game may have (Crazy10s: range(2, 3))
    levels: ClassVar[tuple[str, ...]]  # computer levels (Crazy Eights: its regulars)
    move_kinds: ClassVar[tuple[str, ...]]  # values of ``Move.kind`` this kind writes
    terminations: ClassVar[tuple[str, ...]]  # values of ``Game.result["termination"]``
    IllegalMove: ClassVar[type[Exception]]  # the engine's refusal (``code``, ``details``)
    # DRF serializer classes (``rest_framework.serializers.Serializer`` subclasses).
    options_input: ClassVar[type]  # options of a new game (``options(**validated)``)
    move_input: ClassVar[type]  # a move as the API receives it (``move_value()``)
    position_output: ClassVar[type]  # the ``position`` of the game view
    # Serializers of the v1 top-level fields ({} for a kind without them).
    v1_serializers: ClassVar[dict[str, type]]

    # --- engine access -----------------------------------------------------------------------
    def options(self, **validated: Any) -> dict[str, Any]:
        """Engine options (JSON) from ``options_input``'s validated data."""

    def new_state(self, *, seed: int, options: dict[str, Any], seats: int) -> Any: ...
    def load(self, data: dict[str, Any]) -> Any: ...
    def dump(self, state: Any) -> dict[str, Any]: ...
    def summary(self, state: Any) -> StateSummary: ...
    def parse(self, move: Any) -> Any:
        """An engine move from the API's move value (raises ``IllegalMove``)."""

    def play(self, state: Any, move: Any, *, seat: int | None = None) -> PlayedMove:
        """Apply ``move`` (raises ``IllegalMove``); ``seat`` for moves made out of turn."""

    def resign(self, seat: int) -> Any: ...
    def timeout(self, seat: int) -> Any: ...
    def computer_move(self, state: Any, level: str, rng: random.Random) -> Any: ...
    def preview(self, state: Any, seat: int, move: Any) -> Preview | None:
        """Check ``move`` as if it were ``seat``'s turn (raises ``IllegalMove``)."""

    def replay_move(self, *, seat: int, kind: str, notation: str, is_timeout: bool) -> Any:
        """The engine move a stored ``Move`` row stands for (verification replays them)."""

    # --- what players see ----------------------------------------------------------------------
    def position(self, state: Any, seat: int, *, over: bool) -> dict[str, Any]:
        """The kind-specific ``position`` of ``seat``'s view (``position_output`` renders it)."""

    def legacy_view(self, position: dict[str, Any], *, seat: int, other: int) -> dict[str, Any]:
        """Top-level fields of a two-seat game's v1 view kept for older clients ({} for none)."""

    def error_message(self, code: str, details: dict[str, Any]) -> str:
        """An engine refusal in the active language."""

    def how_to_play(self, game_state: dict[str, Any] | None) -> dict[str, Any]: ...
    def computer_levels(self) -> list[ComputerLevel]: ...
    def computer_name(self, level: str) -> str:
        """How a computer seat is named to players, e.g. "Computer (Expert)"."""

    def computer_description(self, level: str) -> str: ...

    # Optional (Crazy10s): move analysis, "% of best" (games.services.analysis). A kind that
    # analyses moves sets ``analysed_move_kinds`` (the ``Move.kind`` values that get a best
    # move) and implements ``best_move(state, seat) -> BestMove | None``: the best move
    # ``seat`` had in ``state`` (the position before its move), from its own pieces only.

    # --- staff -----------------------------------------------------------------------------------
    def admin_position_html(self, game_state: dict[str, Any]) -> str:
        """The whole position (every hidden piece included) as HTML for staff pages."""

    def admin_private_text(self, private: dict[str, Any]) -> str:
        """A seat's staff mirror (``Seat.private``) as short text."""
