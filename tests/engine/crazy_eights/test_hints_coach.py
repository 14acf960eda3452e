"""Hints (always legal, explained by a code) and the coach's first-time notes."""

from __future__ import annotations

import random

from games.crazy_eights.engine import (
    Options,
    apply_legal,
    format_move,
    legal_moves,
    new_match,
    parse_move,
    validate_move,
    view_for,
)
from games.crazy_eights.engine.coach import COACH_CODES, coach_notes
from games.crazy_eights.engine.hints import HINT_CODES, explain, hint, simple_hint, text_moves
from games.crazy_eights.engine.knowledge import knowledge, opening_record

from .helpers import make_state, random_options


def test_hints_are_legal_explained_and_repeatable() -> None:
    rng = random.Random(31)
    codes = set()
    for match in range(5):
        state = new_match(seed=match, options=random_options(rng))
        history = [opening_record(state)]
        for _ in range(14):
            if state.is_over:
                break
            view = view_for(state, state.turn)
            given = hint(view, history)
            validate_move(state, parse_move(given["move"]))
            assert given["reason"]["code"] in HINT_CODES
            codes.add(given["reason"]["code"])
            assert hint(view, history) == given
            result = apply_legal(state, rng.choice(legal_moves(state)))
            history.append(result.public_dict())
            state = result.state
    assert len(codes) >= 4


def test_hint_reasons_in_typical_positions() -> None:
    def reason(state) -> tuple[str, dict]:
        given = hint(view_for(state, state.turn), [])
        return given["move"], given["reason"]

    only_eight = make_state(["8C 4D 6D", "4C 5C 6C"], "9H")
    move, why = reason(only_eight)
    assert move.startswith("8C/") and why["code"] == "hint_play_eight_last"
    assert why["params"]["suit"] == move[-1]
    assert reason(make_state(["5D 6D", "4C 5C 6C"], "9H")) == (
        "draw", {"code": "hint_draw", "params": {"suit": "H", "top": "9H"}}
    )
    move, why = reason(make_state(["5D 6D", "4C 5C 6C"], "2H", penalty=2))  # no 2 held
    assert (move, why["code"], why["params"]) == ("take", "hint_take_penalty", {"penalty": 2})
    move, why = reason(make_state(["9H", "4C 5C"], "5H"))
    assert (move, why["code"]) == ("9H", "hint_go_out")
    waiting = make_state(["9H 4C", "5C 6C"], "5H")
    assert hint(view_for(waiting, 1), []) == {
        "move": None, "reason": {"code": "hint_wait", "params": {}}
    }


def hinted(state) -> tuple[str, str, dict]:
    given = hint(view_for(state, state.turn), [])
    return given["move"], given["reason"]["code"], given["reason"]["params"]


def test_an_eight_waits_while_another_card_fits() -> None:
    # 8C would name any suit, but 4H fits: the text keeps the 8.
    move, code, _ = hinted(make_state(["8C 4H KD 5D", "4C 5C 6C 7C"], "9H"))
    assert move == "4H" and code in {"hint_shed", "hint_follow_suit", "hint_play"}


def test_an_eight_goes_when_another_player_holds_one_card() -> None:
    move, code, params = hinted(make_state(["8C 4H KD 5D", "4C"], "9H"))
    assert move.startswith("8C/") and code == "hint_eight_danger"
    assert params["suit"] == "D"  # the suit the hand left holds most of


def test_an_eight_names_the_suit_the_hand_holds_most_of() -> None:
    move, code, params = hinted(make_state(["8C 4D 6D 3S", "4C 5C 6C 7C"], "9H"))
    assert (move, code, params["suit"]) == ("8C/D", "hint_play_eight_last", "D")


def test_a_drawn_card_that_fits_is_laid_an_eight_too() -> None:
    state = make_state(["4D 6D 8S", "4C 5C 6C 7C"], "9H", draws=1, drawn="8S")
    move, code, _ = hinted(state)
    assert move == "8S/D" and code == "hint_play_drawn"
    state = make_state(["4D 6D 9C", "4C 5C 6C 7C"], "9H", draws=1, drawn="9C")
    assert hinted(state)[:2] == ("9C", "hint_play_drawn")


