"""view_for: what one player may see (never the opponent's rack, the bag or the seed)."""

import json
from dataclasses import replace

from games.crazy10s.engine import Resign, apply_move, format_rack, new_game_from_seed, view_for

from .helpers import board_from, state_with

SEED = 987654321987


def hidden_state():
    """A started game whose racks, bag and seed are all distinctive."""
    state = new_game_from_seed(SEED)
    player = state.current_player
    return state, player


def test_view_shows_own_rack_and_public_facts():
    state, player = hidden_state()
    view = view_for(state, player)
    assert view["rack"] == [format_rack((t,)) for t in state.racks[player]]
    assert view["opponent_rack_size"] == 7
    assert view["bag_size"] == 66
    assert view["your_turn"] is True and view_for(state, 1 - player)["your_turn"] is False
    assert view["scores"] == {"you": 0, "opponent": 0}
    assert view["scoreless_turns"] == 0 and view["game_over"] is False
    assert len(view["board"]) == 13 and view["board"][6] == "." * 13
    assert {"square": "g7", "kind": "★"} in view["bonus_squares"]


def test_view_never_carries_the_opponents_rack_the_bag_or_the_seed():
    state = new_game_from_seed(SEED)
    for player in (0, 1):
        view = view_for(state, player)
        text = json.dumps(view)
        assert str(SEED) not in text and "seed" not in text
        assert {"racks", "bag", "seed", "opponent_rack", "final_racks"}.isdisjoint(view)
        lists = [v for v in _walk(view) if isinstance(v, list)]
        assert [format_rack((t,)) for t in state.bag] not in lists
        assert list(state.bag) not in lists


def test_no_tile_of_the_opponents_rack_appears_in_the_view():
    # Player 0 holds only 1s, player 1 only 8s and 9s: no "8" or "9" may reach player 0.
    state = state_with(board_from({"g6": 5, "g7": 5}), ("1111111", "8888999"))
    text = json.dumps(view_for(state, 0))
    assert '"8"' not in text and '"9"' not in text and "8888999" not in text
    assert view_for(state, 0)["rack"] == ["1"] * 7
    assert view_for(state, 1)["rack"] == ["8"] * 4 + ["9"] * 3


def test_final_racks_are_shown_once_the_game_is_over():
    state = state_with(board_from({"g6": 5, "g7": 5}), ("1111111", "8888999"), scores=(50, 10))
    state = replace(state, seed=SEED)
    over = apply_move(state, Resign(0)).state
    view = view_for(over, 1)
    assert view["game_over"] is True
    assert view["final_racks"] == {"you": ["8"] * 4 + ["9"] * 3, "opponent": ["1"] * 7}
    assert view["result"] == {
        "termination": "resignation", "outcome": "win", "adjustments": {"you": 0, "opponent": 0},
    }
    assert view_for(over, 0)["result"]["outcome"] == "loss"
    assert str(over.seed) not in json.dumps(view)


def _walk(value):
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)
