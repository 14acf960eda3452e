"""legal_moves lists exactly what validate_move accepts (middle cards in ascending order)."""

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
    canonical,
    format_move,
    legal_moves,
    new_match,
    validate_move,
)

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
            assert len(set(legal)) == len(legal)
            expected = {
                canonical(m) if isinstance(m, Play) else m
                for m in candidates(state)
                if accepted(state, m)
            }
            assert set(legal) == expected, format_move(legal[0])
            checked += 1
            state = apply_move(state, random_move(state, rng)).state
    assert checked > 300


def test_several_same_rank_cards_count_first_last_and_subsets_not_middle_order():
    state = make_state(["5C 5D 5H 5S KD", "3C"], "5S", stock="2C 3D", under="4S")
    # Each 5 may lead (4); with the other three: alone 1, one more 3, two more 3 * 2 (which
    # is last), all three 3 (which is last) = 13. KD matches neither suit S nor rank 5.
    moves = [format_move(m) for m in legal_moves(state)]
    assert len(moves) == 4 * 13
    assert "5C 5D 5H 5S" in moves and "5C 5H 5D 5S" not in moves
    assert "KD" not in moves


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
