"""A seat sees its own hand and public facts only; reprs hide hidden information."""

import json
import random

from games.crazy_eights.engine import (
    CARD_NAMES,
    Options,
    apply_move,
    format_card,
    legal_moves,
    new_match,
    view_for,
)

from .helpers import make_state, run


def card_names_in(value):
    """Every card name found anywhere in a JSON-ready value."""
    names = set(CARD_NAMES)
    found = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= card_names_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= card_names_in(v)
    elif isinstance(value, str):
        found |= {token for token in value.split() if token in names}
    return found


def test_a_seat_sees_its_hand_the_others_sizes_and_the_public_facts():
    state = make_state(["7H 9C", "5C 6D KS", "2D"], "5H", stock="3C 4D", under="JD")
    view = view_for(state, 1)
    assert view["hand"] == ["5C", "6D", "KS"]
    assert view["hand_sizes"] == [2, 3, 1]
    assert view["top"] == "5H" and view["suit"] == "H"
    assert view["stock_size"] == 2 and view["discard_size"] == 2
    assert view["turn"] == 0 and view["your_turn"] is False and view["direction"] == 1
    assert view["penalty"] == 0 and view["draws"] == 0 and view["drawn"] is None
    assert view["scores"] == [0, 0, 0] and view["round"] == 1 and view["dealer"] == 2
    assert view["last_round"] is None and view["result"] is None
    assert card_names_in(view) == {"5C", "6D", "KS", "5H"}
    json.dumps(view)


def test_the_spectator_sees_no_hand():
    state = make_state(["7H 9C", "5C 6D KS"], "5H")
    view = view_for(state, None)
    assert "hand" not in view and "drawn" not in view
    assert card_names_in(view) == {"5H"}


def test_the_drawer_sees_the_drawn_card_the_others_only_that_a_card_was_drawn():
    state = make_state(["9C", "9D"], "5H", stock="4H 6S")
    drawn = run(state, "draw")[0]
    assert view_for(drawn, 0)["drawn"] == "4H" and view_for(drawn, 0)["draws"] == 1
    assert view_for(drawn, 1)["drawn"] is None
    assert "4H" not in card_names_in(view_for(drawn, 1))
    assert view_for(drawn, 1)["hand_sizes"] == [2, 1]


def test_every_hand_is_shown_once_the_round_is_over():
    state = make_state(["7H", "5C 6D", "KS"], "5H")
    after = run(state, "7H")[0]
    for seat in (0, 1, 2, None):
        last = view_for(after, seat)["last_round"]
        assert last["hands"] == ["", "5C 6D", "KS"] and last["points"] == [0, 11, 10]
        assert last["reason"] == "out" and last["winner"] == 0


def test_views_never_show_the_seed_or_the_stock():
    state = new_match(seed=987654321987, options=Options(players=3))
    for seat in (0, 1, 2, None):
        text = json.dumps(view_for(state, seat))
        assert "987654321987" not in text
        assert not card_names_in(json.loads(text)) & {format_card(c) for c in state.stock}


def test_reprs_hide_hands_stock_discards_seed_and_the_drawn_card():
    state = new_match(seed=123456789123, options=Options(players=4))
    rng = random.Random(1)
    rounds = 0
    while state.result is None:
        result = apply_move(state, rng.choice(legal_moves(state)))
        for text in (repr(state), str(state), repr(result.state)):
            assert "123456789123" not in text
            for hidden in ("hands=", "stock=", "discard=", "drawn=", "seed="):
                assert hidden not in text
        # Public events may show played and revealed cards, never the private draw or stock.
        text = repr(result)
        assert "private=" not in text and "123456789123" not in text
        assert not result.state.stock or str(result.state.stock) not in text
        rounds += result.round_over
        state = result.state
    assert rounds >= 2
