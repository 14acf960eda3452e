"""Object reprs end up in tracebacks and error reports: they must not carry hidden information."""

import random

from games.crazy10s.engine import apply_move, format_rack, new_game


def test_state_and_move_result_reprs_hide_seed_racks_and_bag():
    state = new_game(rng=random.Random(12345))
    result = apply_move(state, "pass")
    for text in (repr(state), repr(result), repr(result.state)):
        assert str(state.seed) not in text
        assert "racks=" not in text and "bag=" not in text and "drawn=" not in text
        assert format_rack(state.bag[:10]) not in text.replace(", ", "")
