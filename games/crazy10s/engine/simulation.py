"""The expert's look-ahead: each candidate move against the opponent's best reply on racks drawn
from the unseen tiles, with the game's end by six scoreless turns worked out exactly.

The opponent's replies to every candidate are not generated from scratch. A placement changes
the board only near its tiles: a reply whose squares avoid the new tiles and the empty squares
just beyond their row and column runs has the same lines, legality and score as before the
move (a line through a new tile would have to cover one of those squares). So each drawn rack
is generated once on the current board, best first; after a candidate its best reply is the
best of those that avoid the changed squares, or of the placements that cover one of them
(``generate_placements`` with ``anchors``: a few squares instead of the whole board). Every
candidate meets the same racks, so their differences are not drowned in the luck of the draw.

Values are in points of the score margin. A sample in which the game ends (the sixth
scoreless turn) counts the racks' values left on each side and a win or loss bonus, so the
expert ends a blocked game it is winning and keeps alive one it is losing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .board import EMPTY, Board
from .movegen import generate_placements
from .moves import Pass, Placement, Swap
from .rules import ScoredPlacement, apply_placement_to_board
from .state import SCORELESS_TURNS_TO_END, GameState
from .tiles import RACK_SIZE, WILD, rack_value

# The work of one generation in the budget's units (one unit per placement it produces): a
# generation that finds nothing still scans the board.
GENERATION_COST = 20
MIN_RACKS = 2
# What deciding a game is worth beside its points: more than any reply could take back, so a
# sure win is taken and a sure loss avoided while the game can go on.
WIN_BONUS = 100.0

Choice = ScoredPlacement | Swap | Pass
Candidate = tuple[float, Choice, tuple[int, ...]]  # (equity, choice, tiles kept)
Changed = tuple[Board, frozenset[int], frozenset[int]]  # board after a move, avoid, ends


def changed_squares(board: Board, move: Placement) -> tuple[frozenset[int], frozenset[int]]:
    """(squares a reply must avoid to be unchanged by ``move``, the empty ones among them):
    the new tiles, and the empty squares just beyond the row and column runs through them on
    ``board`` (the board after the move)."""
    size, cells = board.size, board.cells
    new = {tile.row * size + tile.col for tile in move.tiles}
    ends: set[int] = set()
    for q in new:
        row, col = divmod(q, size)
        for step, pos in ((1, col), (size, row)):
            for sign in (-1, 1):
                i, p = q, pos
                while True:
                    i, p = i + sign * step, p + sign
                    if not 0 <= p < size:
                        break
                    if cells[i] == EMPTY:
                        ends.add(i)
                        break
    return frozenset(new | ends), frozenset(ends)


def _value(placement: ScoredPlacement, out_bonus: int) -> int:
    return placement.score + (out_bonus if not placement.rack_after else 0)


def rack_of(state: GameState, tiles: tuple[int, ...]) -> DrawnRack:
    """``tiles`` (a rack for the opponent) with its placements on the current board."""
    placements = generate_placements(
        state.board, tiles, seven_tile_bonus=state.options.seven_tile_bonus, best_wilds=True
    )
    placements.sort(key=lambda p: -p.score)
    return DrawnRack(tiles, placements, state.board.size)


@dataclass
class DrawnRack:
    """One rack drawn for the opponent, with its placements on the current board."""

    tiles: tuple[int, ...]
    placements: list[ScoredPlacement]  # best first
    size: int

    def __post_init__(self) -> None:
        self._squares: list[frozenset[int]] = []  # of the first placements, as scanned

    def squares(self, index: int) -> frozenset[int]:
        known = self._squares
        while len(known) <= index:
            tiles = self.placements[len(known)].move.tiles
            known.append(frozenset(t.row * self.size + t.col for t in tiles))
        return known[index]

    def best_avoiding(self, squares: frozenset[int], out_bonus: int = 0) -> int:
        """The best value among the placements that cover none of ``squares``: the score,
        plus ``out_bonus`` for a placement that empties the rack (the bag being empty)."""
        if not out_bonus:  # best first: the first one that avoids the squares
            for index, placement in enumerate(self.placements):
                if placement.score <= 0:
                    return 0
                if not (self.squares(index) & squares):
                    return placement.score
            return 0
        return max(
            (_value(p, out_bonus) for i, p in enumerate(self.placements)
             if not (self.squares(i) & squares)),
            default=0,
        )

    def best_after(
        self, state: GameState, move: Placement, board: Board, out_bonus: int = 0
    ) -> int:
        """The opponent's best value (see ``best_avoiding``) with this rack on ``board``, the
        current board after ``move``."""
        changed = (board, *changed_squares(board, move))
        return self.reply_after(changed, state.options.seven_tile_bonus, out_bonus)[0]

    def reply_after(
        self, changed: Changed, seven_tile_bonus: bool, out_bonus: int = 0
    ) -> tuple[int, int]:
        """(the best value after a move, how many placements were generated for it), given
        the move's ``changed`` board and squares."""
        board, avoid, ends = changed
        nearby = generate_placements(
            board, self.tiles, seven_tile_bonus=seven_tile_bonus, best_wilds=True, anchors=ends
        )
        if out_bonus:
            near = max((_value(p, out_bonus) for p in nearby), default=0)
        else:
            near = max((p.score for p in nearby), default=0)
        return max(self.best_avoiding(avoid, out_bonus), near), len(nearby)

    @property
    def best_now(self) -> int:
        return max(self.placements[0].score, 0) if self.placements else 0


