"""Game state, the turn sequence and the end of the game.

A game is fully determined by its seed and its move list: the bag is shuffled from the seed and
every swap reshuffles it from (seed, move number), so ``apply_move`` needs no RNG argument and
``replay`` reproduces any stored state exactly.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field, replace
from typing import Any

from .board import (
    EMPTY,
    GAME_SIZE,
    Board,
    Layout,
    classic_layout,
    format_layout,
    parse_layout,
    random_layout,
)
from .errors import IllegalMoveError
from .moves import Move, Pass, Placement, Resign, Swap, format_move, parse_move
from .rules import ScoredPlacement, apply_placement_to_board, check_placement
from .tiles import FULL_BAG, RACK_SIZE, WILD, rack_value, remove_tiles, sort_rack

PLAYERS = 2
SCORELESS_TURNS_TO_END = 6


class Termination(enum.Enum):
    RACK_EMPTIED = "rack_emptied"  # a player emptied their rack with the bag empty
    SCORELESS_TURNS = "scoreless_turns"  # six consecutive turns scored nothing
    RESIGNATION = "resignation"


@dataclass(frozen=True, slots=True)
class Outcome:
    termination: Termination
    winner: int | None  # None for a draw
    scores: tuple[int, int]
    adjustments: tuple[int, int]  # end-of-game rack adjustments already included in scores

    def to_dict(self) -> dict[str, Any]:
        return {
            "termination": self.termination.value,
            "winner": self.winner,
            "scores": list(self.scores),
            "adjustments": list(self.adjustments),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            Termination(data["termination"]),
            data["winner"],
            tuple(data["scores"]),
            tuple(data["adjustments"]),
        )


@dataclass(frozen=True, slots=True)
class Options:
    size: int = GAME_SIZE
    layout: str = "classic"  # "classic" or "random"
    seven_tile_bonus: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "layout": self.layout, "seven_tile_bonus": self.seven_tile_bonus}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        return cls(**data)


@dataclass(frozen=True, slots=True)
class GameState:
    options: Options
    # Hidden information stays out of repr(): tracebacks, debug pages and error reporters
    # print object reprs, and a player may see those.
    seed: int = field(repr=False)
    board: Board
    racks: tuple[tuple[int, ...], tuple[int, ...]] = field(repr=False)
    bag: tuple[int, ...] = field(repr=False)  # draw order: tiles are drawn from the front
    scores: tuple[int, int]
    current_player: int | None  # None once the game is over
    first_player: int
    move_number: int = 0  # moves played so far
    scoreless_turns: int = 0
    result: Outcome | None = None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "options": self.options.to_dict(),
            "seed": self.seed,
            "layout": format_layout(self.board.layout),
            "cells": list(self.board.cells),
            "wilds": sorted(self.board.wilds),
            "racks": [list(r) for r in self.racks],
            "bag": list(self.bag),
            "scores": list(self.scores),
            "current_player": self.current_player,
            "first_player": self.first_player,
            "move_number": self.move_number,
            "scoreless_turns": self.scoreless_turns,
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        board = Board(
            parse_layout(data["layout"]), tuple(data["cells"]), frozenset(data["wilds"])
        )
        return cls(
            options=Options.from_dict(data["options"]),
            seed=data["seed"],
            board=board,
            racks=tuple(tuple(r) for r in data["racks"]),  # type: ignore[arg-type]
            bag=tuple(data["bag"]),
            scores=tuple(data["scores"]),
            current_player=data["current_player"],
            first_player=data["first_player"],
            move_number=data["move_number"],
            scoreless_turns=data["scoreless_turns"],
            result=Outcome.from_dict(data["result"]) if data["result"] else None,
        )


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What ``apply_move`` did: the new state and the facts a service reports about the move."""

    state: GameState
    player: int
    move: Move
    score: int = 0
    placement: ScoredPlacement | None = None
    drawn: tuple[int, ...] = field(default=(), repr=False)  # the mover's new tiles: private
    swapped_count: int = 0
    ended: bool = False
    events: tuple[str, ...] = field(default=())


