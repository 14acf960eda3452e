"""legal_moves lists each distinct play validate_move accepts exactly once (``play_key``)."""

import itertools
import random

from games.crazy_eights.engine import (
    RANK,
    Draw,
    IllegalMoveError,
    Pass,
    Play,
    Take,
    apply_move,
    format_move,
    legal_moves,
    new_match,
    parse_hand,
    validate_move,
)
from games.crazy_eights.engine.rules import play_key

from .helpers import make_state, random_move, random_options


def accepted(state, move):
    try:
        validate_move(state, move)
    except IllegalMoveError:
        return False
    return True


def candidates(state):
    """Every ordered pair of cards from the hand and every ordering of every set of cards of
    one rank (with and without each suit), draw, take, pass."""
    hand = state.hands[state.turn]
    moves = [Draw(), Take(), Pass()]
    sequences = set(itertools.permutations(hand, 2))
    for rank in {RANK[c] for c in hand}:
        group = [c for c in hand if RANK[c] == rank]
        for size in range(1, len(group) + 1):
            sequences.update(itertools.permutations(group, size))
    for seq in sequences:
        moves.append(Play(seq))
        moves.extend(Play(seq, s) for s in range(4))
    return moves


def test_legal_moves_match_validation_in_random_positions():
    rng = random.Random(3)
    checked = 0
    for _ in range(25):
        state = new_match(seed=rng.getrandbits(32), options=random_options(rng))
        for _ in range(60):
            if state.result is not None:
                break
            legal = legal_moves(state)
            keys = [play_key(m) if isinstance(m, Play) else m for m in legal]
            assert len(set(keys)) == len(keys), "a play is listed twice"
            assert all(accepted(state, m) for m in legal)
            expected = {
                play_key(m) if isinstance(m, Play) else m
                for m in candidates(state)
                if accepted(state, m)
            }
            assert set(keys) == expected, format_move(legal[0])
            checked += 1
            state = apply_move(state, random_move(state, rng)).state
    assert checked > 300


def test_several_same_rank_cards_count_subsets_and_last_card_not_order():
    state = make_state(["5C 5D 5H 5S KD", "3C"], "5S", stock="2C 3D", under="4S")
    # Every 5 matches, so a play is a set of 5s and which of them is last: 4 alone, 6 pairs
    # * 2, 4 triples * 3, all four * 4 = 32. KD matches neither suit S nor rank 5.
    moves = [format_move(m) for m in legal_moves(state)]
    assert len(moves) == 32
    assert "5C 5D 5H 5S" in moves and "5C 5H 5D 5S" not in moves and "5D 5C 5H 5S" not in moves
    assert "KD" not in moves
    # Each listed play is still accepted in any other order of the same cards.
    assert accepted(state, Play(parse_hand("5D 5C 5H 5S")))


def test_several_eights_are_listed_once_per_set_and_named_suit():
    state = make_state(["8C 8D 8H 8S KD", "3C"], "5S", stock="2C 3D", under="4S")
    moves = [format_move(m) for m in legal_moves(state) if RANK[m.cards[0]] == 8]
    # 15 non-empty sets of 8s, each naming one of four suits (not 208 orderings).
    assert len(moves) == 15 * 4
    assert "8C 8H/S" in moves and "8H 8C/S" not in moves
    assert accepted(state, Play(parse_hand("8H 8C"), 3))


def test_a_leading_card_that_does_not_match_is_not_a_play_of_its_own():
    # 5C fits (suit C); 5H leads nothing (neither suit C nor rank 7), but may follow.
    state = make_state(["5C 5H KD", "3C"], "7C")
    moves = sorted(format_move(m) for m in legal_moves(state))
    assert moves == ["5C", "5C 5H"]


def test_several_off_lists_single_cards_only():
    state = make_state(["5C 5D 8H KS", "3C"], "5S", several=False)
    assert sorted(format_move(m) for m in legal_moves(state)) == sorted(
        ["5C", "5D", "KS", "8H/C", "8H/D", "8H/H", "8H/S"]
    )


def test_middle_card_order_is_accepted_and_canonicalised():
    state = make_state(["5C 5D 5H 5S KD", "3C"], "5S")
    result = apply_move(state, "5C 5S 5H 5D")
    assert format_move(result.move) == "5C 5H 5S 5D"
    assert result.state == apply_move(state, "5C 5H 5S 5D").state