def draw_rack(state: GameState, pool: Sequence[int], rng: random.Random) -> DrawnRack:
    """A rack for the opponent (as many tiles as it holds) drawn from ``pool``."""
    player = state.current_player
    assert player is not None
    size = min(len(state.racks[1 - player]), len(pool))
    return rack_of(state, tuple(sorted(rng.sample(list(pool), size))))


@dataclass
class _Plan:
    """What a candidate leaves, worked out once before the racks are drawn."""

    equity: float
    choice: Choice
    score: int
    scoreless: int  # scoreless turns in a row after it
    mine_left: float  # the value of my rack after it (drawn tiles at the pool's average)
    drawn: int
    changed: Changed | None
    total: float = 0.0


def _plan(state: GameState, candidate: Candidate, pool_mean: float) -> _Plan:
    equity, choice, kept = candidate
    score = choice.score if isinstance(choice, ScoredPlacement) else 0
    drawn = 0 if isinstance(choice, Pass) else min(RACK_SIZE - len(kept), len(state.bag))
    changed = None
    if isinstance(choice, ScoredPlacement):
        board = apply_placement_to_board(state.board, choice.move)
        changed = (board, *changed_squares(board, choice.move))
    return _Plan(
        equity, choice, score, 0 if score > 0 else state.scoreless_turns + 1,
        rack_value(kept) + drawn * pool_mean, drawn, changed,
    )


def _left_after_last_swap(tiles: tuple[int, ...], bag: int, pool_mean: float) -> float:
    """The value of a rack after its holder's game-ending swap: the tiles worth more than an
    average unseen tile go back (as the bag allows), the cheap ones stay."""
    heavy = sorted((t for t in tiles if t != WILD and t > pool_mean), reverse=True)[:bag]
    return rack_value(tiles) - sum(heavy) + len(heavy) * pool_mean


def simulate(
    state: GameState,
    candidates: Sequence[Candidate],
    pool: Sequence[int],
    rng: random.Random,
    budget: int,
) -> Choice:
    """The candidate with the best average value over racks drawn for the opponent.

    A sample's value: if the game goes on, the candidate's equity less the opponent's best
    reply; if it ends on the sixth scoreless turn (after the candidate, or after an opponent
    who cannot score), the change of the final margin plus or minus ``WIN_BONUS``.

    ``budget`` bounds the work instead of a clock: racks are drawn until the generations have
    cost that many units (``GENERATION_COST`` each, plus one per placement produced), at least
    ``MIN_RACKS``; each rack meets every candidate."""
    player = state.current_player
    assert player is not None
    margin = state.scores[player] - state.scores[1 - player]
    pool_mean = rack_value(pool) / len(pool) if pool else 0.0
    bag = len(state.bag)
    plans = [_plan(state, candidate, pool_mean) for candidate in candidates]
    seven = state.options.seven_tile_bonus

    def ended(delta: float) -> float:
        final = margin + delta
        return delta + (WIN_BONUS if final > 0 else -WIN_BONUS if final < 0 else 0.0)

    racks = spent = 0
    while racks < MIN_RACKS or spent < budget:
        rack = draw_rack(state, pool, rng)
        racks += 1
        spent += GENERATION_COST + len(rack.placements)
        theirs_now = rack_value(rack.tiles)
        for plan in plans:
            if plan.scoreless >= SCORELESS_TURNS_TO_END:  # my move ends the game
                plan.total += ended(plan.score - plan.mine_left + theirs_now)
                continue
            if plan.changed is None:
                reply = rack.best_now
            else:
                reply, generated = rack.reply_after(plan.changed, seven)
                spent += GENERATION_COST + generated
            going_on = plan.equity - reply
            if plan.scoreless + 1 >= SCORELESS_TURNS_TO_END:
                # The opponent's pass or swap would be the sixth scoreless turn: it ends the
                # game when it cannot score, or when ending is worse for me than its reply.
                bag_after = bag if isinstance(plan.choice, Swap) else bag - plan.drawn
                theirs = _left_after_last_swap(rack.tiles, bag_after, pool_mean)
                end = ended(plan.score - plan.mine_left + theirs)
                plan.total += end if reply == 0 else min(going_on, end)
            else:
                plan.total += going_on
    best = max(plans, key=lambda plan: plan.total)  # max keeps the first of equal values
    return best.choice
