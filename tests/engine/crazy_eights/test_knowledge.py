"""What a seat knows from its view and the public history, and the deals sampled from it."""

from __future__ import annotations

import random

from games.crazy_eights.engine import (
    Options,
    apply_legal,
    apply_move,
    legal_moves,
    new_match,
    view_for,
)
from games.crazy_eights.engine.knowledge import knowledge, legal_moves_for_view, opening_record

from .helpers import make_state, random_options


def test_the_voids_the_history_shows_hold_for_the_real_hands() -> None:
    # At every step of random matches, for every seat: the known discards are the real ones,
    # each opponent's real hand keeps the inferred void, and sampled deals almost always do.
    rng = random.Random(21)
    voids_seen = broken = 0
    for match in range(10):
        state = new_match(seed=match, options=random_options(rng))
        history = [opening_record(state)]
        for _ in range(300):  # random play makes long rounds: their starts suffice
            if state.is_over:
                break
            for seat in range(state.players):
                k = knowledge(view_for(state, seat), history)
                assert k.discard == state.discard and k.unknown_discards == 0
                sample = k.sample_state(rng)
                assert sample.hands[seat] == state.hands[seat]
                assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
                cards = [c for h in sample.hands for c in h] + [*sample.stock, *sample.discard]
                assert sorted(cards) == list(range(52))
                for other, void in k.voids.items():
                    if other == seat:
                        continue
                    voids_seen += void.count > 0
                    real = [c for c in state.hands[other] if c not in void.excluded]
                    assert len(real) >= void.count
                    dealt = [c for c in sample.hands[other] if c not in void.excluded]
                    broken += len(dealt) < void.count
            result = apply_legal(state, rng.choice(legal_moves(state)))
            history.append(result.public_dict())
            state = result.state
    assert voids_seen > 100  # the inference is exercised, not vacuous
    # The greedy deal may rarely fail to cover two tight voids at once (it then relaxes).
    assert broken <= voids_seen // 200


def test_a_draw_shows_the_drawer_held_nothing_playable() -> None:
    state = make_state(["4C 5C", "9H 3D", "6C 7C"], "KS", stock="2S 3S 10D JD QC")
    opening = {"seat": None, "move": None, "events": [
        {"kind": "round_started", "round": 1, "dealer": 2, "starter": "KS", "returned": [],
         "hand_size": 2}]}
    after = apply_move(state, "draw")  # seat 0 holds no spade, no King, no 8
    k = knowledge(view_for(after.state, 1), [opening, after.public_dict()])
    void = k.voids[0]
    assert void.count == 2  # the two cards held before the draw; the drawn one is free
    spades_kings_eights = {c for c in range(52) if c % 4 == 3 or c // 4 + 2 in (8, 13)}
    assert void.excluded == spades_kings_eights
    assert not k.lacks(0, 3)  # the drawn card may be a spade
    # Without the round's opening the walk cannot be checked: nothing is inferred.
    assert knowledge(view_for(after.state, 1), [after.public_dict()]).voids == {}


def test_without_history_the_discards_are_unknown_but_counted() -> None:
    state = new_match(seed=3, options=Options(players=2))
    for _ in range(30):
        state = apply_legal(state, legal_moves(state)[0]).state
    k = knowledge(view_for(state, 0), [])
    assert k.discard == (state.discard[-1],)
    assert k.unknown_discards == len(state.discard) - 1
    sample = k.sample_state(random.Random(1))
    assert len(sample.discard) == len(state.discard) and sample.discard[-1] == state.top


def test_legal_moves_for_view_equal_the_states() -> None:
    rng = random.Random(4)
    for match in range(5):
        state = new_match(seed=match, options=random_options(rng))
        for _ in range(40):
            if state.is_over:
                break
            view = view_for(state, state.turn)
            assert legal_moves_for_view(view) == legal_moves(state)
            assert legal_moves_for_view(view_for(state, (state.turn + 1) % state.players)) == []
            state = apply_legal(state, rng.choice(legal_moves(state))).state
