"""Computer players of four strengths, each deterministic given a seeded ``random.Random``.

- beginner: a "findability" filter in the spirit of macondo: it only notices short moves, each
  with some probability, and picks loosely among the best few it noticed.
- casual: the best-scoring move among a random part of all legal moves.
- strong: the best-scoring move; swaps a rack that scores badly while the bag allows.
- expert: equity = score + value of the tiles kept (a per-tile table tuned by self-play),
  swaps when keeping a better rack is worth more than the best move, and once the bag is empty
  looks one move ahead at the opponent's best reply (whose rack is then known: it is every tile
  not on the board or on its own rack).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from .board import EMPTY
from .errors import IllegalMoveError
from .movegen import generate_placements, legal_moves
from .moves import Move, Pass, Swap
from .rules import ScoredPlacement, apply_placement_to_board
from .state import GameState
from .tiles import FULL_BAG, RACK_SIZE, WILD, rack_value

LEVELS: tuple[str, ...] = ("beginner", "casual", "strong", "expert")
LEVEL_INFO: dict[str, tuple[str, str]] = {
    "beginner": ("Beginner", "Notices only short moves, and not always; plays loosely."),
    "casual": ("Casual", "Looks over part of the board and plays the best move it spotted."),
    "strong": ("Strong", "Always plays the highest-scoring move; swaps a hopeless rack."),
    "expert": (
        "Expert",
        "Weighs points against the tiles it keeps, swaps wisely and plans the endgame.",
    ),
}

Choice = ScoredPlacement | Swap | Pass

# Beginner: the chance of noticing a move of 1, 2, 3 tiles (longer moves are never noticed).
FINDABILITY = {1: 0.5, 2: 0.35, 3: 0.15}
BEGINNER_TOP = 3
CASUAL_SHARE = 0.35
STRONG_SWAP_BELOW = 6  # strong swaps when its best move scores less than this

# Expert leave values: what keeping a tile is worth in later points. Wilds fit anywhere; 0s
# and 5s combine easily; 8s and 9s are hard to place and cost their value if stuck at the end.
LEAVE_VALUE: dict[int, float] = {
    0: 2.0, 1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 2.0, 6: 0.0, 7: 0.0, 8: -1.5, 9: -2.5, WILD: 9.0,
}
DUPLICATE_PENALTY = 2.0  # per extra copy of a digit (a 5 pair is kept: 5+5 = 10)
PAIR_BONUS = 1.0  # per complementary pair kept (3 and 7, 5 and 5...)
SWAP_MARGIN = 4.0  # a swap scores nothing this turn: it must gain this much leave to be worth it
LEAVE_WEIGHT = 1.0  # how much the leave counts against points, tuned by self-play
ENDGAME_CANDIDATES = 12


def leave_value(tiles: Sequence[int]) -> float:
    counts = Counter(tiles)
    value = sum(LEAVE_VALUE[t] for t in tiles)
    for digit, n in counts.items():
        if digit != WILD and n > 1 and digit != 5:
            value -= DUPLICATE_PENALTY * (n - 1)
    value += PAIR_BONUS * sum(min(counts[d], counts[10 - d]) for d in (1, 2, 3, 4))
    value += PAIR_BONUS * (counts[5] // 2)
    return value


def best_keep(rack: Sequence[int]) -> tuple[int, ...]:
    """The sub-rack with the best leave value (what to keep when swapping the rest)."""
    best: tuple[int, ...] = ()
    best_value = leave_value(())
    for k in range(1, len(rack)):
        for keep in combinations(rack, k):
            value = leave_value(keep)
            if value > best_value:
                best, best_value = keep, value
    return best


def _returned(rack: Sequence[int], keep: Sequence[int]) -> tuple[int, ...]:
    rest = Counter(rack)
    rest.subtract(keep)
    return tuple(sorted(rest.elements()))


def _swap_or_pass(state: GameState, tiles: Sequence[int]) -> Swap | Pass:
    """Swap ``tiles`` (as many as the bag allows), else pass."""
    tiles = tuple(tiles)[: len(state.bag)]
    return Swap(tiles) if tiles else Pass()


def _rack(state: GameState) -> tuple[int, ...]:
    assert state.current_player is not None, "the game is over"
    return state.racks[state.current_player]


def _best(moves: Sequence[ScoredPlacement]) -> ScoredPlacement:
    return max(moves, key=lambda m: m.score)  # max keeps the first of equal scores


def _beginner(state: GameState, moves: list[ScoredPlacement], rng: random.Random) -> Choice:
    seen = [m for m in moves if rng.random() < FINDABILITY.get(len(m.move.tiles), 0.0)]
    if seen:
        seen.sort(key=lambda m: -m.score)
        return rng.choice(seen[:BEGINNER_TOP])
    rack = _rack(state)
    return _swap_or_pass(state, rng.sample(rack, min(2, len(rack))))


def _casual(state: GameState, moves: list[ScoredPlacement], rng: random.Random) -> Choice:
    seen = [m for m in moves if rng.random() < CASUAL_SHARE]
    if seen:
        return _best(seen)
    if moves:
        return rng.choice(moves)
    return _swap_or_pass(state, _rack(state))


def _greedy(state: GameState, moves: list[ScoredPlacement], rng: random.Random) -> Choice:
    """The benchmark yardstick: the highest-scoring placement; with none, swap the whole rack
    when the bag allows, else pass. Never offered to players (not in ``LEVELS``)."""
    if moves:
        return _best(moves)
    rack = _rack(state)
    return Swap(rack) if rack and len(state.bag) >= len(rack) else Pass()


def _strong(state: GameState, moves: list[ScoredPlacement], rng: random.Random) -> Choice:
    rack = _rack(state)
    if moves:
        best = _best(moves)
        if best.score >= STRONG_SWAP_BELOW or len(state.bag) < len(rack):
            return best
    return _swap_or_pass(state, _returned(rack, best_keep(rack)))


def unseen_tiles(state: GameState) -> tuple[int, ...]:
    """Tiles the player to move cannot see: the bag plus the opponent's rack."""
    board = state.board
    on_board = [
        WILD if i in board.wilds else c for i, c in enumerate(board.cells) if c != EMPTY
    ]
    rest = Counter(FULL_BAG)
    rest.subtract(on_board)
    rest.subtract(_rack(state))
    return tuple(sorted(rest.elements()))


