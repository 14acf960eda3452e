"""Dealing, the starter card, dealer rotation, round scoring, blocked rounds and match end."""

import random

import pytest

from games.crazy_eights.engine import (
    RANK,
    MatchOver,
    Options,
    Resign,
    RoundOver,
    RoundStarted,
    Termination,
    apply_legal,
    apply_move,
    cards_in_play,
    legal_moves,
    new_match,
    outcome,
)
from games.crazy_eights.engine.state import STARTER_RETURNED, deal_round, first_dealer

from .helpers import make_state, run


def round_over(result):
    return next(e for e in result.events if isinstance(e, RoundOver))


@pytest.mark.parametrize(
    ("players", "classic", "size"),
    [(2, False, 7), (3, False, 7), (4, False, 7), (2, True, 7), (3, True, 5), (4, True, 5)],
)
def test_hand_sizes(players, classic, size):
    state = new_match(seed=5, options=Options(players=players, classic=classic))
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.stock) == 52 - players * size - 1
    assert cards_in_play(state) == list(range(52))


def test_the_first_dealer_comes_from_the_seed_and_play_starts_on_their_left():
    dealers = set()
    for seed in range(40):
        state = new_match(seed=seed, options=Options(players=4))
        assert state.dealer == first_dealer(seed, 4)
        assert state.turn == (state.dealer + 1) % 4 and state.direction == 1
        dealers.add(state.dealer)
    assert dealers == {0, 1, 2, 3}


def test_a_starter_eight_two_queen_or_ace_goes_back_into_the_deck():
    returned_ranks = set()
    for seed in range(300):
        for options in (Options(players=3), Options(players=3, classic=True)):
            hands, stock, discard, event = deal_round(options, seed, 1, 0)
            assert RANK[discard[-1]] not in STARTER_RETURNED
            assert event.starter == discard[-1]
            for c in event.returned:
                assert RANK[c] in STARTER_RETURNED and c in stock
            returned_ranks |= {RANK[c] for c in event.returned}
            assert sorted([c for h in hands for c in h] + list(stock) + list(discard)) == list(
                range(52)
            )
    assert returned_ranks == set(STARTER_RETURNED)


def test_the_deal_is_determined_by_seed_and_round():
    options = Options(players=4)
    assert deal_round(options, 9, 1, 0) == deal_round(options, 9, 1, 0)
    assert deal_round(options, 9, 1, 0)[0] != deal_round(options, 9, 2, 0)[0]
    assert deal_round(options, 9, 1, 0)[0] != deal_round(options, 10, 1, 0)[0]


def test_the_dealer_moves_one_seat_each_round():
    rng = random.Random(4)
    options = Options(players=3)
    state = new_match(seed=77, options=options)
    dealers = [state.dealer]
    while state.result is None:
        result = apply_legal(state, rng.choice(legal_moves(state)))
        for event in result.events:
            if isinstance(event, RoundStarted):
                assert event.dealer == (dealers[-1] + 1) % 3
                assert result.state.turn == (event.dealer + 1) % 3
                dealers.append(event.dealer)
        state = result.state
    assert len(dealers) >= 3


def test_default_scoring_the_others_count_their_hands():
    state = make_state(["7H", "8C 2D QS AH", "JC KD 10S 3C"], "5H")
    result = run(state, "7H")[1][0]
    assert round_over(result).points == (0, 110, 33)
    assert result.state.scores == (0, 110, 33)
    assert result.state.round == 2 and result.state.result is None


def test_classic_scoring_the_goer_out_scores_the_others_hands():
    state = make_state(["7H", "8C 2D QS AH", "JC KD 10S 3C"], "5H", classic=True)
    result = run(state, "7H")[1][0]
    assert round_over(result).points == (50 + 2 + 10 + 1 + 10 + 10 + 10 + 3, 0, 0)


