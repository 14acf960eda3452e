"""Hints (always legal, explained by a code) and the coach's first-time notes."""

from __future__ import annotations

import random

from games.crazy_eights.engine import (
    Options,
    apply_legal,
    legal_moves,
    new_match,
    parse_move,
    validate_move,
    view_for,
)
from games.crazy_eights.engine.coach import COACH_CODES, coach_notes
from games.crazy_eights.engine.hints import HINT_CODES, hint
from games.crazy_eights.engine.knowledge import opening_record

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
    move, why = reason(make_state(["5D 6D", "4C 5C 6C"], "2H", penalty=2))
    assert (move, why["code"], why["params"]) == ("take", "hint_take_penalty", {"penalty": 2})
    move, why = reason(make_state(["9H", "4C 5C"], "5H"))
    assert (move, why["code"]) == ("9H", "hint_go_out")
    waiting = make_state(["9H 4C", "5C 6C"], "5H")
    assert hint(view_for(waiting, 1), []) == {
        "move": None, "reason": {"code": "hint_wait", "params": {}}
    }


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
