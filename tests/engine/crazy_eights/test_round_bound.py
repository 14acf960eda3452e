"""Every round ends (docs/rules.md, "Every round ends"): the stock is rebuilt at most three
times, so even players who try to keep a round going for ever cannot, and the round stays within
the bound ``max_round_moves`` proves from the rules."""

from __future__ import annotations

import itertools
import random

import pytest

from games.crazy_eights.engine import (
    CARD_NAMES,
    RANK,
    SUIT,
    GameState,
    IllegalMoveError,
    Move,
    Options,
    Pass,
    Play,
    Take,
    apply_legal,
    apply_move,
    legal_moves,
    new_match,
    view_for,
)
from games.crazy_eights.engine.cards import EIGHT
from games.crazy_eights.engine.knowledge import knowledge, legal_moves_for_view
from games.crazy_eights.engine.rollout import rollout
from games.crazy_eights.engine.state import MAX_REBUILDS, max_round_moves

from .helpers import make_state

RULE_SETS = [
    Options(players=n, actions=a, several=s, classic=c)
    for n, a, s, c in itertools.product((2, 3, 4), (True, False), (True, False), (True, False))
]
SEEDS_PER_RULE_SET = 8


def adversary(state: GameState, rng: random.Random, keeper: bool) -> Move:
    """A player out to make the round last. It peeks at the next hand: it lays its 8s whenever
    it can (a drawn one too, so the 8s keep travelling round), naming a suit the next player
    lacks, and takes every penalty. A ``keeper`` also keeps every drawn card and passes."""
    moves = legal_moves(state)
    if keeper and any(isinstance(m, Pass) for m in moves):
        return Pass()
    if any(isinstance(m, Take) for m in moves):
        return Take()
    plays = [m for m in moves if isinstance(m, Play)]
    if not plays:
        return moves[0]
    assert state.turn is not None
    nxt = state.hands[(state.turn + state.direction) % state.players]
    eights = [p for p in plays if len(p.cards) == 1 and RANK[p.cards[0]] == EIGHT]
    if eights:
        held = {SUIT[c] for c in nxt if RANK[c] != EIGHT}
        lacking = [p for p in eights if p.suit not in held]
        return rng.choice(lacking or eights)
    singles = [p for p in plays if len(p.cards) == 1]
    return rng.choice(singles or plays)


def play_round(state: GameState, rng: random.Random, keeper: bool, chaos: float = 0.0) -> int:
    """Play ``state``'s round to its end (adversarially, a share ``chaos`` of moves at random);
    the moves it took."""
    bound = max_round_moves(state.options)
    for moves in range(1, bound + 1):
        if rng.random() < chaos:
            move = rng.choice(legal_moves(state))
        else:
            move = adversary(state, rng, keeper)
        result = apply_legal(state, move)
        state = result.state
        assert state.rebuilds <= MAX_REBUILDS
        if result.round_over:
            return moves
    raise AssertionError(f"a round went past {bound} moves")


@pytest.mark.parametrize("options", RULE_SETS, ids=str)
def test_every_round_ends_within_the_bound_against_adversarial_players(options: Options) -> None:
    for seed in range(SEEDS_PER_RULE_SET):
        rng = random.Random(f"adversary:{seed}")
        state = new_match(seed=seed, options=options)
        keeper, chaos = seed % 2 == 0, 0.2 if seed % 4 >= 2 else 0.0
        assert play_round(state, rng, keeper, chaos) <= max_round_moves(options)


def eights_cycle(**options: object) -> GameState:
    """issue 24's endless round: every card but the 8s in two hands, one of clubs and diamonds,
    the other of hearts and spades; an 8 on top naming hearts, the other 8s in the stock. Each
    player draws an 8, lays it and names a suit the other lacks, and without the limit the 8s
    went stock → hand → pile for ever."""
    clubs_diamonds = " ".join(f"{r}{s}" for s in "CD" for r in RANKS_BUT_EIGHT)
    hearts_spades = " ".join(f"{r}{s}" for s in "HS" for r in RANKS_BUT_EIGHT)
    return make_state(
        [clubs_diamonds, hearts_spades], "8S", suit="H", stock="8C 8D 8H", **options
    )


RANKS_BUT_EIGHT = ("2", "3", "4", "5", "6", "7", "9", "10", "J", "Q", "K", "A")


@pytest.mark.parametrize("keeper", [False, True])
@pytest.mark.parametrize("actions", [False, True])
def test_the_eights_that_cycled_for_ever_now_end_the_round(keeper: bool, actions: bool) -> None:
    state = eights_cycle(actions=actions)
    assert play_round(state, random.Random(1), keeper) <= max_round_moves(state.options)


def test_the_strong_regulars_playout_of_the_endless_round_ends() -> None:
    """The strong regular's playouts raised "a playout did not end its round" on such a
    position (issue 24); now the playout ends, blocked after the third rebuild."""
    points = rollout(eights_cycle(actions=False), random.Random(5))
    assert len(points) == 2


def test_after_the_last_rebuild_an_empty_stock_is_not_rebuilt() -> None:
    hands, top = ["7C 9D", "KC 4S"], "5H"
    taken = set(" ".join(hands).split()) | {top}
    rest = " ".join(CARD_NAMES[c] for c in range(52) if CARD_NAMES[c] not in taken)
    state = make_state(hands, top, stock="", under=rest)
    last = GameState.from_dict({**state.to_dict(), "rebuilds": MAX_REBUILDS})
    assert last.last_stock and not last.can_draw
    assert view_for(last, 0)["last_stock"] is True
    # The regulars and the hint know it too: from the view alone, passing is all that is left.
    assert not knowledge(view_for(last, 0)).can_draw
    assert legal_moves_for_view(view_for(last, 0)) == [Pass()]
    with pytest.raises(IllegalMoveError) as refused:
        apply_move(last, "draw")
    assert refused.value.code == "stock_empty"
    # Nobody can draw: each passes, and when every seat has passed the round is blocked.
    first = apply_move(last, "pass")
    assert not first.round_over
    second = apply_move(first.state, "pass")
    assert second.round_over
    # One rebuild fewer: the same position rebuilds the stock and the player draws.
    earlier = GameState.from_dict({**state.to_dict(), "rebuilds": MAX_REBUILDS - 1})
    assert not earlier.last_stock and view_for(earlier, 0)["last_stock"] is False
    drew = apply_move(earlier, "draw")
    assert drew.state.rebuilds == MAX_REBUILDS and drew.state.last_stock


def test_a_state_stored_before_the_limit_loads_with_no_rebuilds() -> None:
    state = new_match(seed=3)
    data = state.to_dict()
    del data["rebuilds"]
    assert GameState.from_dict(data).rebuilds == 0