def test_a_blocked_classic_round_the_lowest_hand_scores_the_difference():
    state = make_state(["9C 3D", "9D JS", "KD 2S"], "5H", stock="", classic=True)
    after, results = run(state, "pass", "pass")
    assert results[-1].state.passes == 2 and not results[-1].round_over
    result = run(after, "pass")[1][0]
    over = round_over(result)
    # classic values 12, 19, 12: two lowest hands tie, nobody scores (see scoring.round_points)
    assert over.reason == "blocked" and over.winner is None and over.points == (0, 0, 0)
    state = make_state(["9C 3D", "9D JS", "KD 4S"], "5H", stock="", classic=True)
    result = run(state, "pass", "pass", "pass")[1][-1]
    over = round_over(result)
    assert over.winner == 0 and over.points == ((19 - 12) + (14 - 12), 0, 0)
    assert result.state.scores == (9, 0, 0) and result.state.round == 2


def test_a_blocked_default_round_every_player_adds_their_own_hand():
    state = make_state(["9C 3D", "9D JS", "KD 2S"], "5H", stock="")
    result = run(state, "pass", "pass", "pass")[1][-1]
    over = round_over(result)
    assert over.reason == "blocked" and over.winner is None
    assert over.points == (12, 19, 30) and result.state.scores == (12, 19, 30)


def test_a_play_breaks_the_run_of_passes():
    state = make_state(["9C 3D", "9D JS", "KD 2S 5S"], "5H", stock="")
    after = run(state, "pass", "pass", "5S")[0]
    assert after.passes == 0 and after.round == 1


def test_the_blocked_rule_needs_the_stock_to_be_unrebuildable():
    state = make_state(["9C", "9D", "KD"], "5H", stock="", under="2C")
    # the stock can be rebuilt, so each player draws instead of passing at once
    assert [m.__class__.__name__ for m in legal_moves(state)] == ["Draw"]


def test_a_tie_for_lowest_plays_another_round():
    state = make_state(["7H", "3C", "10H"], "5H", scores=(40, 37, 140))
    result = run(state, "7H")[1][0]
    assert result.state.scores == (40, 40, 150)
    assert result.state.result is None and result.state.round == 2
    assert not any(isinstance(e, MatchOver) for e in result.events)


def test_at_the_target_the_lowest_total_wins():
    state = make_state(["7H", "3C", "10H"], "5H", scores=(30, 37, 140))
    result = run(state, "7H")[1][0]
    assert result.state.scores == (30, 40, 150) and result.state.turn is None
    final = outcome(result.state)
    assert final.termination is Termination.TARGET_REACHED
    assert final.winners == (0,) and final.winner == 0 and final.ranking == (0, 1, 2)
    assert [e.kind for e in result.events] == ["cards_played", "round_over", "match_over"]
    assert result.state.last_round.points == (0, 3, 10)


def test_a_fixed_target_ends_the_match_there():
    state = make_state(["7H", "10C"], "5H", scores=(0, 95), target=100)
    assert outcome(run(state, "7H")[0]).winners == (0,)
    state = make_state(["7H", "10C"], "5H", scores=(0, 95), target=200)
    assert outcome(run(state, "7H")[0]) is None


def test_classic_first_to_100_wins():
    state = make_state(["7H", "5C", "6D"], "5H", scores=(89, 60, 0), classic=True)
    result = run(state, "7H")[1][0]
    final = outcome(result.state)
    assert result.state.scores == (100, 60, 0)
    assert final.winners == (0,) and final.ranking == (0, 1, 2)
    state = make_state(["7H", "5C", "2D"], "5H", scores=(89, 60, 0), classic=True)
    assert outcome(run(state, "7H")[0]) is None


def test_resigning_ends_the_match_with_the_resigner_last():
    state = make_state(["7H", "5C", "6D"], "5H", scores=(10, 30, 20))
    result = run(state, "resign")[1][0]
    final = outcome(result.state)
    assert final.termination is Termination.RESIGNATION and final.resigned == 0
    assert final.ranking == (2, 1, 0) and final.winners == (2,)
    assert result.move.seat == 0
    other = apply_move(state, Resign(1))
    assert outcome(other.state).ranking == (0, 2, 1) and other.seat == 1
    tie = make_state(["7H", "5C", "6D"], "5H", scores=(10, 10, 20))
    assert outcome(apply_move(tie, Resign(2)).state).winners == (0, 1)
