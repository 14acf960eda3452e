"""Cards, their values and the match options."""

import pytest

from games.crazy_eights.engine import (
    CLASSIC_VALUE,
    DEFAULT_VALUE,
    IllegalMoveError,
    InvalidOptionsError,
    Options,
    format_card,
    hand_value,
    parse_card,
    parse_hand,
)


def test_every_card_round_trips_through_its_notation():
    names = [format_card(c) for c in range(52)]
    assert len(set(names)) == 52
    assert [parse_card(n) for n in names] == list(range(52))
    assert {"2C", "10S", "QD", "AC", "8H", "JH", "KS"} <= set(names)


@pytest.mark.parametrize("text", ["1H", "11S", "QX", "", "8", "H8", "10"])
def test_bad_cards_are_refused(text):
    with pytest.raises(IllegalMoveError) as error:
        parse_card(text)
    assert error.value.code == "bad_notation"


def test_default_values():
    assert [DEFAULT_VALUE[parse_card(c)] for c in "8S 2H QC AD JS KH 10D 7C 3S".split()] == [
        50, 20, 20, 20, 10, 10, 10, 7, 3,
    ]


def test_classic_values():
    assert [CLASSIC_VALUE[parse_card(c)] for c in "8S 2H QC AD JS KH 10D 7C 3S".split()] == [
        50, 2, 10, 1, 10, 10, 10, 7, 3,
    ]
    hand = parse_hand("8S AD KH 5C")
    assert hand_value(hand, classic=True) == 66
    assert hand_value(hand) == 85


def test_options_defaults_and_goal():
    assert Options().to_dict() == {
        "players": 2, "actions": True, "several": True, "target": None, "classic": False,
    }
    assert [Options(players=n).goal for n in (2, 3, 4)] == [100, 150, 200]
    assert Options(players=4, target=100).goal == 100
    assert Options(players=3, classic=True).goal == 100
    assert Options(players=3, classic=True, target=200).goal == 200


def test_classic_means_no_action_cards_and_7_or_5_cards():
    assert Options(classic=True).actions is False
    assert Options(classic=True) == Options(classic=True, actions=False)
    assert [Options(players=n, classic=True).hand_size for n in (2, 3, 4)] == [7, 5, 5]
    assert [Options(players=n).hand_size for n in (2, 3, 4)] == [7, 7, 7]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": "3"}, "players"),
        ({"players": True}, "players"),
        ({"target": 120}, "target"),
        ({"target": 0}, "target"),
        ({"actions": "yes"}, "actions"),
        ({"several": None}, "several"),
        ({"classic": 1}, "classic"),
    ],
)
def test_bad_options_are_refused_with_the_field(kwargs, field):
    with pytest.raises(InvalidOptionsError) as error:
        Options(**kwargs)
    assert error.value.field == field
    assert error.value.to_dict()["code"] == "invalid_options"


def test_options_round_trip_and_unknown_keys():
    options = Options(players=4, actions=False, several=False, target=200)
    assert Options.from_dict(options.to_dict()) == options
    with pytest.raises(InvalidOptionsError) as error:
        Options.from_dict({"players": 2, "jokers": True})
    assert error.value.field == "jokers"
