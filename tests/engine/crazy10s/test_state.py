"""Game state: bag, racks, other turns, both endings, serialisation and replay."""

import json
import random
from collections import Counter

from games.crazy10s.engine import (
    FULL_BAG,
    WILD,
    GameState,
    Options,
    Pass,
    Resign,
    Swap,
    Termination,
    apply_move,
    new_game,
    new_game_from_seed,
    outcome,
    parse_rack,
    rack_value,
    replay,
    replay_notation,
    tiles_in_play,
)

from .helpers import board_from, random_move, state_with

STARTED = board_from({"g6": 5, "g7": 5})


def test_the_bag_holds_the_eighty_tiles_of_the_rules():
    assert len(FULL_BAG) == 80
    assert Counter(FULL_BAG) == {
        0: 6, 1: 10, 2: 10, 3: 10, 4: 10, 5: 9, 6: 8, 7: 7, 8: 4, 9: 3, WILD: 3,
    }


def test_a_new_game_deals_two_racks_of_seven():
    state = new_game_from_seed(42)
    assert [len(r) for r in state.racks] == [7, 7]
    assert len(state.bag) == 66
    assert tiles_in_play(state) == sorted(FULL_BAG)
    assert state.board.is_empty and state.scores == (0, 0) and state.move_number == 0
    assert state.current_player == state.first_player


def test_new_games_are_determined_by_the_seed_and_the_first_player_varies():
    assert new_game_from_seed(5) == new_game_from_seed(5)
    assert new_game_from_seed(5).bag != new_game_from_seed(6).bag
    assert {new_game_from_seed(s).first_player for s in range(20)} == {0, 1}
    a = new_game(rng=random.Random(3))
    assert a == new_game(rng=random.Random(3))
    assert new_game(options=Options(size=11), rng=random.Random(3)).board.size == 11


def test_a_placement_refills_the_rack_from_the_front_of_the_bag():
    state = state_with(None, ("3712345", "1234567"))
    result = apply_move(state, "g7=3 h7=7")
    assert result.drawn == state.bag[:2]
    assert result.state.racks[0] == tuple(sorted(parse_rack("12345") + state.bag[:2]))
    assert result.state.bag == state.bag[2:]
    assert result.state.current_player == 1 and result.state.scores == (20, 0)
    assert tiles_in_play(result.state) == sorted(FULL_BAG)


def test_a_short_bag_refills_fewer_tiles():
    state = state_with(STARTED, ("1234567", "1234567"), bag=(9,))
    result = apply_move(state, "f7=2 h7=3")
    assert result.drawn == (9,)
    assert result.state.racks[0] == (1, 4, 5, 6, 7, 9)
    assert result.state.bag == () and not result.ended


def test_pass_scores_nothing_and_hands_over_the_turn():
    state = state_with(STARTED, scores=(10, 4))
    for move in (Pass(), Pass(timeout=True), "pass"):
        result = apply_move(state, move)
        after = result.state
        assert result.score == 0 and after.scores == (10, 4)
        assert after.current_player == 1 and after.scoreless_turns == 1
        assert after.racks == state.racks and after.bag == state.bag


def test_swap_draws_first_then_returns_the_tiles_to_the_bag():
    state = new_game_from_seed(11)
    player = state.current_player
    rack = state.racks[player]
    returned = rack[:3]
    result = apply_move(state, Swap(returned))
    after = result.state
    assert result.drawn == state.bag[:3] and result.swapped_count == 3 and result.score == 0
    kept = list(rack[3:])
    assert after.racks[player] == tuple(sorted(kept + list(state.bag[:3])))
    assert sorted(after.bag) == sorted(list(state.bag[3:]) + list(returned))
    assert after.racks[1 - player] == state.racks[1 - player]
    assert after.scoreless_turns == 1 and after.current_player == 1 - player
    assert tiles_in_play(after) == sorted(FULL_BAG)


def test_swap_never_draws_back_the_returned_tiles_from_a_bag_of_exactly_k():
    state = state_with(STARTED, ("1234567", "1234567"), bag=(8, 9))
    result = apply_move(state, "swap 1 2")
    assert result.state.racks[0] == (3, 4, 5, 6, 7, 8, 9)
    assert sorted(result.state.bag) == [1, 2]


def test_either_player_may_resign_at_any_time_and_loses_even_when_ahead():
    state = state_with(STARTED, scores=(100, 3), current=0)
    for resigning in (0, 1):
        result = apply_move(state, Resign(resigning))
        final = outcome(result.state)
        assert result.ended and result.player == resigning
        assert final.termination is Termination.RESIGNATION
        assert final.winner == 1 - resigning
        assert final.scores == (100, 3) and final.adjustments == (0, 0)
        assert result.state.current_player is None
    assert outcome(apply_move(state, "resign").state).winner == 1  # the player to move
    assert outcome(apply_move(new_game_from_seed(1), Resign(0)).state).winner == 1  # move 0


