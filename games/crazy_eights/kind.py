"""Crazy Eights as a game kind: the adapter between its engine and the generic service
(``games.kinds.base.GameKind``). Registered in ``settings.GAME_KINDS``.

The stored state (``dump``) is the engine state plus the public records still read (the
opening deal's record, then every move's ``MoveResult.public_dict()``, cut by ``_still_read``
to the current round and back to every seat's latest move): a regular decides from its seat's
view and those records, never from the engine state, so they must travel with the state for
``computer_move`` to work without reading the move table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.crazy_eights import engine as c8
from games.crazy_eights import howto, levels, messages, serializers
from games.crazy_eights.admin_board import render_position
from games.crazy_eights.engine.coach import coach_notes
from games.crazy_eights.engine.hints import hint, simple_hint
from games.crazy_eights.engine.knowledge import opening_record
from games.crazy_eights.engine.players import decide
from games.kinds.base import (
    LOSS,
    WIN,
    EmptyOutput,
    GameKind,
    GameOutcome,
    Hint,
    MoveRecord,
    PlayedMove,
    Preview,
    StateSummary,
    TableSupport,
    WebPage,
)

MOVE_KINDS = ("play", "draw", "take", "pass", "resign", "timeout")
# The regular that plays a seat whose turn timed out (tables with a turn clock): it sheds
# expensive cards and keeps its 8s, a fair stand-in for an absent player.
TIMEOUT_REGULAR = "cautious"


@dataclass(frozen=True)
class MatchState:
    """What ``load`` returns: the engine state and the public records still read (oldest
    first; ``_still_read``)."""

    engine: c8.GameState
    history: tuple[dict[str, Any], ...]


def _still_read(history: tuple[dict[str, Any], ...], seats: int) -> tuple[dict[str, Any], ...]:
    """The records anything still reads: from the current round's opening on (a regular's and
    a hint's knowledge reads that round only) and from the oldest of the seats' latest records
    on (the coach reads back to the asking seat's previous move), whichever starts earlier.

    The stored state is read, parsed, written and sent to PostgreSQL on every move: with the
    whole match kept, a move late in a long match carried ~25 KB of earlier rounds' records
    (issue 28: bench/api.py --kind crazy_eights, 9.9 ms of CPU per move before, 7.1-7.8 ms
    after). Every move stays in the ``Move`` rows (history, replays, exports). Until every
    seat has a record, nothing is dropped."""
    opening: int | None = None
    latest: dict[int, int] = {}
    for index in range(len(history) - 1, -1, -1):
        record = history[index]
        seat = record.get("seat")
        if seat is not None and seat not in latest:
            latest[seat] = index
        if opening is None and any(
            event.get("kind") == "round_started" for event in record.get("events", ())
        ):
            opening = index
        if opening is not None and len(latest) == seats:
            return history[min(opening, *latest.values()):]
    return history


@dataclass(frozen=True)
class TimeoutMove:
    """The seat's time ran out: the timeout regular plays its turn's next move."""

    seat: int


class CrazyEightsKind(GameKind):
    name: ClassVar[str] = "crazy_eights"
    title: ClassVar[Any] = _("Crazy Eights")
    computer_players: ClassVar[Any] = _("The regulars")
    seats: ClassVar[range] = range(2, 5)
    levels: ClassVar[tuple[str, ...]] = levels.LEVELS
    move_kinds: ClassVar[tuple[str, ...]] = MOVE_KINDS
    terminations: ClassVar[tuple[str, ...]] = tuple(t.value for t in c8.Termination)
    IllegalMove: ClassVar[type[Exception]] = c8.IllegalMoveError
    options_input: ClassVar[type] = serializers.CrazyEightsOptionsSerializer
    move_input: ClassVar[type] = serializers.CrazyEightsMoveSerializer
    position_output: ClassVar[type] = serializers.CrazyEightsPositionSerializer
    move_output: ClassVar[type] = serializers.CrazyEightsOwnMoveSerializer
    history_output: ClassVar[type] = serializers.CrazyEightsMoveFactsSerializer
    preview_output: ClassVar[type] = EmptyOutput  # a legality check: no move scores by itself
    # A match against computers only waits for its one person: no deadline, no timeout.
    solo_turn_clock: ClassVar[bool] = False
    schema_enums: ClassVar[dict[str, tuple[Any, ...]]] = {
        "CrazyEightsTargetEnum": c8.options.TARGETS,
        "CrazyEightsTableTargetEnum": serializers.TABLE_TARGETS,
        "CrazyEightsDirectionEnum": (1, -1),
        "CrazyEightsRoundEndEnum": ("out", "blocked"),
    }
    offers_hints: ClassVar[bool] = True
    coaches: ClassVar[bool] = True
    table: ClassVar[TableSupport | None] = TableSupport(
        serializers.CrazyEightsTableOptionsSerializer
    )
    web: ClassVar[WebPage] = WebPage(
        page="web/games/crazy_eights.html",
        panel="web/games/crazy_eights_panel.html",
        context="web.crazy_eights.game_context",
        new_game_options="web/games/crazy_eights_options.html",
        table_options="web/games/crazy_eights_table_options.html",
    )

    # --- engine access -----------------------------------------------------------------------
    def options(self, **validated: Any) -> dict[str, Any]:
        """Engine options without the player count (that is the game's ``seat_count``)."""
        rules = validated.get("rules") or {}
        options = c8.Options(
            players=2,
            actions=rules.get("actions", True),
            several=rules.get("several", True),
            target=rules.get("target"),
            classic=rules.get("classic", False),
        ).to_dict()
        del options["players"]
        return options

    def new_state(self, *, seed: int, options: dict[str, Any], seats: int = 2) -> MatchState:
        opts = c8.Options.from_dict({**options, "players": seats})
        engine = c8.new_match(seed=seed, options=opts)
        return MatchState(engine, (opening_record(engine),))

    def load(self, data: dict[str, Any]) -> MatchState:
        return MatchState(c8.GameState.from_dict(data["engine"]), tuple(data["history"]))

    def dump(self, state: MatchState) -> dict[str, Any]:
        return {"engine": state.engine.to_dict(), "history": list(state.history)}

    def summary(self, state: MatchState) -> StateSummary:
        engine = state.engine
        return StateSummary(
            move_number=engine.move_number,
            to_move=engine.turn,
            scores=tuple(engine.scores),
            private=tuple({"hand": _cards(hand)} for hand in engine.hands),
            piece_counts=tuple(len(hand) for hand in engine.hands),
            outcome=_outcome(engine.result),
        )

    def parse(self, data: dict[str, Any]) -> c8.Move:
        """A move from its input: typed (play, draw, take, pass) or its notation."""
        if "move" in data:
            return c8.parse_move(data["move"])
        if data["type"] != "play":
            return c8.parse_move(data["type"])
        suit = data.get("suit")
        return c8.parse_move(" ".join(data["cards"]) + (f"/{suit}" if suit else ""))

    def parse_notation(self, notation: str) -> c8.Move:
        return c8.parse_move(notation)

    def play(self, state: MatchState, move: Any, *, seat: int | None = None) -> PlayedMove:
        timeout = isinstance(move, TimeoutMove)
        if timeout:
            rng = random.Random(f"timeout:{state.engine.seed}:{state.engine.move_number}")
            move = self._decide(state, TIMEOUT_REGULAR, rng)
            seat = None
        result = c8.apply_move(state.engine, move, seat)
        public = result.public_dict()
        history = _still_read((*state.history, public), result.state.options.players)
        after = MatchState(result.state, history)
        return PlayedMove(after, self.summary(after), _record(result, public, timeout=timeout))

    def table_engine_options(self, chosen: dict[str, Any]) -> dict[str, Any]:
        return self.options(rules={**chosen.get("rules", {}), "target": chosen["target"]})

    def describe_table_options(self, chosen: dict[str, Any]) -> list[str]:
        rules = {"actions": True, "several": True, "classic": False, **chosen.get("rules", {})}
        lines = [gettext("The match ends at %(n)s points.") % {"n": chosen["target"]}]
        if rules["classic"]:
            lines.append(gettext("Classic rules: no action cards, whoever goes out scores."))
        elif rules["actions"]:
            lines.append(gettext("Action cards: 2 is Draw 2, Queen is Skip, Ace is Reverse."))
        else:
            lines.append(gettext("No action cards."))
        lines.append(
            gettext("Several cards of one rank may be played at once.") if rules["several"]
            else gettext("One card per turn.")
        )
        return lines

    def resign(self, seat: int) -> c8.Move:
        return c8.Resign(seat)

    def timeout(self, seat: int) -> TimeoutMove:
        return TimeoutMove(seat)

    def computer_move(self, state: MatchState, level: str, rng: random.Random) -> c8.Move:
        return self._decide(state, level, rng)

    def computer_fallback(self, state: MatchState) -> c8.Move | None:
        """The first legal move: the simplest policy, which cannot fail."""
        moves = c8.legal_moves(state.engine)
        return moves[0] if moves else None

    def _decide(self, state: MatchState, level: str, rng: random.Random) -> c8.Move:
        seat = state.engine.turn
        assert seat is not None
        return decide(level, c8.view_for(state.engine, seat), state.history, rng)

    def replay_move(self, *, seat: int, kind: str, notation: str, is_timeout: bool) -> Any:
        # A timed-out turn is stored as the move the timeout regular played.
        if kind == "resign":
            return self.resign(seat)
        return c8.parse_move(notation)

    # --- what players see ----------------------------------------------------------------------
    def position(self, state: MatchState, seat: int, *, over: bool = False) -> dict[str, Any]:
        engine = state.engine
        view = c8.view_for(engine, seat)
        last = engine.last_round
        return {
            "rules": {
                key: view["options"][key] for key in ("actions", "several", "classic", "target")
            },
            "goal": view["goal"],
            "round": view["round"],
            "dealer": view["dealer"],
            "hand": view["hand"],
            "drawn": view["drawn"],
            "top": view["top"],
            "suit": view["suit"],
            "penalty": view["penalty"],
            "draws_this_turn": view["draws"],
            "direction": view["direction"],
            "stock_size": view["stock_size"],
            "discard_size": view["discard_size"],
            "last_stock": view["last_stock"],
            "players": [
                {"seat": i, "card_count": n, "score": engine.scores[i]}
                for i, n in enumerate(view["hand_sizes"])
            ],
            # The hands of the round that just ended are public (the next one is dealt at once).
            "revealed_hands": last.to_dict() if last is not None else None,
            "ranking": list(engine.result.ranking) if engine.result else None,
        }

    watchable = True

    def spectator_position(self, state: MatchState, *, over: bool) -> dict[str, Any]:
        """The public part of a seat's position: no hand, no drawn card."""
        seen = self.position(state, 0, over=over)
        return {k: v for k, v in seen.items() if k not in ("hand", "drawn")}

    def error_message(self, code: str, details: dict[str, Any]) -> str:
        return messages.error_message(code, details)

    def preview(self, state: MatchState, seat: int, move: Any) -> Preview:
        """A move is checked as if it were ``seat``'s turn; it scores nothing by itself."""
        c8.validate_move(replace(state.engine, turn=seat), move, seat)
        return Preview(0)

    def how_to_play(self, game_state: dict[str, Any] | None) -> dict[str, Any]:
        return howto.how_to_play()

    def timeout_consequence(self) -> str:
        return gettext("the computer plays that turn for you")

    def computer_name(self, level: str) -> str:
        return levels.level_name(level)

    def computer_description(self, level: str) -> str:
        return levels.description(level)

    # --- help for a person ------------------------------------------------------------------------
    def hint(self, state: MatchState, seat: int | None) -> Hint:
        """The strong regular's move for ``seat`` and why, in the active language."""
        return _hint(hint(c8.view_for(state.engine, seat), state.history))

    def hint_fallback(self, state: MatchState, seat: int | None) -> Hint | None:
        return _hint(simple_hint(c8.view_for(state.engine, seat)))

    def coach(self, state: MatchState, seat: int) -> list[dict[str, str]]:
        """Notes on the card effects in the moves since ``seat``'s previous move (all moves so
        far before its first), each effect once, in the active language."""
        records = state.history
        since = 0
        for i in range(len(records) - 1, -1, -1):
            if records[i].get("seat") == seat:
                since = i + 1
                break
        notes: list[dict[str, str]] = []
        seen: set[str] = set()
        for record in records[since:]:
            for note in coach_notes(record, seen):
                seen.add(note["code"])
                notes.append(
                    {
                        "code": note["code"],
                        "message": messages.coach_message(note["code"], note["params"]),
                    }
                )
        return notes

    # --- staff -----------------------------------------------------------------------------------
    def admin_position_html(self, game_state: dict[str, Any]) -> str:
        return render_position(self.load(game_state).engine)

    def admin_private_text(self, private: dict[str, Any]) -> str:
        return " ".join(private.get("hand", [])) or "(empty)"


def _hint(found: dict[str, Any]) -> Hint:
    reason = found["reason"]
    return Hint(
        found["move"], reason["code"], messages.hint_message(reason["code"], reason["params"])
    )


def _cards(cards: Any) -> list[str]:
    return [c8.format_card(c) for c in cards]


def _outcome(result: c8.Outcome | None) -> GameOutcome | None:
    if result is None:
        return None
    seats = range(len(result.scores))
    return GameOutcome(
        termination=result.termination.value,
        winners=tuple(result.winners),
        scores=tuple(result.scores),
        adjustments=tuple(0 for _ in seats),
        results=tuple(WIN if s in result.winners else LOSS for s in seats),
    )


_KINDS = {c8.Play: "play", c8.Draw: "draw", c8.Take: "take", c8.Pass: "pass", c8.Resign: "resign"}


def _record(result: c8.MoveResult, public: dict[str, Any], *, timeout: bool) -> MoveRecord:
    """A move's record: its public events for everyone, the cards it drew for the drawer."""
    notation = c8.format_move(result.move)
    points = 0
    for event in result.events:
        if isinstance(event, c8.RoundOver):
            points = event.points[result.seat]
    private = {}
    if result.private is not None:
        private = {result.seat: {"cards": _cards(result.private.cards)}}
    return MoveRecord(
        seat=result.seat,
        kind="timeout" if timeout else _KINDS[type(result.move)],
        notation=notation,
        public_notation=notation,  # a draw's notation names no card
        score=points,
        public=public,
        private=private,
        is_timeout=timeout,
    )
