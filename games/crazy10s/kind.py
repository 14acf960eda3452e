"""Crazy10s as a game kind: the adapter between its engine and the generic service
(``games.kinds.base.GameKind``). Registered in ``settings.GAME_KINDS``."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

from django.utils.html import format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.crazy10s import engine as c10s
from games.crazy10s import howto, levels, messages, serializers
from games.crazy10s.admin_board import render_board
from games.kinds.base import (
    DRAW,
    LOSS,
    WIN,
    BestMove,
    GameKind,
    GameOutcome,
    MoveRecord,
    PlayedMove,
    Preview,
    StateSummary,
    WebPage,
)

MOVE_KINDS = ("placement", "pass", "swap", "resign", "timeout")
# Moves made on the mover's own turn with a rack that could have been placed: each gets the
# best placement that rack had ("% of best"). A resignation may come on anyone's turn.
ANALYSED_MOVE_KINDS = ("placement", "pass", "swap", "timeout")


class Crazy10sKind(GameKind):
    name: ClassVar[str] = "crazy10s"
    title: ClassVar[Any] = _("Crazy10s")
    # Ratings count the final score margin, not only the win (social.glicko2.margin_score).
    rating_margin: ClassVar[bool] = True
    seats: ClassVar[range] = range(c10s.state.PLAYERS, c10s.state.PLAYERS + 1)
    levels: ClassVar[tuple[str, ...]] = tuple(c10s.LEVELS)
    move_kinds: ClassVar[tuple[str, ...]] = MOVE_KINDS
    terminations: ClassVar[tuple[str, ...]] = tuple(t.value for t in c10s.Termination)
    IllegalMove: ClassVar[type[Exception]] = c10s.IllegalMoveError
    options_input: ClassVar[type] = serializers.Crazy10sOptionsSerializer
    move_input: ClassVar[type] = serializers.Crazy10sMoveSerializer
    position_output: ClassVar[type] = serializers.Crazy10sPositionSerializer
    move_output: ClassVar[type] = serializers.Crazy10sOwnMoveSerializer
    history_output: ClassVar[type] = serializers.Crazy10sMoveFactsSerializer
    howto_output: ClassVar[type] = serializers.HowToPlayBonusSerializer
    preview_output: ClassVar[type] = serializers.PreviewLinesSerializer
    v1_view_output: ClassVar[type] = serializers.V1ViewSerializer
    summary_output: ClassVar[type] = serializers.SummarySerializer
    analysed_move_kinds: ClassVar[tuple[str, ...]] = ANALYSED_MOVE_KINDS
    web: ClassVar[WebPage] = WebPage(
        page="web/games/crazy10s.html",
        panel="web/games/crazy10s_panel.html",
        context="web.crazy10s.game_context",
        new_game_options="web/games/crazy10s_options.html",
    )

    # --- engine access -----------------------------------------------------------------------
    def options(self, **validated: Any) -> dict[str, Any]:
        return c10s.Options(layout=validated.get("layout", "classic")).to_dict()

    def new_state(self, *, seed: int, options: dict[str, Any], seats: int = 2) -> c10s.GameState:
        return c10s.new_game_from_seed(seed, c10s.Options.from_dict(options))

    def load(self, data: dict[str, Any]) -> c10s.GameState:
        return c10s.GameState.from_dict(data)

    def dump(self, state: c10s.GameState) -> dict[str, Any]:
        return state.to_dict()

    def summary(self, state: c10s.GameState) -> StateSummary:
        return StateSummary(
            move_number=state.move_number,
            to_move=state.current_player,
            scores=tuple(state.scores),
            private=tuple({"rack": _tiles(rack)} for rack in state.racks),
            piece_counts=tuple(len(rack) for rack in state.racks),
            outcome=_outcome(state.result),
        )

    def parse(self, data: dict[str, Any]) -> c10s.Move:
        """A move from its input: typed (place, pass, swap), its notation (``move``), or the
        first API's placed ``tiles``."""
        if "move" in data:
            return c10s.parse_move(data["move"])
        if data.get("type") == "pass":
            return c10s.parse_move("pass")
        if data.get("type") == "swap":
            return c10s.parse_move("swap " + " ".join(data["tiles"]))
        tiles = []
        for tile in data["tiles"]:
            col, row = c10s.board.parse_square(str(tile["square"]).strip().lower())
            tiles.append(
                c10s.PlacedTile(col, row, tile.get("digit"), wild=bool(tile.get("wild", False)))
            )
        return c10s.Placement(tuple(tiles))

    def parse_notation(self, notation: str) -> c10s.Move:
        return c10s.parse_move(notation)

    def play(self, state: c10s.GameState, move: Any, *, seat: int | None = None) -> PlayedMove:
        if isinstance(move, c10s.ScoredPlacement):
            result = c10s.apply_generated(state, move)
        else:
            result = c10s.apply_move(state, move)
        return PlayedMove(result.state, self.summary(result.state), _record(result))

    def resign(self, seat: int) -> c10s.Move:
        return c10s.Resign(seat)

    def timeout(self, seat: int) -> c10s.Move:
        return c10s.Pass(timeout=True)

    def computer_move(self, state: c10s.GameState, level: str, rng: random.Random) -> Any:
        return c10s.computer_move(state, level, rng)

    def preview(self, state: c10s.GameState, seat: int, move: Any) -> Preview:
        scored = c10s.validate_move(dataclasses.replace(state, current_player=seat), move)
        if scored is None:  # a pass or a swap: legal, scores nothing
            return Preview(0, {"lines": []})
        return Preview(scored.score, {"lines": scored.lines_dicts(state.board.size)})

    def replay_move(self, *, seat: int, kind: str, notation: str, is_timeout: bool) -> Any:
        if kind == "resign":
            return self.resign(seat)
        if kind == "timeout" or is_timeout:
            return self.timeout(seat)
        return self.parse_notation(notation)

    def pairing_key(self, options: dict[str, Any]) -> str:
        return str(options.get("layout", "classic"))

    def legal_placements(self, state: c10s.GameState) -> list[Any]:
        return c10s.legal_moves(state)

    def best_move(self, state: c10s.GameState, seat: int) -> BestMove | None:
        """The best placement ``seat`` had on its turn in ``state`` (None if it was not its
        turn); ties go to the smallest notation, so the answer is stable.

        The players' listing (``best_wilds``: each placement's wilds only at their best
        digits) has the same best score as the full one, whose every wild assignment runs to
        hundreds of thousands of placements with three wilds (p99 0.8 s, up to 1.9 s): no
        analysis a player waits for enumerates that."""
        if state.current_player != seat:
            return None
        best: tuple[int, str] | None = None
        for placement in c10s.legal_moves(state, best_wilds=True):
            if best is not None and placement.score < best[0]:
                continue
            notation = c10s.format_move(placement.move)
            if best is None or placement.score > best[0] or notation < best[1]:
                best = (placement.score, notation)
        return BestMove(*best) if best is not None else BestMove(0, "")

    # --- what players see ----------------------------------------------------------------------
    def position(self, state: c10s.GameState, seat: int, *, over: bool = False) -> dict[str, Any]:
        view = c10s.view_for(state, seat)
        return {
            "layout": state.options.layout,
            "board": view["board"],
            "bonus_squares": view["bonus_squares"],
            "rack": view["rack"],
            "bag_size": view["bag_size"],
            "scoreless_turns": view["scoreless_turns"],
            # The engine shows the racks once its game is over; an abort or an award ends the
            # service's game without the engine, and the racks stay private then.
            "final_racks": [_tiles(r) for r in state.racks] if "final_racks" in view else None,
        }

    watchable = True

    def spectator_position(self, state: c10s.GameState, *, over: bool) -> dict[str, Any]:
        view = c10s.view_for(state, 0)  # then every seat's rack is left out
        return {
            "layout": state.options.layout,
            "board": view["board"],
            "bonus_squares": view["bonus_squares"],
            "bag_size": view["bag_size"],
            "scoreless_turns": view["scoreless_turns"],
            "rack_sizes": [len(rack) for rack in state.racks],
            "final_racks": None,  # after the end the racks are open to the players only
        }

    def legacy_view(self, position: dict[str, Any], *, seat: int, other: int) -> dict[str, Any]:
        finals = position["final_racks"]
        return {
            "layout": position["layout"],
            "board": position["board"],
            "bonus_squares": position["bonus_squares"],
            "rack": position["rack"],
            "bag_size": position["bag_size"],
            "scoreless_turns": position["scoreless_turns"],
            "final_racks": (
                {"you": finals[seat], "opponent": finals[other]} if finals is not None else None
            ),
        }

    def summary_fields(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"layout": options.get("layout", "classic")}

    def error_message(self, code: str, details: dict[str, Any]) -> str:
        return messages.message_for(code, details)

    def how_to_play(self, game_state: dict[str, Any] | None) -> dict[str, Any]:
        squares: list[dict[str, str]] = []
        if game_state:
            pairs = c10s.parse_layout(game_state["layout"]).bonus_squares()
            squares = [{"square": name, "kind": kind} for name, kind in pairs]
        return howto.how_to_play(bonus_squares=squares)

    def describe_move(self, *, kind: str, notation: str, is_timeout: bool, mine: bool) -> str:
        if kind == "timeout" or (kind == "pass" and is_timeout):
            return gettext("ran out of time")
        if kind == "pass":
            return gettext("passed")
        if kind == "swap" and mine:
            return gettext("swapped tiles %(tiles)s") % {"tiles": notation.removeprefix("swap ")}
        if kind == "swap":  # another player's swap shows only how many tiles
            count = int(notation.removeprefix("swap ") or 0)
            return ngettext("swapped %(n)s tile", "swapped %(n)s tiles", count) % {"n": count}
        return super().describe_move(
            kind=kind, notation=notation, is_timeout=is_timeout, mine=mine
        )

    def timeout_consequence(self) -> str:
        return gettext("the turn is played as a pass")

    def computer_name(self, level: str) -> str:
        return levels.display_name(level)

    def computer_description(self, level: str) -> str:
        return levels.description(level)

    # --- staff -----------------------------------------------------------------------------------
    def admin_position_html(self, game_state: dict[str, Any]) -> str:
        state = self.load(game_state)
        bag = c10s.format_rack(list(state.bag))
        return render_board(state.board) + format_html_join(
            "", "<div>bag (draw order): {}</div>",
            [(f"{len(state.bag)} tiles: {bag}" if state.bag else "empty",)],
        )

    def admin_private_text(self, private: dict[str, Any]) -> str:
        return " ".join(private.get("rack", [])) or "(empty)"


