"""The boundary between the generic game service and one game kind.

Generic code (models, services, selectors, tasks, notifications, admin, API, live events, the
web client) reaches a kind only through ``GameKind`` (registered in ``games.kinds``): it asks
the kind, never ``hasattr``/``getattr``. Every optional capability has a typed default here,
so a new kind implements the required members and overrides only what it offers.

Engine states and moves are opaque to generic code (``Any``): it stores ``dump(state)`` as the
game's JSON, hands parsed moves back to the kind, and reads what it needs from the frozen
dataclasses below. The kind's serializers (DRF) render the kind-specific part of every output
inside the generic envelopes of ``games.api.serializers``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from django.utils.translation import gettext_lazy
from rest_framework import serializers

if TYPE_CHECKING:  # django-stubs' helper types (a dev dependency: never imported at run time)
    from django_stubs_ext import StrOrPromise

# Per-seat result values stored on ``Seat.result`` (the database column is a plain string).
WIN, LOSS, DRAW, NONE = "win", "loss", "draw", "none"


@dataclass(frozen=True)
class MoveRecord:
    """One played move as the service stores it (``Move`` row) and reports it.

    ``public`` is kind-neutral JSON every player may see (Crazy10s: the scored ``lines`` and
    the ``drawn`` count; Crazy Eights: its public events); the kind's ``history_output``
    renders it. ``private`` maps a seat to what only that seat may learn from the move (the
    tiles or cards it drew); it never reaches anyone else.
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
    """A tentative move checked without playing it: its score and the kind's public facts
    (rendered by the kind's ``preview_output``)."""

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


@dataclass(frozen=True)
class Hint:
    """A suggested move for a seat and why (``move`` None: nothing to suggest now)."""

    move: str | None
    reason_code: str
    reason: str  # in the active language


@dataclass(frozen=True)
class WebPage:
    """How the web client shows a kind (template names are looked up by Django's loaders, so a
    kind's package that is an installed app may ship its own).

    ``page``/``panel``: the game page and its live part (re-rendered after every event); the
    defaults show players, scores and the move list, and let a person resign. ``context``: the
    dotted path of ``f(request, view, history) -> dict`` that adds the kind's template context.
    ``new_game_options``: a template fragment with the kind's option fields on the new-game
    form (named ``options.<field>``, the names of ``options_input``), ``None`` for a kind
    without options; ``table_options`` the same for a table's host (``table.options_input``).
    """

    page: str = "web/games/generic.html"
    panel: str = "web/games/generic_panel.html"
    context: str | None = None
    new_game_options: str | None = None
    table_options: str | None = None


@dataclass(frozen=True)
class TableSupport:
    """A kind whose games friends gather for at a table (``games.tables``): a short turn clock,
    the computer takes an absent person's seat."""

    # What the host chooses (validated by the kind).
    options_input: type[serializers.Serializer[Any]]


class Refusal(Protocol):
    """What an engine's ``IllegalMove`` carries for generic code (the engines cannot import
    this module, so their exception classes match it without naming it)."""

    code: str
    details: dict[str, Any]


class EmptyOutput(serializers.Serializer[Any]):
    """A kind-specific part with no fields of its own."""


