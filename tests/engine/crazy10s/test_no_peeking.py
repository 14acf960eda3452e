"""Computer players decide only from what their seat may know (issue 16).

The opponent's rack, the bag's order and the game's seed are hidden from the player to move:
dealing the unseen tiles differently between the opponent's rack and the bag (and changing the
seed) must not change its choice, given the same random generator.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.crazy10s.engine import GameState, computer_choice
from games.crazy10s.engine.players import PLAYERS, unseen_tiles

from .test_players import play, position_after


def redealt(state: GameState, rng: random.Random) -> GameState:
    """The same position from the mover's seat, with the hidden tiles dealt another way."""
    player = state.current_player
    assert player is not None
    opponent = 1 - player
    pool = list(state.racks[opponent] + state.bag)
    rng.shuffle(pool)
    size = len(state.racks[opponent])
    rack = tuple(sorted(pool[:size]))
    racks = (state.racks[0], rack) if opponent == 1 else (rack, state.racks[1])
    return replace(state, racks=racks, bag=tuple(pool[size:]), seed=rng.getrandbits(63))


def positions() -> list[GameState]:
    found = [position_after(41, 0), position_after(42, 12), position_after(43, 24)]
    # Play on to an empty bag, where the expert looks ahead at the opponent's known rack.
    state = position_after(44, 20)
    while state.bag and not state.is_over:
        state = play(state, computer_choice(state, "strong", random.Random(0)))
    assert not state.is_over
    found.append(state)
    return found


@pytest.mark.parametrize("level", PLAYERS)
def test_hidden_tiles_do_not_change_the_choice(level: str) -> None:
    shuffler = random.Random(level)
    for state in positions():
        choice = computer_choice(state, level, random.Random(5))
        changed = 0
        for _ in range(2):
            other = redealt(state, shuffler)
            assert unseen_tiles(other) == unseen_tiles(state)  # what the seat sees is equal
            # With an empty bag every unseen tile is on the opponent's rack: only the seed moves.
            changed += other.racks != state.racks or other.bag != state.bag or not state.bag
            assert other.seed != state.seed
            assert computer_choice(other, level, random.Random(5)) == choice
        assert changed  # the test really moved hidden tiles