def test_emptying_the_rack_with_the_bag_empty_ends_the_game():
    # The opponent keeps 4, 5 and a wild: worth 9 (a wild counts 0).
    state = state_with(STARTED, ("23", "45*"), bag=(), scores=(20, 30))
    result = apply_move(state, "f7=2 h7=3")
    final = outcome(result.state)
    assert result.ended and final.termination is Termination.RACK_EMPTIED
    assert final.adjustments == (9, 0)
    assert final.scores == result.state.scores == (20 + 10 + 9, 30)
    assert final.winner == 0
    assert result.state.current_player is None


def test_emptying_the_rack_while_the_bag_has_tiles_goes_on():
    state = state_with(STARTED, ("23", "45*"), bag=(1, 1))
    result = apply_move(state, "f7=2 h7=3")
    assert not result.ended and result.state.racks[0] == (1, 1)


def test_six_scoreless_turns_end_the_game_with_own_racks_subtracted():
    state = new_game_from_seed(3)
    for turn in range(6):
        assert not state.is_over
        move = Swap(state.racks[state.current_player][:1]) if turn % 3 == 1 else Pass(turn == 2)
        state = apply_move(state, move).state
        assert state.scoreless_turns == turn + 1
    final = outcome(state)
    assert final.termination is Termination.SCORELESS_TURNS
    values = (rack_value(state.racks[0]), rack_value(state.racks[1]))
    assert final.adjustments == (-values[0], -values[1])
    assert final.scores == (-values[0], -values[1])


def test_a_scoring_turn_resets_the_scoreless_count():
    state = state_with(STARTED, scoreless=5)
    result = apply_move(state, "f7=2 h7=3")
    assert result.state.scoreless_turns == 0 and not result.ended
    assert apply_move(result.state, "pass").state.scoreless_turns == 1


def test_scoreless_ending_with_a_wild_worth_zero_and_the_winner():
    state = state_with(STARTED, ("9*", "11"), bag=(), scores=(30, 25), scoreless=5)
    final = outcome(apply_move(state, "pass").state)
    assert final.adjustments == (-9, -2)
    assert final.scores == (21, 23) and final.winner == 1


def test_equal_final_scores_are_a_draw():
    state = state_with(STARTED, ("5", "23"), bag=(), scores=(20, 20), scoreless=5)
    final = outcome(apply_move(state, "pass").state)
    assert final.scores == (15, 15) and final.winner is None
    assert outcome(state) is None


def play_out(seed: int, options: Options, max_turns: int = 400):
    """A game played with random moves; returns the states and the replay notation."""
    rng = random.Random(seed)
    state = new_game_from_seed(seed, options)
    states, notes = [state], []
    while not state.is_over and len(notes) < max_turns:
        move = Resign(rng.randrange(2)) if rng.random() < 0.002 else random_move(state, rng)
        result = apply_move(state, move)
        notes.append(replay_notation(result))
        state = result.state
        states.append(state)
    return states, notes


def test_to_dict_from_dict_round_trips_exactly_through_json():
    states, _ = play_out(8, Options(layout="random"), max_turns=40)
    for state in states:
        data = json.loads(json.dumps(state.to_dict()))
        back = GameState.from_dict(data)
        assert back == state
        assert back.to_dict() == state.to_dict()


def test_a_finished_game_round_trips_with_its_result():
    state = apply_move(state_with(STARTED, ("23", "45*"), bag=()), "f7=2 h7=3").state
    data = json.loads(json.dumps(state.to_dict()))
    assert data["result"]["termination"] == "rack_emptied"
    assert GameState.from_dict(data) == state


def test_replay_reproduces_a_stored_game():
    for seed, options in ((21, Options()), (22, Options(size=11, seven_tile_bonus=False))):
        states, notes = play_out(seed, options)
        assert any("=" in n for n in notes)  # the game includes placements
        assert replay(seed, options, notes) == states[-1]
        assert replay(seed, options, notes[:5]) == states[5]


def test_replay_reads_a_resignation_by_the_player_not_to_move():
    state = new_game_from_seed(4)
    result = apply_move(state, Resign(1 - state.current_player))
    note = replay_notation(result)
    assert note == f"resign@{1 - state.current_player}"
    assert replay(4, Options(), [note]) == result.state
