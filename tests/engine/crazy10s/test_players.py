"""Computer players: deterministic per RNG, always legal, ordered in strength, careful swaps."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.crazy10s.engine import (
    LEVEL_INFO,
    LEVELS,
    GameState,
    IllegalMoveError,
    Pass,
    Placement,
    ScoredPlacement,
    Swap,
    apply_generated,
    apply_move,
    computer_choice,
    computer_move,
    format_move,
    legal_moves,
    new_game_from_seed,
    parse_board,
    players,
    validate_move,
)
from games.crazy10s.engine.players import _endgame_value, best_keep, leave_value
from games.crazy10s.engine.simulation import rack_of
from games.crazy10s.selfplay import play_game


def play(state: GameState, choice: ScoredPlacement | Swap | Pass) -> GameState:
    if isinstance(choice, ScoredPlacement):
        return apply_generated(state, choice).state
    return apply_move(state, choice).state


def position_after(seed: int, turns: int) -> GameState:
    state = new_game_from_seed(seed)
    rng = random.Random(seed)
    while state.move_number < turns and not state.is_over:
        state = play(state, computer_choice(state, "strong", rng))
    return state


def test_levels_have_names_and_descriptions() -> None:
    assert LEVELS == ("beginner", "casual", "strong", "expert")
    for level in LEVELS:
        name, description = LEVEL_INFO[level]
        assert name and description.endswith(".")


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_deterministic_for_a_given_rng(level: str) -> None:
    for seed, turns in ((1, 0), (2, 8), (3, 16)):
        state = position_after(seed, turns)
        first = computer_move(state, level, random.Random(99))
        again = computer_move(state, level, random.Random(99))
        assert first == again


@pytest.fixture
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games with the expert: a smaller simulation budget keeps them quick (the code
    path is the same; only the number of simulated replies changes)."""
    monkeypatch.setattr(players, "EXPERT_BUDGET", 12)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.usefixtures("quick_expert")
def test_every_move_a_level_makes_is_legal(level: str) -> None:
    # Whole games through apply_move, which validates every move from scratch.
    for seed in (11, 12):
        state = new_game_from_seed(seed)
        rng = random.Random(seed)
        while not state.is_over:
            move = computer_move(state, level, rng)
            assert isinstance(move, Placement | Swap | Pass)
            validate_move(state, move)
            state = apply_move(state, move).state
        assert state.result is not None


def test_computer_choice_matches_computer_move() -> None:
    state = position_after(5, 10)
    choice = computer_choice(state, "expert", random.Random(3))
    move = computer_move(state, "expert", random.Random(3))
    assert (choice.move if isinstance(choice, ScoredPlacement) else choice) == move
    if isinstance(choice, ScoredPlacement):
        assert choice in legal_moves(state)


@pytest.mark.usefixtures("quick_expert")
def test_expert_beats_beginner() -> None:
    wins = 0
    for game in range(6):
        seats = ("expert", "beginner") if game % 2 == 0 else ("beginner", "expert")
        record = play_game(500 + game, seats)
        result = record.state.result
        assert result is not None
        wins += result.winner == seats.index("expert")
    assert wins >= 5


def test_strong_outscores_beginner_on_average() -> None:
    strong = beginner = 0
    for game in range(4):
        seats = ("strong", "beginner") if game % 2 == 0 else ("beginner", "strong")
        state = play_game(700 + game, seats).state
        strong += state.scores[seats.index("strong")]
        beginner += state.scores[seats.index("beginner")]
    assert strong > beginner


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("bag_size", [0, 2])
def test_swaps_only_what_the_bag_allows(level: str, bag_size: int) -> None:
    # 8s and 9s next to nothing they can complete: no placement exists, so the level must
    # swap (at most bag_size tiles) or pass.
    state = new_game_from_seed(21)
    board = parse_board("/".join(["." * 13] * 6 + ["......55....."] + ["." * 13] * 6))
    state = replace(state, board=board, racks=((8, 8, 8, 9, 9, 9, 9), state.racks[1]),
                    bag=state.bag[:bag_size], current_player=0)
    assert legal_moves(state) == []
    for seed in range(5):
        move = computer_move(state, level, random.Random(seed))
        assert isinstance(move, Swap | Pass)
        if isinstance(move, Swap):
            assert 1 <= len(move.tiles) <= bag_size
            validate_move(state, move)
    if bag_size == 0:
        assert computer_move(state, "expert", random.Random(0)) == Pass()


def test_strong_and_expert_swap_a_hopeless_rack_when_the_bag_is_full() -> None:
    state = new_game_from_seed(21)
    board = parse_board("/".join(["." * 13] * 6 + ["......55....."] + ["." * 13] * 6))
    state = replace(state, board=board, racks=((8, 8, 8, 9, 9, 9, 9), state.racks[1]),
                    current_player=0)
    for level in ("strong", "expert"):
        move = computer_move(state, level, random.Random(0))
        assert isinstance(move, Swap) and len(move.tiles) >= 5


