"""Action cards (2, Queen, Ace), several cards at once and going out (docs/rules.md)."""

from games.crazy_eights.engine import (
    SUITS,
    DirectionReversed,
    ExtraTurn,
    PenaltyRaised,
    PenaltyTaken,
    RoundOver,
    SeatsSkipped,
    SuitNamed,
    format_move,
    legal_moves,
)

from .helpers import kinds, make_state, refusal, run


def four(hands=("2H 9C", "2C 9D", "2D 9S", "2S 9H"), **kwargs):
    return make_state(list(hands), "5H", **kwargs)


def test_stacked_twos_grow_to_a_penalty_of_eight_and_the_taker_draws_all_and_loses_the_turn():
    state, results = run(four(), "2H", "2C", "2D", "2S")
    assert [e.total for r in results for e in r.events if isinstance(e, PenaltyRaised)] == [
        2, 4, 6, 8,
    ]
    assert state.penalty == 8 and state.turn == 0
    assert [format_move(m) for m in legal_moves(state)] == ["take"]
    taken = run(state, "take")[1][0]
    after = taken.state
    assert [e for e in taken.events if isinstance(e, PenaltyTaken)] == [PenaltyTaken(0, 8, 8)]
    assert len(after.hands[0]) == 1 + 8 and sorted(taken.private.cards) == sorted(
        set(after.hands[0]) - {state.hands[0][0]}
    )
    assert after.penalty == 0 and after.turn == 1 and after.draws == 0


def test_only_a_two_answers_a_two_not_an_eight():
    state = run(four(("2H 9C", "8C 2C 5D", "9D", "9S")), "2H")[0]
    assert state.turn == 1 and state.penalty == 2
    assert refusal(state, "8C/H") == "penalty_pending"
    assert refusal(state, "5D") == "penalty_pending"
    assert refusal(state, "draw") == "penalty_pending"
    assert refusal(state, "pass") == "penalty_pending"
    assert sorted(format_move(m) for m in legal_moves(state)) == ["2C", "take"]


def test_two_twos_at_once_add_four():
    state = make_state(["2H 2D 9C", "9D", "9S"], "5H")
    result = run(state, "2H 2D")[1][0]
    assert result.state.penalty == 4 and result.state.turn == 1
    assert PenaltyRaised(0, 4, 4) in result.events
    assert result.state.suit == SUITS.index("D")


def test_a_queen_skips_one_seat_and_two_queens_skip_two():
    state = four(("QH QS 9C", "9D", "9S", "9H"))
    one = run(state, "QH")[1][0]
    assert one.state.turn == 2 and SeatsSkipped(0, (1,)) in one.events
    two = run(state, "QH QS")[1][0]
    assert two.state.turn == 3 and SeatsSkipped(0, (1, 2)) in two.events
    backwards = run(four(("QH QS 9C", "9D", "9S", "9H"), direction=-1), "QH QS")[1][0]
    assert backwards.state.turn == 1 and SeatsSkipped(0, (3, 2)) in backwards.events


def test_an_ace_reverses_and_two_aces_restore_the_direction():
    state = four(("AH AS 9C", "9D", "9S", "9H"))
    one = run(state, "AH")[1][0]
    assert one.state.direction == -1 and one.state.turn == 3
    assert DirectionReversed(0, 1, -1) in one.events
    two = run(state, "AH AS")[1][0]
    assert two.state.direction == 1 and two.state.turn == 1
    assert DirectionReversed(0, 2, 1) in two.events


def test_with_two_players_skip_and_reverse_give_the_same_player_another_turn():
    for move in ("QH", "AH", "QH QS", "AH AS"):
        state = make_state(["QH QS AH AS 9C", "9D 9S"], "5H")
        result = run(state, move)[1][0]
        assert result.state.turn == 0, move
        assert ExtraTurn(0) in result.events, move
    reversed_once = run(make_state(["AH 9C", "9D"], "5H"), "AH")[0]
    assert reversed_once.direction == -1 and reversed_once.turn == 0


def test_going_out_on_an_action_card_ends_the_round_without_its_effect():
    for hand in ("2H", "QH", "AH", "2H 2S", "QH QC", "AH AC"):
        state = make_state([hand, "9D 9S", "9C 4D"], "5H", dealer=2, scores=(0, 0, 0))
        result = run(state, hand)[1][0]
        assert "round_over" in kinds(result) and "round_started" in kinds(result), hand
        assert not any(isinstance(e, PenaltyRaised | SeatsSkipped | DirectionReversed)
                       for e in result.events), hand
        after = result.state
        assert after.round == 2 and after.penalty == 0 and after.direction == 1, hand
        assert after.dealer == 0 and after.turn == 1, hand  # the next dealer, left of them


def test_the_last_of_several_cards_sets_the_suit():
    state = make_state(["5C 5D 5S 9H", "9D"], "5H")
    assert run(state, "5C 5D 5S")[0].suit == SUITS.index("S")
    assert run(state, "5S 5D 5C")[0].suit == SUITS.index("C")
    eights = make_state(["8C 8D 9H", "9D"], "5H")
    result = run(eights, "8C 8D/S")[1][0]
    assert result.state.suit == SUITS.index("S")
    assert [e for e in result.events if isinstance(e, SuitNamed)] == [SuitNamed(0, 3)]


def test_an_eight_is_wild_and_names_any_suit_including_its_own():
    state = make_state(["8C 9S", "9D"], "5H")
    assert run(state, "8C/C")[0].suit == SUITS.index("C")
    after = run(state, "8C/D")[0]
    assert after.suit == SUITS.index("D") and after.turn == 1
    assert {format_move(m) for m in legal_moves(after)} == {"9D"}


def test_a_named_suit_is_followed_until_another_card_changes_it():
    state = make_state(["8C 9S", "JD 3C"], "5H")
    after = run(state, "8C/D", "JD")[0]
    assert after.suit == SUITS.index("D") and after.turn == 0
    assert refusal(after, "9S") == "does_not_match"


def test_without_action_cards_2_queen_and_ace_are_plain_cards():
    state = four(("2H QH AH 9C", "9D", "9S", "9H"), actions=False)
    for move, turn in (("2H", 1), ("QH", 1), ("AH", 1)):
        result = run(state, move)[1][0]
        assert result.state.turn == turn and result.state.penalty == 0
        assert result.state.direction == 1
        assert kinds(result) == ["cards_played"]


def test_round_over_reveals_every_hand():
    state = make_state(["7H", "9D 9S", "KC"], "5H")
    result = run(state, "7H")[1][0]
    over = next(e for e in result.events if isinstance(e, RoundOver))
    assert over.hands == state.hands[:0] + ((),) + state.hands[1:]
    assert over.to_dict()["hands"] == [[], ["9D", "9S"], ["KC"]]
    assert result.state.last_round.hands == over.hands
