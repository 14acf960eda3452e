"""Move notation (docs/rules.md, "Crazy Eights notation")."""

import random

import pytest

from games.crazy_eights.engine import (
    Draw,
    IllegalMoveError,
    Pass,
    Play,
    Resign,
    Take,
    format_move,
    legal_moves,
    new_match,
    parse_card,
    parse_move,
)

from .helpers import random_move, random_options


def cards(text):
    return tuple(parse_card(c) for c in text.split())


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("7H", Play(cards("7H"))),
        ("10S", Play(cards("10S"))),
        ("5C 5D 5S", Play(cards("5C 5D 5S"))),
        ("8S/H", Play(cards("8S"), 2)),
        ("8C 8D/S", Play(cards("8C 8D"), 3)),
        ("draw", Draw()),
        ("take", Take()),
        ("pass", Pass()),
        ("resign", Resign()),
    ],
)
def test_notation_parses_and_formats_back(text, move):
    assert parse_move(text) == move
    assert format_move(move) == text


def test_notation_is_case_and_space_tolerant():
    assert parse_move("  8c  8d/s ") == parse_move("8C 8D/S")
    assert parse_move("DRAW") == Draw()


@pytest.mark.parametrize("text", ["", "   ", "8S/", "8S/X", "8C/H 8D", "7H draw", "pass pass", "Z"])
def test_bad_notation(text):
    with pytest.raises(IllegalMoveError) as error:
        parse_move(text)
    assert error.value.code == "bad_notation"


def test_every_legal_move_round_trips_through_notation():
    rng = random.Random(11)
    seen = 0
    for _ in range(40):
        state = new_match(seed=rng.getrandbits(32), options=random_options(rng))
        for _ in range(120):
            if state.result is not None:
                break
            for move in legal_moves(state):
                assert parse_move(format_move(move)) == move
                seen += 1
            from games.crazy_eights.engine import apply_move

            state = apply_move(state, random_move(state, rng)).state
    assert seen > 2000