def _endgame_value(state: GameState, move: ScoredPlacement, opponent_rack: tuple[int, ...]) -> int:
    """Score of ``move`` minus the opponent's best reply, counting the out bonuses."""
    if not move.rack_after:
        return move.score + rack_value(opponent_rack)
    board = apply_placement_to_board(state.board, move.move)
    replies = generate_placements(
        board, opponent_rack, seven_tile_bonus=state.options.seven_tile_bonus
    )
    if not replies:
        return move.score
    reply = max(
        replies, key=lambda r: r.score + (rack_value(move.rack_after) if not r.rack_after else 0)
    )
    out_bonus = rack_value(move.rack_after) if not reply.rack_after else 0
    return move.score - reply.score - out_bonus


def _expert(state: GameState, moves: list[ScoredPlacement], rng: random.Random) -> Choice:
    rack = _rack(state)
    if not state.bag:
        if not moves:
            return Pass()
        opponent_rack = unseen_tiles(state)
        ranked = sorted(moves, key=lambda m: -(m.score - rack_value(m.rack_after)))
        if len(opponent_rack) > RACK_SIZE:  # not a real game's position: no look-ahead
            return ranked[0]
        candidates = ranked[:ENDGAME_CANDIDATES]
        return max(candidates, key=lambda m: _endgame_value(state, m, opponent_rack))
    # Late in the game the leave matters less: fewer turns remain to use it.
    weight = LEAVE_WEIGHT if len(state.bag) >= 7 else LEAVE_WEIGHT / 2
    best = max(moves, key=lambda m: m.score + weight * leave_value(m.rack_after), default=None)
    keep = best_keep(rack)
    if len(state.bag) >= len(rack) - len(keep):
        swap_equity = leave_value(keep) - SWAP_MARGIN
        if best is None or best.score + weight * leave_value(best.rack_after) < swap_equity:
            return _swap_or_pass(state, _returned(rack, keep))
    if best is not None:
        return best
    return _swap_or_pass(state, _returned(rack, keep))


_STRATEGIES = {
    "beginner": _beginner, "casual": _casual, "strong": _strong, "expert": _expert,
    "greedy": _greedy,
}
# Everything computer_choice plays: the levels offered to players plus the benchmark's greedy.
PLAYERS: tuple[str, ...] = (*LEVELS, "greedy")


def computer_choice(state: GameState, level: str, rng: random.Random) -> Choice:
    """The level's choice for the player to move: a generated placement, a Swap or a Pass."""
    if level not in _STRATEGIES:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(PLAYERS)}")
    if state.current_player is None:
        raise IllegalMoveError("game_over", "The game is over.")
    return _STRATEGIES[level](state, legal_moves(state), rng)


def computer_move(state: GameState, level: str, rng: random.Random) -> Move:
    """The level's move as a plain Placement, Swap or Pass."""
    choice = computer_choice(state, level, rng)
    return choice.move if isinstance(choice, ScoredPlacement) else choice
