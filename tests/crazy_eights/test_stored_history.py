"""The stored state keeps only the public records something still reads (``kind._still_read``):
the regulars, the hints and the coach answer exactly as they would with the whole match's
records, while the state of a long match stays the size of about one round."""

from __future__ import annotations

import json
import random

import pytest

from games import kinds
from games.crazy_eights import engine as c8
from games.crazy_eights.engine.knowledge import knowledge
from games.crazy_eights.kind import MatchState

KIND = kinds.get("crazy_eights")


@pytest.mark.parametrize(("seats", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_what_reads_the_records_reads_the_same_as_with_the_whole_match(seats, seed):
    rng = random.Random(seed)
    state = KIND.new_state(seed=seed, options=KIND.options(), seats=seats)
    full = list(state.history)
    rounds = set()
    for _ in range(2000):
        engine = state.engine
        if engine.is_over:
            break
        seat = engine.turn
        whole = MatchState(engine, tuple(full))
        for asking in range(seats):
            assert KIND.coach(state, asking) == KIND.coach(whole, asking)
            view = c8.view_for(engine, asking)
            assert knowledge(view, state.history) == knowledge(view, whole.history)
        if rng.random() < 0.3:  # the regulars decide from the records too
            level = rng.choice(KIND.levels)
            assert KIND.computer_move(state, level, random.Random(seed)) == KIND.computer_move(
                whole, level, random.Random(seed))
        move = rng.choice(c8.legal_moves(engine))
        played = KIND.play(state, move, seat=seat)
        full.append(c8.apply_move(engine, move, seat).public_dict())
        state = played.state
        assert tuple(full[-len(state.history):]) == state.history  # the latest, in order
        rounds.add(state.engine.round)
    assert state.engine.is_over and len(rounds) > 1  # rounds ended and were dealt again


def test_a_long_match_keeps_about_one_round_of_records():
    rng = random.Random(5)
    state = KIND.new_state(seed=5, options=KIND.options(), seats=2)
    longest = 0
    played = 0
    while not state.engine.is_over:
        move = rng.choice(c8.legal_moves(state.engine))
        state = KIND.play(state, move, seat=state.engine.turn).state
        played += 1
        longest = max(longest, len(json.dumps(KIND.dump(state)["history"])))
    assert state.engine.round >= 3 and played > 150
    # The whole match's records came to ~100 bytes a move; what is kept is one round's worth.
    assert longest < 60 * played