def test_a_draw_two_is_answered_with_a_2_held() -> None:
    state = make_state(["2D 6D 9C", "4C 5C 6C 7C"], "2H", penalty=2)
    move, code, params = hinted(state)
    assert (move, code, params["total"]) == ("2D", "hint_answer_two", 4)


def test_reasons_say_only_what_the_position_shows() -> None:
    # KH (10) is dearer than 4H: "the most expensive card that fits" only for KH.
    state = make_state(["KH 4H 4D 6D 7D", "4C 5C 6C 7C"], "9H")
    k = knowledge(view_for(state, 0))
    assert explain(k, parse_move("KH"))["code"] == "hint_shed"
    assert explain(k, parse_move("4H"))["code"] == "hint_play"
    state = make_state(["KH 4H 4D 6D 7D 8D", "4C 5C 6C 7C"], "9D")
    k = knowledge(view_for(state, 0))
    assert explain(k, parse_move("4D"))["code"] == "hint_follow_suit"  # D left: 6D 7D
    # No card left to draw: the reason does not speak of drawn cards.
    hands, top = ["4C 5C", "KC 4S"], "5H"
    stuck = make_state(hands, top, stock="", under="")
    assert explain(knowledge(view_for(stuck, 0)), parse_move("pass"))["code"] == (
        "hint_pass_no_stock"
    )


def test_a_drawn_shield_2_may_be_kept_and_the_reason_says_it_departs() -> None:
    state = make_state(["4D 6D 2H", "4C 5C 6C 7C"], "9H", draws=1, drawn="2H")
    k = knowledge(view_for(state, 0))
    assert [format_move(m) for m in text_moves(k, legal_moves(state))] == ["2H", "pass"]
    assert explain(k, parse_move("pass"))["code"] == "hint_keep_shield"
    # A second 2 in hand is the shield: the drawn one is laid.
    state = make_state(["4D 2S 2H", "4C 5C 6C 7C"], "9H", draws=1, drawn="2H")
    k = knowledge(view_for(state, 0))
    assert "pass" not in [format_move(m) for m in text_moves(k, legal_moves(state))]


def test_the_simplest_hint_follows_the_text_too() -> None:
    given = simple_hint(view_for(make_state(["8C 4H KD 5D", "4C 5C 6C 7C"], "9H"), 0))
    assert given["move"] == "4H"


def test_coach_notes_fire_once_each_and_cover_every_effect() -> None:
    rng = random.Random(32)
    seen: set[str] = set()
    for players in (2, 3, 4, 4):
        state = new_match(seed=players, options=Options(players=players))
        shown: set[str] = set()
        while not state.is_over:
            result = apply_legal(state, rng.choice(legal_moves(state)))
            notes = coach_notes(result, shown)
            codes = [n["code"] for n in notes]
            assert len(codes) == len(set(codes)) and not shown & set(codes)
            shown |= set(codes)
            assert coach_notes(result.public_dict(), shown) == []  # a record works too
            state = result.state
        seen |= shown
    assert seen == set(COACH_CODES)


def test_coach_note_parameters() -> None:
    state = make_state(["2H 2C 5D", "4C 5C 6C"], "9H")
    result = apply_legal(state, parse_move("2H 2C"))
    notes = {n["code"]: n["params"] for n in coach_notes(result)}
    assert notes["coach_draw_two"] == {"seat": 0, "added": 4, "total": 4}
    assert notes["coach_stacked_twos"]["total"] == 4
    skip = apply_legal(make_state(["QH 5D", "4C 5C 6C"], "9H"), parse_move("QH"))
    assert coach_notes(skip) == [
        {"code": "coach_two_players", "params": {"seat": 0, "card": "Q"}}
    ]
