"""Game kinds and their engines: services talk to an adapter, never to an engine directly.

Only Crazy10s exists today; a second game (Crazy Eights) adds another adapter with the same
methods and an entry in ``KINDS``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games.crazy10s import engine as c10s

LAYOUTS = ("classic", "random")


class Crazy10sAdapter:
    kind = "crazy10s"
    levels: tuple[str, ...] = tuple(c10s.LEVELS)
    IllegalMove = c10s.IllegalMoveError

    # --- state ---------------------------------------------------------------------------
    def options(self, *, layout: str) -> dict[str, Any]:
        return c10s.Options(layout=layout).to_dict()

    def new_state(self, *, seed: int, options: dict[str, Any]) -> c10s.GameState:
        return c10s.new_game_from_seed(seed, c10s.Options.from_dict(options))

    def load(self, data: dict[str, Any]) -> c10s.GameState:
        return c10s.GameState.from_dict(data)

    def dump(self, state: c10s.GameState) -> dict[str, Any]:
        return state.to_dict()

    def racks(self, state: c10s.GameState) -> list[list[str]]:
        return [[c10s.format_rack([t]) for t in rack] for rack in state.racks]

    # --- moves ---------------------------------------------------------------------------
    def parse(self, move: str | list[dict[str, Any]]) -> c10s.Move:
        """A move from its notation or from a structured list of placed tiles."""
        if isinstance(move, str):
            return c10s.parse_move(move)
        tiles = []
        for tile in move:
            col, row = c10s.board.parse_square(str(tile["square"]).strip().lower())
            tiles.append(
                c10s.PlacedTile(col, row, tile.get("digit"), wild=bool(tile.get("wild", False)))
            )
        return c10s.Placement(tuple(tiles))

    def apply(self, state: c10s.GameState, move: Any) -> c10s.MoveResult:
        if isinstance(move, c10s.ScoredPlacement):
            return c10s.apply_generated(state, move)
        return c10s.apply_move(state, move)

    def resign(self, seat: int) -> c10s.Move:
        return c10s.Resign(seat)

    def timeout(self) -> c10s.Move:
        return c10s.Pass(timeout=True)

    def preview(
        self, state: c10s.GameState, seat: int, move: c10s.Move
    ) -> c10s.ScoredPlacement | None:
        """Check ``move`` as if it were ``seat``'s turn now (raises IllegalMove)."""
        return c10s.validate_move(dataclasses.replace(state, current_player=seat), move)

    def computer_move(self, state: c10s.GameState, level: str, rng: random.Random) -> Any:
        return c10s.computer_move(state, level, rng)

    # --- describing a played move ---------------------------------------------------------
    def describe(self, result: c10s.MoveResult) -> dict[str, Any]:
        """Kind, notation (full and public), score, lines and drawn tiles of a played move."""
        move = result.move
        size = result.state.board.size
        notation = c10s.format_move(move)
        public = notation
        lines: list[dict[str, Any]] = []
        if isinstance(move, c10s.Placement):
            kind = "placement"
            lines = result.placement.lines_dicts(size) if result.placement else []
        elif isinstance(move, c10s.Swap):
            kind = "swap"
            public = f"swap {len(move.tiles)}"
        elif isinstance(move, c10s.Resign):
            kind = "resign"
        elif isinstance(move, c10s.Pass) and move.timeout:
            kind = "timeout"
        else:
            kind = "pass"
        return {
            "kind": kind,
            "notation": notation,
            "public_notation": public,
            "score": result.score,
            "lines": lines,
            "drawn": [c10s.format_rack([t]) for t in result.drawn],
        }

    def bonus_squares(self, data: dict[str, Any]) -> list[dict[str, str]]:
        """The game's bonus squares, read from the stored layout alone (no full state load)."""
        squares = c10s.parse_layout(data["layout"]).bonus_squares()
        return [{"square": name, "kind": kind} for name, kind in squares]

    def view(self, state: c10s.GameState, seat: int) -> dict[str, Any]:
        return c10s.view_for(state, seat)

    def legal_placements(self, state: c10s.GameState) -> list[Any]:
        return c10s.legal_moves(state)


KINDS: dict[str, Crazy10sAdapter] = {"crazy10s": Crazy10sAdapter()}


COMPUTER_LEVELS = KINDS["crazy10s"].levels


def get(kind: str) -> Crazy10sAdapter:
    return KINDS[kind]
