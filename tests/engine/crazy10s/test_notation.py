"""Notation (docs/rules.md "Notation"): moves, boards, layouts, racks and square names."""

import pytest

from games.crazy10s.engine import (
    WILD,
    IllegalMoveError,
    Pass,
    PlacedTile,
    Placement,
    Resign,
    Swap,
    classic_layout,
    format_board,
    format_move,
    format_rack,
    parse_board,
    parse_move,
    parse_rack,
    square_name,
)

from .helpers import index_of


def test_placement_with_a_wild_parses_to_placed_tiles():
    move = parse_move("g7=3 h7=*7")
    assert move == Placement((PlacedTile(6, 6, 3), PlacedTile(7, 6, 7, wild=True)))
    assert move.tiles[1].rack_tile == WILD and move.tiles[0].rack_tile == 3


@pytest.mark.parametrize(
    "text",
    ["g7=3 h7=*7", "a1=0", "m13=9 m12=*0", "f6=5", "b10=*9 b11=1 b12=0", "pass", "resign",
     "swap 3 5 *", "swap *", "swap 1 1 2 3 4 5 6"],
)
def test_move_notation_round_trips(text):
    move = parse_move(text)
    assert format_move(move) == text
    assert parse_move(format_move(move)) == move


def test_other_turns_parse_to_their_types():
    assert parse_move("pass") == Pass()
    assert parse_move("resign") == Resign()
    assert parse_move("swap 3 5 *") == Swap((3, 5, WILD))
    assert parse_move("swap 35*") == Swap((3, 5, WILD))  # spaces between tiles are optional
    assert parse_move("  PASS ") == Pass()
    assert format_move(Pass(timeout=True)) == "pass"  # a timeout is recorded as a pass
    assert format_move(Resign(1)) == "resign"


def test_a_wild_without_a_digit_parses_and_keeps_its_notation():
    move = parse_move("h7=*")
    assert move.tiles[0] == PlacedTile(7, 6, None, wild=True)
    assert format_move(move) == "h7=*"


@pytest.mark.parametrize("size,index,name", [
    (13, 0, "a1"), (13, 12, "m1"), (13, 84, "g7"), (13, 168, "m13"), (13, 13, "a2"),
    (11, 60, "f6"), (11, 120, "k11"),
])
def test_square_names(size, index, name):
    assert square_name(index, size) == name
    assert index_of(name, size) == index


def test_board_notation_round_trips_and_reads_top_to_bottom():
    rows = ["." * 13] * 13
    rows[0] = "7" + "." * 11 + "3"
    rows[6] = "......37....."
    text = "/".join(rows)
    board = parse_board(text)
    assert format_board(board) == text
    assert board.cells[index_of("a1")] == 7 and board.cells[index_of("m1")] == 3
    assert board.cells[index_of("g7")] == 3 and board.cells[index_of("h7")] == 7
    assert board.tile_count() == 4
    assert board.layout == classic_layout(13)


def test_an_11_by_11_board_gets_the_classic_11_layout():
    board = parse_board("/".join(["." * 11] * 11))
    assert board.layout == classic_layout(11) and board.is_empty


EMPTY_ROWS = ["." * 13] * 12


@pytest.mark.parametrize("text", [
    "..../....",  # not square
    "/".join(EMPTY_ROWS + ["......x......"]),  # not a digit
    "/".join(EMPTY_ROWS + ["......*......"]),  # a wild on the board is written as its digit
    "/".join(EMPTY_ROWS + ["." * 12]),  # a short row
    "/".join(["." * 5] * 5),  # no classic 5×5 layout to default to
])
def test_malformed_boards_are_refused(text):
    with pytest.raises(IllegalMoveError) as info:
        parse_board(text)
    assert info.value.code == "bad_notation"


def test_board_and_layout_must_agree_in_size():
    with pytest.raises(IllegalMoveError) as info:
        parse_board("/".join(["." * 11] * 11), classic_layout(13))
    assert info.value.code == "bad_notation"


@pytest.mark.parametrize("text,tiles", [
    ("1237*55", (1, 2, 3, 5, 5, 7, WILD)),
    ("", ()),
    ("***", (WILD, WILD, WILD)),
    ("0 9", (0, 9)),
])
def test_rack_notation(text, tiles):
    rack = parse_rack(text)
    assert rack == tiles
    assert parse_rack(format_rack(rack)) == rack


def test_format_rack_writes_digits_and_stars():
    assert format_rack((1, 2, 3, 5, 5, 7, WILD)) == "123557*"


@pytest.mark.parametrize("text", ["12345678", "12a", "1-2"])
def test_malformed_racks_are_refused(text):
    with pytest.raises(IllegalMoveError) as info:
        parse_rack(text)
    assert info.value.code == "bad_notation"