def _tiles(rack: Any) -> list[str]:
    return [c10s.format_rack([t]) for t in rack]


def _outcome(result: c10s.Outcome | None) -> GameOutcome | None:
    if result is None:
        return None
    winners = () if result.winner is None else (result.winner,)
    seats = range(len(result.scores))
    return GameOutcome(
        termination=result.termination.value,
        winners=winners,
        scores=tuple(result.scores),
        adjustments=tuple(result.adjustments),
        results=tuple(DRAW if not winners else (WIN if s in winners else LOSS) for s in seats),
    )


def _record(result: c10s.MoveResult) -> MoveRecord:
    """Kind, notation (full and public), score, lines and drawn tiles of a played move."""
    move = result.move
    notation = c10s.format_move(move)
    public = notation
    lines: list[dict[str, Any]] = []
    if isinstance(move, c10s.Placement):
        kind = "placement"
        lines = result.placement.lines_dicts(result.state.board.size) if result.placement else []
    elif isinstance(move, c10s.Swap):
        kind = "swap"
        public = f"swap {len(move.tiles)}"
    elif isinstance(move, c10s.Resign):
        kind = "resign"
    elif isinstance(move, c10s.Pass) and move.timeout:
        kind = "timeout"
    else:
        kind = "pass"
    drawn = _tiles(result.drawn)
    return MoveRecord(
        seat=result.player,
        kind=kind,
        notation=notation,
        public_notation=public,
        score=result.score,
        public={"lines": lines, "drawn": len(drawn)},
        private={result.player: {"drawn": drawn}},
        is_timeout=kind == "timeout",
    )