def _layout_for(options: Options, seed: int) -> Layout:
    if options.layout == "classic":
        return classic_layout(options.size)
    if options.layout == "random":
        return random_layout(options.size, random.Random(f"{seed}:layout"))
    raise IllegalMoveError("bad_notation", f"Unknown layout '{options.layout}'.")


def new_game(*, options: Options | None = None, rng: random.Random) -> GameState:
    """A new game whose seed is drawn from ``rng``."""
    return new_game_from_seed(rng.getrandbits(63), options or Options())


def new_game_from_seed(seed: int, options: Options | None = None) -> GameState:
    options = options or Options()
    layout = _layout_for(options, seed)
    bag = list(FULL_BAG)
    random.Random(f"{seed}:bag").shuffle(bag)
    first = random.Random(f"{seed}:first").randrange(PLAYERS)
    racks = (sort_rack(bag[:RACK_SIZE]), sort_rack(bag[RACK_SIZE : 2 * RACK_SIZE]))
    return GameState(
        options=options,
        seed=seed,
        board=Board.empty(layout),
        racks=racks,
        bag=tuple(bag[2 * RACK_SIZE :]),
        scores=(0, 0),
        current_player=first,
        first_player=first,
    )


def _with_rack(
    racks: tuple[tuple[int, ...], tuple[int, ...]], player: int, rack: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (rack, racks[1]) if player == 0 else (racks[0], rack)


def _with_score(scores: tuple[int, int], player: int, delta: int) -> tuple[int, int]:
    return (scores[0] + delta, scores[1]) if player == 0 else (scores[0], scores[1] + delta)


def _require_in_play(state: GameState) -> int:
    if state.current_player is None:
        raise IllegalMoveError("game_over", "The game is over.")
    return state.current_player


def validate_move(state: GameState, move: Move) -> ScoredPlacement | None:
    """Raise ``IllegalMoveError`` if ``move`` is illegal; a placement's score is returned."""
    player = _require_in_play(state)
    if isinstance(move, Placement):
        return check_placement(
            state.board,
            move,
            state.racks[player],
            seven_tile_bonus=state.options.seven_tile_bonus,
        )
    if isinstance(move, Swap):
        if not 1 <= len(move.tiles) <= RACK_SIZE:
            raise IllegalMoveError("bad_notation", "Swap between 1 and 7 tiles.")
        if remove_tiles(state.racks[player], move.tiles) is None:
            raise IllegalMoveError("not_in_rack", "Your rack does not hold those tiles.")
        if len(state.bag) < len(move.tiles):
            raise IllegalMoveError(
                "bag_too_small",
                f"The bag holds {len(state.bag)} tiles: you cannot swap {len(move.tiles)}.",
                {"bag_size": len(state.bag)},
            )
        return None
    if isinstance(move, Resign):
        if move.player is not None and move.player not in range(PLAYERS):
            raise IllegalMoveError("not_a_player", f"There is no player {move.player}.")
        return None
    if isinstance(move, Pass):
        return None
    raise IllegalMoveError("bad_notation", f"Not a move: {move!r}")


def apply_move(state: GameState, move: Move | str) -> MoveResult:
    """Play ``move`` (a move or its notation) and return the new state; ``state`` is unchanged."""
    if isinstance(move, str):
        move = parse_move(move)
    scored = validate_move(state, move)
    return _play(state, move, scored)


def apply_generated(state: GameState, scored: ScoredPlacement) -> MoveResult:
    """Play a placement produced by the move generator for this very state, skipping re-checks."""
    _require_in_play(state)
    return _play(state, scored.move, scored)


def _play(state: GameState, move: Move, scored: ScoredPlacement | None) -> MoveResult:
    if isinstance(move, Resign):
        return _resign(state, move)
    player = state.current_player
    assert player is not None
    opponent = 1 - player
    racks, bag, board, scores = state.racks, state.bag, state.board, state.scores
    score = 0
    drawn: tuple[int, ...] = ()
    swapped = 0
    if isinstance(move, Placement):
        assert scored is not None
        score = scored.score
        board = apply_placement_to_board(board, move)
        kept = scored.rack_after or remove_tiles(racks[player], (t.rack_tile for t in move.tiles))
        assert kept is not None
        drawn = bag[: RACK_SIZE - len(kept)]
        bag = bag[len(drawn) :]
        racks = _with_rack(racks, player, sort_rack(kept + drawn))
        scores = _with_score(scores, player, score)
    elif isinstance(move, Swap):
        kept = remove_tiles(racks[player], move.tiles)
        assert kept is not None
        swapped = len(move.tiles)
        drawn = bag[:swapped]
        returned = list(bag[swapped:]) + list(move.tiles)
        random.Random(f"{state.seed}:swap:{state.move_number}").shuffle(returned)
        bag = tuple(returned)
        racks = _with_rack(racks, player, sort_rack(kept + drawn))
    scoreless = 0 if score > 0 else state.scoreless_turns + 1
    after = replace(
        state,
        board=board,
        racks=racks,
        bag=bag,
        scores=scores,
        current_player=opponent,
        move_number=state.move_number + 1,
        scoreless_turns=scoreless,
    )
    if isinstance(move, Placement) and not racks[player] and not bag:
        gain = rack_value(racks[opponent])
        adjustments = _with_score((0, 0), player, gain)
        after = _finish(after, Termination.RACK_EMPTIED, adjustments)
    elif scoreless >= SCORELESS_TURNS_TO_END:
        adjustments = (-rack_value(racks[0]), -rack_value(racks[1]))
        after = _finish(after, Termination.SCORELESS_TURNS, adjustments)
    return MoveResult(
        state=after,
        player=player,
        move=move,
        score=score,
        placement=scored,
        drawn=drawn,
        swapped_count=swapped,
        ended=after.is_over,
    )


def _finish(state: GameState, termination: Termination, adjustments: tuple[int, int]) -> GameState:
    scores = (state.scores[0] + adjustments[0], state.scores[1] + adjustments[1])
    if scores[0] == scores[1]:
        winner = None
    else:
        winner = 0 if scores[0] > scores[1] else 1
    outcome = Outcome(termination, winner, scores, adjustments)
    return replace(state, scores=scores, current_player=None, result=outcome)


def _resign(state: GameState, move: Resign) -> MoveResult:
    player = move.player if move.player is not None else state.current_player
    assert player is not None
    outcome = Outcome(Termination.RESIGNATION, 1 - player, state.scores, (0, 0))
    after = replace(
        state, current_player=None, result=outcome, move_number=state.move_number + 1
    )
    return MoveResult(state=after, player=player, move=move, ended=True)


def outcome(state: GameState) -> Outcome | None:
    return state.result


def replay(seed: int, options: Options, moves: list[str]) -> GameState:
    """Rebuild a game from its seed and its move list in notation (timeouts as ``pass``).

    A resignation's notation names no player, so ``resign@N`` names the resigning seat.
    """
    state = new_game_from_seed(seed, options)
    for text in moves:
        if text.startswith("resign@"):
            move: Move = Resign(int(text.split("@", 1)[1]))
        else:
            move = parse_move(text)
        state = apply_move(state, move).state
    return state


def replay_notation(result: MoveResult) -> str:
    """The notation of a played move as ``replay`` reads it back."""
    if isinstance(result.move, Resign):
        return f"resign@{result.player}"
    return format_move(result.move)


def tiles_in_play(state: GameState) -> list[int]:
    """Every tile of the game wherever it is (board, racks, bag): always the 80 of the bag."""
    board_tiles = [
        WILD if i in state.board.wilds else c
        for i, c in enumerate(state.board.cells)
        if c != EMPTY
    ]
    return sorted(board_tiles + list(state.racks[0]) + list(state.racks[1]) + list(state.bag))