def test_leave_values_prefer_flexible_tiles() -> None:
    # A kept wild or 0 is worth more than a fresh draw, a kept 9 less (bench/fit_leaves.py).
    assert leave_value((10,)) > leave_value((0,)) > leave_value(()) > leave_value((9,))
    assert leave_value((1,)) > leave_value((5,)) > leave_value((9,))
    assert leave_value((3, 7)) > leave_value((3, 3))
    assert 9 not in best_keep((9, 9, 8, 5, 10, 1, 1))
    assert 10 in best_keep((9, 9, 8, 5, 10, 1, 1))


def test_endgame_look_ahead_counts_out_bonus_and_reply() -> None:
    board = parse_board("/".join(["." * 13] * 6 + ["......5......"] + ["." * 13] * 6))
    state = replace(new_game_from_seed(1), board=board, bag=(), current_player=0,
                    racks=((1, 5, 9), (2, 3)))
    by_move = {format_move(m.move): m for m in legal_moves(state)}
    # Going out is impossible with 1 5 9 (no line takes all three), so every value is the
    # move's score minus the opponent's best reply with 2 and 3.
    h7 = by_move["h7=5"]
    assert _endgame_value(state, h7, rack_of(state, (2, 3))) <= h7.score
    out_state = replace(state, racks=((5,), (2, 3)))
    [out] = [m for m in legal_moves(out_state) if format_move(m.move) == "h7=5"]
    assert _endgame_value(out_state, out, rack_of(out_state, (2, 3))) == out.score + 5


def test_no_move_once_the_game_is_over_and_unknown_levels_refused() -> None:
    state = replace(new_game_from_seed(3), current_player=None)
    with pytest.raises(IllegalMoveError) as excinfo:
        computer_move(state, "expert", random.Random(0))
    assert excinfo.value.code == "game_over"
    with pytest.raises(ValueError):
        computer_move(new_game_from_seed(3), "grandmaster", random.Random(0))


def test_blocked_endgame_swaps_the_costly_tiles() -> None:
    # Nothing fits and the game is near its sixth scoreless turn: every tile still held costs
    # its value, so the tiles above the unseen tiles' average go back, the 1s stay.
    state = new_game_from_seed(21)
    board = parse_board("/".join(["." * 13] * 6 + ["......55....."] + ["." * 13] * 6))
    rack = (1, 1, 6, 7, 8, 9, 9)  # nothing here makes the 5 the 5s need
    state = replace(state, board=board, racks=(rack, state.racks[1]), current_player=0,
                    scoreless_turns=4)
    assert legal_moves(state) == []
    for level in ("strong", "expert"):
        move = computer_move(state, level, random.Random(0))
        assert move == Swap((9, 9, 8, 7, 6))
        validate_move(state, move)
    # With two tiles in the bag only the two costliest can go.
    small = replace(state, bag=state.bag[:2])
    assert computer_move(small, "expert", random.Random(0)) == Swap((9, 9))


def test_greedy_plays_the_top_score_or_swaps_everything() -> None:
    state = position_after(8, 6)
    best = max(m.score for m in legal_moves(state))
    choice = computer_choice(state, "greedy", random.Random(0))
    assert isinstance(choice, ScoredPlacement) and choice.score == best
    board = parse_board("/".join(["." * 13] * 6 + ["......55....."] + ["." * 13] * 6))
    blocked = replace(new_game_from_seed(21), board=board, current_player=0,
                      racks=((8, 8, 8, 9, 9, 9, 9), (1,) * 7))
    assert computer_move(blocked, "greedy", random.Random(0)) == Swap((8, 8, 8, 9, 9, 9, 9))
    assert computer_move(replace(blocked, bag=(1, 2)), "greedy", random.Random(0)) == Pass()


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_at_the_last_scoreless_turn_a_sure_win_passes_and_a_loss_plays_on(level: str) -> None:
    state = position_after(8, 12)
    player = state.current_player
    assert player is not None and state.bag
    assert any(m.score > 0 for m in legal_moves(state, best_wilds=True))
    scores = [0, 0]
    scores[player] = 300  # more than its rack could cost: passing ends the game and wins
    ahead = replace(state, scoreless_turns=5, scores=tuple(scores))
    assert isinstance(computer_choice(ahead, level, random.Random(3)), Pass)
    scores = [300, 300]
    scores[player] = 0  # ending now loses: it scores to keep the game going
    behind = replace(ahead, scores=tuple(scores))
    choice = computer_choice(behind, level, random.Random(3))
    assert isinstance(choice, ScoredPlacement) and choice.score > 0
