"""The shape of a turn: must play, draw up to three, when a pass is allowed, the stock rebuilt."""

from games.crazy_eights.engine import (
    CardDrawn,
    CardsReceived,
    StockRebuilt,
    format_move,
    legal_moves,
    parse_card,
)

from .helpers import make_state, refusal, run


def moves(state):
    return sorted(format_move(m) for m in legal_moves(state))


def test_holding_a_playable_card_the_player_must_play():
    state = make_state(["7H 9C", "9D"], "5H")
    assert moves(state) == ["7H"]
    assert refusal(state, "draw") == "must_play"
    assert refusal(state, "pass") == "cannot_pass"


def test_an_unplayable_draw_is_followed_by_another_up_to_three_then_a_pass():
    state = make_state(["9C", "9D"], "5H", stock="3C 4D 6S 7H")
    assert moves(state) == ["draw"]
    assert refusal(state, "pass") == "cannot_pass"
    one, results = run(state, "draw")
    assert one.draws == 1 and one.drawn == parse_card("3C") and moves(one) == ["draw"]
    assert refusal(one, "pass") == "cannot_pass"
    assert refusal(one, "3C") == "does_not_match"
    three, _ = run(one, "draw", "draw")
    assert three.draws == 3 and sorted(three.hands[0]) == sorted(
        parse_card(c) for c in "9C 3C 4D 6S".split()
    )
    assert moves(three) == ["pass"]
    assert refusal(three, "draw") == "draw_limit"
    passed = run(three, "pass")[0]
    assert passed.turn == 1 and passed.draws == 0 and passed.drawn is None
    assert passed.stock == (parse_card("7H"),)
    # A draw is public (a card was drawn), which card only private.
    assert results[0].events == (CardDrawn(0),)
    assert results[0].private == CardsReceived(0, (parse_card("3C"),))
    assert "3C" not in str(results[0].public_dict())


def test_a_playable_drawn_card_may_be_played_or_kept_but_nothing_else():
    state = make_state(["9C 4S", "9D"], "5H", stock="4H 6S")
    drawn = run(state, "draw")[0]
    assert moves(drawn) == ["4H", "4H 4S", "pass"]
    assert refusal(drawn, "4S") == "drawn_card_first"
    assert refusal(drawn, "4S 4H") == "drawn_card_first"
    assert refusal(drawn, "draw") == "must_play"
    played = run(drawn, "4H 4S")[0]
    assert played.suit == 3 and played.turn == 1
    kept = run(drawn, "pass")[0]
    assert kept.turn == 1 and parse_card("4H") in kept.hands[0]


def test_a_drawn_eight_may_be_played():
    state = make_state(["9C", "9D"], "5H", stock="8S 6S")
    drawn = run(state, "draw")[0]
    assert moves(drawn) == ["8S/C", "8S/D", "8S/H", "8S/S", "pass"]


def test_with_nothing_to_draw_the_player_passes_at_once():
    state = make_state(["9C", "9D"], "5H", stock="")
    assert not state.can_draw
    assert moves(state) == ["pass"]
    assert refusal(state, "draw") == "stock_empty"
    assert run(state, "pass")[0].turn == 1


def test_the_stock_empties_mid_turn_and_the_player_passes_after_fewer_than_three_draws():
    state = make_state(["9C", "9D"], "5H", stock="3C")
    drawn = run(state, "draw")[0]
    assert moves(drawn) == ["pass"]
    assert refusal(drawn, "draw") == "stock_empty"


def test_an_empty_stock_is_rebuilt_from_the_discards_but_the_top_card():
    state = make_state(["9C", "9D"], "5H", stock="", under="3C 4D 6S 7D KH")
    result = run(state, "draw")[1][0]
    rebuilt = [e for e in result.events if isinstance(e, StockRebuilt)]
    assert rebuilt == [StockRebuilt(5)]
    after = result.state
    assert after.discard == (parse_card("5H"),) and after.rebuilds == 1
    assert len(after.stock) == 4
    assert sorted(after.stock + result.private.cards) == sorted(
        parse_card(c) for c in "3C 4D 6S 7D KH".split()
    )
    # Shuffled from the seed: the same position rebuilds the same way, another seed may not.
    assert run(state, "draw")[0] == after
    orders = {run(make_state(["9C", "9D"], "5H", stock="", under="3C 4D 6S 7D KH", seed=s),
                  "draw")[0].stock for s in range(8)}
    assert len(orders) > 1


def test_a_penalty_larger_than_the_stock_rebuilds_it_and_draws_what_there_is():
    state = make_state(["9C", "9D"], "5H", stock="3C", under="4D 6S", penalty=6)
    result = run(state, "take")[1][0]
    kinds = [e.kind for e in result.events]
    assert kinds == ["stock_rebuilt", "penalty_taken"]
    assert result.events[-1].to_dict() == {
        "kind": "penalty_taken", "seat": 0, "size": 6, "drawn": 3,
    }
    assert len(result.state.hands[0]) == 4 and result.state.stock == ()


def test_the_seat_asking_must_be_the_seat_to_act():
    state = make_state(["9C 5C", "9D 5D"], "5H")
    assert refusal(state, "5D", seat=1) == "not_your_turn"
    assert run(state, "5C")[0].turn == 1
