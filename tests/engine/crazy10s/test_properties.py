"""Property tests: random games played to the end keep every invariant at every step."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.crazy10s.engine import (
    FULL_BAG,
    GameState,
    Options,
    Resign,
    Termination,
    apply_move,
    new_game_from_seed,
    rack_value,
    replay,
    replay_notation,
    tiles_in_play,
)

from .helpers import maximal_lines, random_move

MAX_TURNS = 1000  # far beyond any real game: reaching it means the game failed to end

options_strategy = st.builds(
    Options,
    size=st.sampled_from([13, 11]),
    layout=st.sampled_from(["classic", "random"]),
    seven_tile_bonus=st.booleans(),
)


def check_invariants(state: GameState) -> None:
    assert tiles_in_play(state) == sorted(FULL_BAG)
    assert all(sum(line) == 10 for line in maximal_lines(state.board))
    assert all(len(rack) <= 7 and list(rack) == sorted(rack) for rack in state.racks)
    if not state.is_over:
        assert state.scoreless_turns < 6
        assert len(state.racks[0]) == 7 or not state.bag  # racks refill while the bag lasts
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data) == state
    assert GameState.from_dict(data).to_dict() == state.to_dict()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), options=options_strategy, chooser=st.integers(0, 10**9))
def test_random_games_keep_every_invariant_and_end(seed, options, chooser):
    rng = random.Random(chooser)
    state = new_game_from_seed(seed, options)
    check_invariants(state)
    states, notes = [state], []
    totals = [0, 0]
    while not state.is_over and len(notes) < MAX_TURNS:
        move = Resign(rng.randrange(2)) if rng.random() < 0.003 else random_move(state, rng)
        result = apply_move(state, move)
        totals[result.player] += result.score
        state = result.state
        notes.append(replay_notation(result))
        states.append(state)
        check_invariants(state)
        assert state.move_number == len(notes)
    assert state.is_over, "the game did not end"

    final = state.result
    assert list(final.scores) == [totals[p] + final.adjustments[p] for p in (0, 1)]
    if final.termination is Termination.RACK_EMPTIED:
        emptied = 0 if not state.racks[0] else 1
        assert not state.bag and not state.racks[emptied]
        assert final.adjustments[emptied] == rack_value(state.racks[1 - emptied])
    if final.termination is Termination.SCORELESS_TURNS:
        assert final.adjustments == (-rack_value(state.racks[0]), -rack_value(state.racks[1]))
    if final.scores[0] != final.scores[1] and final.termination is not Termination.RESIGNATION:
        assert final.winner == (0 if final.scores[0] > final.scores[1] else 1)

    # Replaying any prefix of the move list from the seed reproduces the state at that point.
    for k in range(len(notes) + 1):
        assert replay(seed, options, notes[:k]) == states[k]
