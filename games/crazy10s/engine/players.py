"""Computer players of four strengths, each deterministic given a seeded ``random.Random``.

Every player decides from what its seat may know: its rack, the board, the bag's size, how many
tiles the opponent holds and the unseen tiles (bag and opponent's rack together, never which is
where), and never the game's seed. The players generate placements with ``best_wilds`` (only
the best-scoring digits for the wilds of a placement).

- beginner: a "findability" filter in the spirit of macondo: it only notices short moves, each
  with some probability, and picks loosely among the best two it noticed.
- casual: the best-scoring move among a random part of all legal moves.
- strong: equity = score + value of the tiles kept (a per-tile table fitted to self-play by
  bench/fit_leaves.py, weighted as measured against greedy by bench/players.py); swaps when
  keeping a better rack is worth more than the best move; swaps its costly tiles in
  a blocked endgame; once the bag is empty looks one move ahead at the opponent's best reply
  (whose rack is then known: it is every tile not on the board or on its own rack).
- expert: the strong player's best few candidates, each judged by simulation (simulation.py):
  the opponent's best reply on racks drawn from the unseen tiles, the end by six scoreless
  turns counted exactly, with a fixed budget of drawn racks per move instead of a clock.
- greedy (not offered to players): the benchmark's yardstick, the highest-scoring placement.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from .board import EMPTY
from .errors import IllegalMoveError
from .movegen import legal_moves
from .moves import Move, Pass, Swap
from .rules import ScoredPlacement, apply_placement_to_board
from .simulation import Choice, DrawnRack, rack_of, simulate
from .state import SCORELESS_TURNS_TO_END, GameState
from .tiles import FULL_BAG, RACK_SIZE, WILD, rack_value

LEVELS: tuple[str, ...] = ("beginner", "casual", "strong", "expert")
LEVEL_INFO: dict[str, tuple[str, str]] = {
    "beginner": ("Beginner", "Notices only short moves, and not always; plays loosely."),
    "casual": ("Casual", "Looks over part of the board and plays the best move it spotted."),
    "strong": (
        "Strong",
        "Weighs points against the tiles it keeps, swaps wisely and plans the endgame.",
    ),
    "expert": (
        "Expert",
        "Plays like Strong, and tries its best moves against the replies you could make.",
    ),
}


# Beginner: the chance of noticing a move of 1 to 5 tiles (longer moves are never noticed).
# These and CASUAL_SHARE are tuned against greedy (bench/players.py): beginner ~20 %, casual
# ~45 %.
FINDABILITY = {1: 0.8, 2: 0.7, 3: 0.5, 4: 0.3, 5: 0.15}
BEGINNER_TOP = 2
CASUAL_SHARE = 0.85

# Leave values: the next turn's points after keeping a tile, against drawing a fresh one
# instead, fitted by least squares on the strong player's turns against greedy
# (bench/fit_leaves.py, two rounds; the figures and their errors are in its docstring). A 0
# extends a line onto a multiplier square without changing its sum and a wild fits anywhere;
# the other digits come out at or below a fresh draw, roughly the higher the lower. Part of
# that is the board, not the tile: a player keeps more tiles when the board lets it play
# fewer, and that board is still there next turn. The differences between tiles are what
# decide among moves.
LEAVE_VALUE: dict[int, float] = {
    0: 6.8, 1: 0.0, 2: -0.7, 3: -1.1, 4: -1.8, 5: -1.8, 6: -2.1, 7: -2.0, 8: -2.0, 9: -2.1,
    WILD: 8.3,
}
DUPLICATE_PENALTY = 2.0  # per extra copy of a digit (fitted: 1.96)
PAIR_BONUS = 0.65  # per complementary pair kept (1 and 9, 3 and 7...)
# A swap scores nothing this turn: it must gain this much equity to be worth it (8 measured alike).
SWAP_MARGIN = 4.0
# How much the leave counts against points: the best of 1.0, 1.3, 1.7, 2.2 and 3.0 against
# greedy (1,000 paired seeds of seed 7; level_stats.json reports seed 0). Why above 1 is a
# guess: a kept 0 or wild may pay over several turns, not only the next one.
LEAVE_WEIGHT = 2.2
LATE_LEAVE_SHARE = 0.5  # of LEAVE_WEIGHT once the bag cannot refill a rack (0.25-1 alike)
ENDGAME_CANDIDATES = 12
BLOCKED_ENDGAME_TURNS = 4  # scoreless turns after which held tiles are mostly a cost
EXPERT_CANDIDATES = 6  # simulated per move
# A candidate this far below the best equity is not simulated: the opponent's reply rarely
# costs the best one that much more than another.
EXPERT_REACH = 20.0
# Work per move for the simulation (simulation.simulate: generations and the placements they
# produce): measured 81 ms median, 226 ms p99 per move on one core (bench/players.py).
EXPERT_BUDGET = 2500


def leave_value(tiles: Sequence[int]) -> float:
    counts = Counter(tiles)
    value = sum(LEAVE_VALUE[t] for t in tiles)
    for digit, n in counts.items():
        if digit != WILD and n > 1:
            value -= DUPLICATE_PENALTY * (n - 1)
    value += PAIR_BONUS * sum(min(counts[d], counts[10 - d]) for d in (1, 2, 3, 4))
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


def _endgame_value(
    state: GameState, move: ScoredPlacement, opponent: DrawnRack
) -> int:
    """Score of ``move`` minus the opponent's best reply, counting the out bonuses."""
    if not move.rack_after:
        return move.score + rack_value(opponent.tiles)
    board = apply_placement_to_board(state.board, move.move)
    out_bonus = rack_value(move.rack_after)  # the opponent's if its reply empties its rack
    reply = opponent.best_after(state, move.move, board, out_bonus)
    return move.score - reply


