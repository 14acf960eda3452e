"""Every refusal has its stable code and leaves the state unchanged."""

import pytest

from games.crazy_eights.engine import ERROR_CODES, IllegalMoveError, Play, Resign, apply_move

from .helpers import make_state, refusal, run

BASE = {"hands": ["7H 7C 9S 8D QC", "5C 6D"], "top": "5H"}


def over():
    return run(make_state(["7H", "9C"], "5H", scores=(0, 95)), "7H")[0]


CASES = [
    ("bad_notation", lambda: make_state(**BASE), "7X"),
    ("bad_notation", lambda: make_state(**BASE), Play(())),
    ("match_over", over, "draw"),
    ("match_over", over, "resign"),
    ("not_your_turn", lambda: make_state(**BASE), ("5C", 1)),
    ("not_a_player", lambda: make_state(**BASE), Resign(2)),
    ("not_in_hand", lambda: make_state(**BASE), "5H"),
    ("duplicate_card", lambda: make_state(**BASE), "7H 7H"),
    ("does_not_match", lambda: make_state(**BASE), "9S"),
    ("penalty_pending", lambda: make_state(["7H 2C", "5C"], "2H", penalty=2), "7H"),
    ("no_penalty", lambda: make_state(**BASE), "take"),
    ("must_play", lambda: make_state(**BASE), "draw"),
    ("drawn_card_first",
     lambda: make_state(["9C 4S 4H", "9D"], "5H", draws=1, drawn="4H"), "4S 4H"),
    ("draw_limit", lambda: make_state(["9C 3C", "9D"], "5H", draws=3, drawn="3C"), "draw"),
    ("stock_empty", lambda: make_state(["9C", "9D"], "5H", stock=""), "draw"),
    ("cannot_pass", lambda: make_state(["9C", "9D"], "5H"), "pass"),
    ("mixed_ranks", lambda: make_state(**BASE), "7H 9S"),
    ("several_not_allowed", lambda: make_state(**BASE, several=False), "7H 7C"),
    ("suit_required", lambda: make_state(**BASE), "8D"),
    ("suit_not_allowed", lambda: make_state(**BASE), "7H/S"),
]


@pytest.mark.parametrize(("code", "build", "move"), CASES)
def test_each_refusal_has_its_code_and_changes_nothing(code, build, move):
    state = build()
    seat = None
    if isinstance(move, tuple):
        move, seat = move
    assert refusal(state, move, seat) == code


def test_every_error_code_is_exercised():
    assert {code for code, _, _ in CASES} == ERROR_CODES


def test_errors_carry_details_and_serialise():
    state = make_state(**BASE)
    with pytest.raises(IllegalMoveError) as error:
        apply_move(state, "9S")
    assert error.value.to_dict() == {
        "code": "does_not_match",
        "message": error.value.message,
        "details": {"card": "9S", "suit": "H", "top": "5H"},
    }
    with pytest.raises(IllegalMoveError) as error:
        apply_move(state, "draw")
    assert error.value.details == {"playable": ["7H", "8D"]}
