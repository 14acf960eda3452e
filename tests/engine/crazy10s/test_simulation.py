"""The expert's simulation: replies worked out near the move equal a full generation, and the
end by six scoreless turns is counted."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.crazy10s.engine import (
    GameState,
    Pass,
    ScoredPlacement,
    Swap,
    apply_generated,
    apply_move,
    computer_choice,
    generate_placements,
    legal_moves,
    new_game_from_seed,
)
from games.crazy10s.engine.board import EMPTY
from games.crazy10s.engine.players import unseen_tiles
from games.crazy10s.engine.rules import apply_placement_to_board
from games.crazy10s.engine.simulation import DrawnRack, changed_squares, simulate
from games.crazy10s.engine.tiles import WILD


def greedy_position(seed: int, turns: int) -> GameState:
    state = new_game_from_seed(seed)
    rng = random.Random(seed)
    while state.move_number < turns and not state.is_over:
        choice = computer_choice(state, "greedy", rng)
        if isinstance(choice, ScoredPlacement):
            state = apply_generated(state, choice).state
        else:
            state = apply_move(state, choice).state
    return state


def full_best(state: GameState, board, rack: tuple[int, ...], out_bonus: int = 0) -> int:
    replies = generate_placements(board, rack, best_wilds=True)
    return max((r.score + (0 if r.rack_after else out_bonus) for r in replies), default=0)


@pytest.mark.parametrize("seed,turns", [(1, 2), (2, 6), (3, 10), (4, 16), (5, 24), (6, 30)])
def test_the_best_reply_near_a_move_equals_a_full_generation(seed: int, turns: int) -> None:
    state = greedy_position(seed, turns)
    assert not state.is_over
    rng = random.Random(seed)
    pool = list(unseen_tiles(state))
    racks = [tuple(sorted(rng.sample(pool, min(7, len(pool))))) for _ in range(4)]
    racks.append((1, 2, 3, WILD, WILD))  # the wild paths of the generator too
    moves = sorted(legal_moves(state, best_wilds=True), key=lambda m: -m.score)[:12]
    assert moves
    checked = 0
    for rack in racks:
        now = sorted(generate_placements(state.board, rack, best_wilds=True),
                     key=lambda p: -p.score)
        drawn = DrawnRack(rack, now, state.board.size)
        assert drawn.best_now == full_best(state, state.board, rack)
        for move in moves:
            board = apply_placement_to_board(state.board, move.move)
            assert drawn.best_after(state, move.move, board) == full_best(state, board, rack)
            checked += 1
        short = rack[:2]  # the endgame's value: a reply that empties the rack gains a bonus
        drawn = DrawnRack(short, sorted(generate_placements(state.board, short, best_wilds=True),
                                        key=lambda p: -p.score), state.board.size)
        for move in moves[:4]:
            board = apply_placement_to_board(state.board, move.move)
            assert drawn.best_after(state, move.move, board, 11) == full_best(
                state, board, short, 11)
    assert checked >= 5 * min(12, len(moves))


def test_changed_squares_are_the_new_tiles_and_the_ends_of_their_runs() -> None:
    state = greedy_position(7, 1)  # one move on the board
    move = sorted(legal_moves(state, best_wilds=True), key=lambda m: -m.score)[0]
    board = apply_placement_to_board(state.board, move.move)
    avoid, ends = changed_squares(board, move.move)
    size = board.size
    new = {t.row * size + t.col for t in move.move.tiles}
    assert new <= avoid and not (new & ends)
    assert ends and all(board.cells[q] == EMPTY for q in ends)  # ends are empty
    for q in ends:  # each end is next to a tile of a run through a new tile
        row, col = divmod(q, size)
        neighbours = [(row + dr) * size + col + dc for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
                      if 0 <= row + dr < size and 0 <= col + dc < size]
        assert any(board.cells[n] >= 0 for n in neighbours)


def test_a_winning_player_ends_a_blocked_game_by_passing() -> None:
    # Five scoreless turns: a pass ends the game. Ahead by far more than any rack is worth,
    # the expert's simulation prefers ending it to a small score that lets the game go on.
    state = greedy_position(8, 12)
    player = state.current_player
    assert player is not None
    moves = sorted(legal_moves(state, best_wilds=True), key=lambda m: m.score)
    small = next(m for m in moves if m.score > 0)
    scores = [0, 0]
    scores[player] = 200
    ahead = replace(state, scoreless_turns=5, scores=tuple(scores))
    candidates = [(float(small.score), small, small.rack_after), (0.0, Pass(), ahead.racks[player])]
    pool = unseen_tiles(ahead)
    assert isinstance(simulate(ahead, candidates, pool, random.Random(1), 6), Pass)
    # Behind by as much, it keeps the game going with the small score instead.
    scores = [200, 200]
    scores[player] = 0
    behind = replace(ahead, scores=tuple(scores))
    assert simulate(behind, candidates, pool, random.Random(1), 6) is small


def test_swap_candidates_are_valued_on_the_unchanged_board() -> None:
    state = greedy_position(9, 4)
    player = state.current_player
    assert player is not None
    rack = state.racks[player]
    swap = Swap(rack[:3])
    choice = simulate(state, [(-50.0, swap, rack[3:]), (0.0, Pass(), rack)],
                      unseen_tiles(state), random.Random(2), 4)
    assert isinstance(choice, Pass)  # same replies, better equity
