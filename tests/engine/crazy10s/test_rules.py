"""Placement legality (docs/rules.md "Lines and legal placements") and every error code.

Every refusal is checked through ``assert_refused``: the code is right and the state is unchanged.
"""

import pytest

from games.crazy10s.engine import (
    ERROR_CODES,
    Options,
    Pass,
    PlacedTile,
    Placement,
    Resign,
    Swap,
    apply_move,
    check_placement,
    format_board,
    parse_move,
    parse_rack,
    validate_move,
)

from .helpers import assert_refused, board_from, state_with

# A started game: the vertical line g6=5 g7=5 is on the board; player 0 holds 1234567.
STARTED = board_from({"g6": 5, "g7": 5})


def started(rack="1234567", bag=None):
    return state_with(STARTED, (rack, "1234567"), bag)


def opening(rack="3467*12"):
    return state_with(None, (rack, "1234567"))


# --- legal placements -------------------------------------------------------------------------


def test_first_move_covering_the_centre_with_two_tiles_is_legal():
    result = apply_move(opening(), "g7=3 h7=7")
    assert result.score == 20  # ★ doubles the line on the first move
    assert format_board(result.state.board).split("/")[6] == "......37....."


def test_first_move_may_run_down_a_column():
    result = apply_move(opening(), "g6=4 g7=6")
    assert result.score == 20
    assert [line.direction for line in result.placement.lines] == ["down"]


def test_gaps_filled_by_board_tiles_are_fine():
    # f7 _g7_ h7: g7 already holds a 5, so 2 + 5 + 3 forms one line summing to 10.
    result = apply_move(started(), "f7=2 h7=3")
    assert result.score == 10
    assert [(ln.values, ln.score) for ln in result.placement.lines] == [((2, 5, 3), 10)]


def test_a_single_tile_may_form_only_a_cross_line():
    # f6 (DN) next to g6: the row f6-g6 = 5 + 5; the column through f6 holds no other tile.
    scored = check_placement(STARTED, parse_move("f6=5"), parse_rack("1234567"))
    assert [(ln.direction, ln.values) for ln in scored.lines] == [("across", (5, 5))]
    assert scored.score == 5 * 2 + 5


def test_a_single_tile_closing_a_row_and_a_column_forms_both_lines():
    # g8 completes the column g6-g8 (5+3+2) and the row g8-i8 (2+5+3); g8 is a plain square.
    board = board_from({"g6": 5, "g7": 3, "h8": 5, "i8": 3})
    scored = check_placement(board, parse_move("g8=2"), parse_rack("2"))
    assert sorted((ln.direction, ln.values) for ln in scored.lines) == [
        ("across", (2, 5, 3)), ("down", (5, 3, 2)),
    ]
    assert scored.score == 20


def test_a_row_placed_alongside_a_line_touches_it_through_cross_lines():
    # Regression: such a move used to be refused as not_connected.
    board = board_from({"g7": 7, "h7": 3})
    scored = check_placement(board, parse_move("g8=3 h8=7"), parse_rack("37"))
    assert len(scored.lines) == 3


def test_validate_move_returns_the_scored_placement_and_changes_nothing():
    state = started()
    before = state.to_dict()
    scored = validate_move(state, parse_move("f7=2 h7=3"))
    assert scored.score == 10 and scored.rack_after == parse_rack("14567")
    assert state.to_dict() == before
    assert validate_move(state, Pass()) is None


# --- every error code, the state unchanged ------------------------------------------------------


def test_off_board():
    err = assert_refused(started(), "n7=3", "off_board")
    assert err.details == {"square": "n7"}
    assert_refused(started(), "g14=3", "off_board")


def test_occupied():
    err = assert_refused(started(), "g7=5 g8=5", "occupied")
    assert err.details == {"square": "g7"}


def test_not_in_rack():
    assert_refused(started(), "f7=9", "not_in_rack")
    assert_refused(started(), "f7=2 h7=2", "not_in_rack")  # only one 2 on the rack
    assert_refused(started(), "h7=*5", "not_in_rack")  # no wild on the rack
    assert_refused(started(), Swap((9,)), "not_in_rack")


def test_duplicate_square():
    assert_refused(started(), "f7=2 f7=3", "duplicate_square")


def test_not_in_line():
    assert_refused(started(), "f7=2 h8=3", "not_in_line")


def test_gap():
    err = assert_refused(started(), "f7=2 i7=3", "gap")
    assert err.details == {"square": "h7"}


def test_isolated_tile():
    assert_refused(started(), "a1=3", "isolated_tile")


def test_not_connected():
    assert_refused(started(), "a1=3 a2=7", "not_connected")


def test_first_move_centre():
    assert_refused(opening(), "a1=3 a2=7", "first_move_centre")
    assert_refused(opening(), "h7=3 i7=7", "first_move_centre")


def test_first_move_too_short():
    assert_refused(opening("0123456"), "g7=0", "first_move_too_short")


def test_bad_sum_names_the_line():
    err = assert_refused(opening(), "g7=3 h7=6", "bad_sum")
    assert err.details["line"] == {
        "direction": "across", "start": "g7", "end": "h7", "values": [3, 6], "score": 0, "sum": 9,
    }
    assert "g7-h7" in err.message


def test_bad_sum_in_a_cross_line():
    # h6 h7 down sums to 10, but the row g6-h6 is 5 + 4.
    err = assert_refused(started(), "h6=4 h7=6", "bad_sum")
    assert (err.details["line"]["start"], err.details["line"]["end"]) == ("g6", "h6")
    assert err.details["line"]["sum"] == 9


def test_bad_sum_when_extending_a_line_past_ten():
    assert_refused(started(), "g8=1", "bad_sum")


def test_wild_value_required():
    err = assert_refused(opening(), "g7=* h7=7", "wild_value_required")
    assert err.details == {"square": "g7"}


def test_too_many_tiles():
    move = " ".join(f"{c}7=1" for c in "abcdefgh")
    assert_refused(opening("1111111"), move, "too_many_tiles")


def test_bag_too_small():
    state = started(bag=(1, 2))
    err = assert_refused(state, "swap 1 2 3", "bag_too_small")
    assert err.details == {"bag_size": 2}
    assert apply_move(state, "swap 1 2").swapped_count == 2  # k equal to the bag size is fine


def test_game_over():
    over = apply_move(started(), Resign()).state
    for move in ("pass", "f7=2 h7=3", "swap 1", "resign", Pass(timeout=True), Resign(1)):
        assert_refused(over, move, "game_over")


@pytest.mark.parametrize(
    "text",
    ["", "   ", "g7", "g7=", "g7=x", "g0=3", "g7=33", "7g=3", "g7=3 h7", "swap", "swap 3 x",
     "pass 3", "resign now", "g7:3", "g7=**3"],
)
def test_bad_notation(text):
    assert_refused(opening(), text, "bad_notation")


def test_not_a_player():
    assert_refused(started(), Resign(2), "not_a_player")


def test_an_empty_placement_is_refused():
    assert_refused(started(), Placement(()), "bad_notation")
    assert_refused(started(), Placement((PlacedTile(6, 7, 12),)), "bad_notation")


def test_every_error_code_is_covered_by_this_module():
    source = open(__file__).read()
    missing = [code for code in ERROR_CODES if f'"{code}"' not in source]
    assert missing == []


def test_the_puzzle_board_centre_is_f6():
    puzzle = state_with(None, ("3712345", "1234567"), options=Options(size=11))
    assert_refused(puzzle, "g7=3 h7=7", "first_move_centre")
    assert apply_move(puzzle, "f6=3 g6=7").score == 20