def _blocked_swap(state: GameState, rack: tuple[int, ...]) -> Swap | Pass:
    """No placement: swap what the rest of the game needs least.

    Near the end of a blocked game (few scoreless turns left) every tile still held costs its
    value, so swap the tiles worth more than an average unseen tile (an exact expectation: the
    bag is a uniform draw from the unseen tiles); earlier, keep the most playable tiles."""
    if state.scoreless_turns >= BLOCKED_ENDGAME_TURNS:
        unseen = unseen_tiles(state)
        mean = rack_value(unseen) / len(unseen) if unseen else 0.0
        heavy = sorted((t for t in rack if t != WILD and t > mean), reverse=True)
        return _swap_or_pass(state, heavy)
    return _swap_or_pass(state, _returned(rack, best_keep(rack)))


def _leave_weight(state: GameState) -> float:
    """How much the tiles kept count against points: less late in the game, when fewer turns
    remain to use them."""
    return LEAVE_WEIGHT if len(state.bag) >= RACK_SIZE else LEAVE_WEIGHT * LATE_LEAVE_SHARE


def _equity_choices(
    state: GameState, moves: list[ScoredPlacement]
) -> list[tuple[float, Choice, tuple[int, ...]]]:
    """(equity, choice, tiles kept) of every placement and of the best swap, best first:
    equity = points + the value of the tiles kept (less late in the game: fewer turns remain
    to use them)."""
    rack = _rack(state)
    weight = _leave_weight(state)
    ranked: list[tuple[float, Choice, tuple[int, ...]]] = [
        (m.score + weight * leave_value(m.rack_after), m, m.rack_after) for m in moves
    ]
    keep = best_keep(rack)
    if rack and len(state.bag) >= len(rack) - len(keep):
        swap = _swap_or_pass(state, _returned(rack, keep))
        ranked.append((weight * leave_value(keep) - SWAP_MARGIN, swap, keep))
    ranked.sort(key=lambda c: -c[0])  # stable: the generator's order among equals
    return ranked


def _empty_bag(state: GameState, moves: list[ScoredPlacement]) -> Choice:
    """The bag is empty, so the opponent's rack is known (every unseen tile): look one reply
    ahead for the best few moves."""
    if not moves:
        return Pass()
    opponent_rack = unseen_tiles(state)
    ranked = sorted(moves, key=lambda m: -(m.score - rack_value(m.rack_after)))
    if len(opponent_rack) > RACK_SIZE:  # not a real game's position: no look-ahead
        return ranked[0]
    candidates = ranked[:ENDGAME_CANDIDATES]
    opponent = rack_of(state, opponent_rack)  # its placements now; each candidate's nearby
    return max(candidates, key=lambda m: _endgame_value(state, m, opponent))


def _last_scoreless_turn(
    state: GameState, ranked: list[tuple[float, Choice, tuple[int, ...]]]
) -> Choice | None:
    """Five turns in a row scored nothing, so a pass or swap ends the game now, each side
    losing the value of its rack. Pass when that wins whatever the opponent holds; play the
    best scoring placement when ending would more likely lose; else None (no opinion)."""
    if state.scoreless_turns < SCORELESS_TURNS_TO_END - 1:
        return None
    player = state.current_player
    assert player is not None
    mine = state.scores[player] - rack_value(state.racks[player])
    theirs = state.scores[1 - player]
    if mine > theirs:  # their rack can only lower their score
        return Pass()
    unseen = unseen_tiles(state)
    expected = len(state.racks[1 - player]) * rack_value(unseen) / len(unseen) if unseen else 0
    scoring = [c for _, c, _ in ranked if isinstance(c, ScoredPlacement) and c.score > 0]
    if scoring and mine <= theirs - expected:
        return scoring[0]
    return None


def _strong(state: GameState, moves: list[ScoredPlacement], rng: random.Random) -> Choice:
    rack = _rack(state)
    if not state.bag:
        return _empty_bag(state, moves)
    if not moves:
        return _blocked_swap(state, rack)
    ranked = _equity_choices(state, moves)
    return _last_scoreless_turn(state, ranked) or ranked[0][1]


def _expert(state: GameState, moves: list[ScoredPlacement], rng: random.Random) -> Choice:
    rack = _rack(state)
    if not state.bag:
        return _empty_bag(state, moves)
    if not moves:
        return _blocked_swap(state, rack)
    ranked = _equity_choices(state, moves)
    ending = _last_scoreless_turn(state, ranked)
    if isinstance(ending, Pass) or len(ranked) == 1:
        return ending or ranked[0][1]
    # The opponent's reply is simulated for the best few by equity (those within reach of the
    # best), plus the top scorer.
    candidates = [c for c in ranked[:EXPERT_CANDIDATES] if c[0] >= ranked[0][0] - EXPERT_REACH]
    top = max(moves, key=lambda m: m.score)
    if all(c[1] is not top for c in candidates):
        candidates.append(next(c for c in ranked if c[1] is top))
    if state.scoreless_turns >= SCORELESS_TURNS_TO_END - 2:  # a pass may end the game
        candidates.append((_leave_weight(state) * leave_value(rack) - SWAP_MARGIN, Pass(), rack))
    return simulate(state, candidates, unseen_tiles(state), rng, EXPERT_BUDGET)


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
    return _STRATEGIES[level](state, legal_moves(state, best_wilds=True), rng)


def computer_move(state: GameState, level: str, rng: random.Random) -> Move:
    """The level's move as a plain Placement, Swap or Pass."""
    choice = computer_choice(state, level, rng)
    return choice.move if isinstance(choice, ScoredPlacement) else choice