class GameKind(ABC):
    """One game kind. Methods that take ``state`` get what ``load`` returned.

    Required: the class attributes without a default and the abstract methods. Everything
    else is an optional capability whose default says "this kind does not offer it".
    """

    # --- required -------------------------------------------------------------------------------
    name: ClassVar[str]  # the value of ``Game.kind``
    title: ClassVar[StrOrPromise]  # the game's name for players (a lazy translation)
    # What the computer players are called as a group on the new-game form (lazy translation).
    computer_players: ClassVar[StrOrPromise] = gettext_lazy("The computer")
    seats: ClassVar[range]  # how many seats a game may have (Crazy10s: range(2, 3))
    levels: ClassVar[tuple[str, ...]]  # computer levels (Crazy Eights: its regulars)
    move_kinds: ClassVar[tuple[str, ...]]  # values of ``Move.kind`` this kind writes
    terminations: ClassVar[tuple[str, ...]]  # values of ``Game.result["termination"]``
    # The engine's refusal: an exception that is also a ``Refusal`` (``code``, ``details``).
    IllegalMove: ClassVar[type[Exception]]
    # DRF serializers of the kind's part of each input and output.
    options_input: ClassVar[type[serializers.Serializer[Any]]]  # the ``options`` of a new game
    move_input: ClassVar[type[serializers.Serializer[Any]]]  # a move's body (``parse`` reads it)
    position_output: ClassVar[type[serializers.Serializer[Any]]]  # ``position`` of the game view
    # A played move's own fields for the mover (beside ``score`` and ``game``): rendered from
    # ``{**record.public, **record.private[mover]}``.
    move_output: ClassVar[type[serializers.Serializer[Any]]] = EmptyOutput

    # --- optional outputs -----------------------------------------------------------------------
    # A history entry's and a live move event's own fields, rendered from ``Move.public``.
    history_output: ClassVar[type[serializers.Serializer[Any]]] = EmptyOutput
    # How-to-play's own fields beside title and sections, rendered from ``how_to_play()``.
    howto_output: ClassVar[type[serializers.Serializer[Any]]] = EmptyOutput
    # A preview's own fields beside legal/score/error; None: the kind offers no preview.
    preview_output: ClassVar[type[serializers.Serializer[Any]] | None] = None
    # A list entry's own fields, rendered from ``summary_fields(options)``.
    summary_output: ClassVar[type[serializers.Serializer[Any]]] = EmptyOutput
    # The first API's top-level fields of a game view (``legacy_view``), for the kind whose
    # clients read them; None for a kind without them.
    v1_view_output: ClassVar[type[serializers.Serializer[Any]] | None] = None

    # --- optional capabilities ------------------------------------------------------------------
    # False: a game of one person against computers waits for that person (no deadline).
    solo_turn_clock: ClassVar[bool] = True
    # True: ratings count the final score margin, not only the win (social.glicko2).
    rating_margin: ClassVar[bool] = False
    # ``Move.kind`` values that get a best move ("% of best", ``best_move``).
    analysed_move_kinds: ClassVar[tuple[str, ...]] = ()
    # Hints (``hint``) for a person's turn.
    offers_hints: ClassVar[bool] = False
    # Notes on what just happened during a person's first game of the kind (``coach``).
    coaches: ClassVar[bool] = False
    # Tables with friends (None: the kind's games are not dealt at tables).
    table: ClassVar[TableSupport | None] = None
    web: ClassVar[WebPage] = WebPage()
    # Names for the schema's enums of the kind's own choice fields that several components
    # share ({"CrazyEightsTargetEnum": (100, 150, 200)}): without a name drf-spectacular
    # falls back to a hashed one.
    schema_enums: ClassVar[dict[str, tuple[Any, ...]]] = {}

    # --- engine access --------------------------------------------------------------------------
    @abstractmethod
    def options(self, **validated: Any) -> dict[str, Any]:
        """Engine options (JSON) from ``options_input``'s validated data."""

    @abstractmethod
    def new_state(self, *, seed: int, options: dict[str, Any], seats: int) -> Any: ...

    @abstractmethod
    def load(self, data: dict[str, Any]) -> Any: ...

    @abstractmethod
    def dump(self, state: Any) -> dict[str, Any]: ...

    @abstractmethod
    def summary(self, state: Any) -> StateSummary: ...

    @abstractmethod
    def parse(self, data: dict[str, Any]) -> Any:
        """An engine move from ``move_input``'s validated data (raises ``IllegalMove``)."""

    @abstractmethod
    def parse_notation(self, notation: str) -> Any:
        """An engine move from its notation (raises ``IllegalMove``)."""

    @abstractmethod
    def play(self, state: Any, move: Any, *, seat: int | None = None) -> PlayedMove:
        """Apply ``move`` (raises ``IllegalMove``); ``seat`` for moves made out of turn."""

    @abstractmethod
    def resign(self, seat: int) -> Any: ...

    @abstractmethod
    def timeout(self, seat: int) -> Any:
        """The move played for a seat whose turn's time ran out."""

    @abstractmethod
    def computer_move(self, state: Any, level: str, rng: random.Random) -> Any: ...

    def computer_fallback(self, state: Any) -> Any | None:
        """The simplest legal move for the seat to act, played when ``computer_move`` fails
        (the service logs the failure); None: this kind has none and the failure stands."""
        return None

    def replay_move(self, *, seat: int, kind: str, notation: str, is_timeout: bool) -> Any:
        """The engine move a stored ``Move`` row stands for (verification replays them)."""
        if kind == "resign":
            return self.resign(seat)
        if kind == "timeout" and not notation:
            return self.timeout(seat)
        return self.parse_notation(notation)

    def pairing_key(self, options: dict[str, Any]) -> str:
        """Random pairing pairs only requests whose games would be the same: by default,
        the same engine options."""
        return json.dumps(options, sort_keys=True, separators=(",", ":"))

    def table_engine_options(self, chosen: dict[str, Any]) -> dict[str, Any]:
        """Engine options of a table's game from what its host chose (``table.options_input``'s
        validated data); kinds with ``table``."""
        return self.options(**chosen)

    def describe_table_options(self, chosen: dict[str, Any]) -> list[str]:
        """A table's options in words (the active language), one line each, for its lobby."""
        return []

    # --- what players see -----------------------------------------------------------------------
    @abstractmethod
    def position(self, state: Any, seat: int, *, over: bool) -> dict[str, Any]:
        """The kind-specific ``position`` of ``seat``'s view (``position_output`` renders it)."""

    def legacy_view(self, position: dict[str, Any], *, seat: int, other: int) -> dict[str, Any]:
        """The top-level fields of a two-seat game's view that ``v1_view_output`` renders."""
        return {}

    def summary_fields(self, options: dict[str, Any]) -> dict[str, Any]:
        """A list entry's own fields (``summary_output``) from the game's engine options."""
        return {}

    @abstractmethod
    def error_message(self, code: str, details: dict[str, Any]) -> str:
        """An engine refusal in the active language."""

    def how_to_play(self, game_state: dict[str, Any] | None) -> dict[str, Any]:
        """``{"title", "sections": [{"heading", "text"}], ...howto_output's fields}`` in the
        active language."""
        return {"title": str(self.title), "sections": []}

    def describe_move(self, *, kind: str, notation: str, is_timeout: bool, mine: bool) -> str:
        """A move of the history in words for the web page (the active language); the
        notation is what the viewer may see of it (``mine``: the viewer's own move)."""
        if kind == "resign":
            return str(gettext_lazy("resigned"))
        if is_timeout:
            return str(gettext_lazy("ran out of time"))
        return notation

    def timeout_consequence(self) -> str:
        """What happens when a turn's time runs out, as the end of a sentence ("… then …")."""
        return str(gettext_lazy("the turn is played for you"))

    def computer_levels(self) -> list[ComputerLevel]:
        return [
            ComputerLevel(level, self.computer_name(level), self.computer_description(level))
            for level in self.levels
        ]

    def computer_name(self, level: str) -> str:
        """How a computer seat is named to players, e.g. "Computer (Expert)"."""
        return level

    def computer_description(self, level: str) -> str:
        return ""

    # --- help for a person ------------------------------------------------------------------------
    def hint(self, state: Any, seat: int | None) -> Hint:
        """A suggested move for ``seat`` (None: not that seat's turn); kinds with
        ``offers_hints``."""
        raise NotImplementedError(f"{self.name} offers no hints")

    def hint_fallback(self, state: Any, seat: int | None) -> Hint | None:
        """The hint given when ``hint`` fails (the service logs the failure): the simplest
        legal move, with its reason; None: the failure stands."""
        return None

    def coach(self, state: Any, seat: int) -> list[dict[str, str]]:
        """Notes for a person's first game of the kind (``{"code", "message"}``)."""
        return []

    def preview(self, state: Any, seat: int, move: Any) -> Preview:
        """Check ``move`` as if it were ``seat``'s turn (raises ``IllegalMove``); kinds with a
        ``preview_output``."""
        raise NotImplementedError(f"{self.name} offers no preview")

    def best_move(self, state: Any, seat: int) -> BestMove | None:
        """The best move ``seat`` had in ``state`` (the position before its move), from its own
        pieces only; kinds with ``analysed_move_kinds``."""
        return None

    # --- spectators ------------------------------------------------------------------------------
    # A kind that offers ``spectator_position`` can be watched (games.correspondence.spectating).
    watchable: bool = False

    def spectator_position(self, state: Any, *, over: bool) -> dict[str, Any]:
        """What anyone watching may see of the position: no seat's rack or hand, nothing of
        the bag or stock order (kinds with ``watchable``)."""
        raise NotImplementedError(f"{self.name} cannot be watched")

    # --- staff -----------------------------------------------------------------------------------
    @abstractmethod
    def admin_position_html(self, game_state: dict[str, Any]) -> str:
        """The whole position (every hidden piece included) as HTML for staff pages."""

    def admin_private_text(self, private: dict[str, Any]) -> str:
        """A seat's staff mirror (``Seat.private``) as short text."""
        return json.dumps(private, sort_keys=True) if private else "(empty)"
