"""Scoring (docs/rules.md "Scoring") with worked examples."""

from games.crazy10s.engine import (
    Board,
    Layout,
    Options,
    apply_move,
    check_placement,
    format_move,
    parse_move,
    parse_rack,
)

from .helpers import board_from, index_of, state_with


def layout_with(kinds: dict[str, str], size: int = 13) -> Layout:
    """A plain layout (no ★) with the given bonus squares, e.g. {"g7": "d", "h7": "D"}."""
    cells = ["."] * (size * size)
    for name, kind in kinds.items():
        cells[index_of(name, size)] = kind
    return Layout(size, "".join(cells))


def score(board: Board, move: str, rack: str, seven_tile_bonus: bool = True) -> int:
    return check_placement(
        board, parse_move(move), parse_rack(rack), seven_tile_bonus=seven_tile_bonus
    ).score


def test_rules_example_3_on_dn_and_7_on_dl_scores_26():
    board = Board.empty(layout_with({"g7": "d", "h7": "D"}))
    assert score(board, "g7=3 h7=7", "37") == (3 * 2 + 7) * 2 == 26


def test_rules_example_on_a_later_move_with_cross_lines():
    # g7=7 h7=3 on the board; 3 on g8 (DN) and 7 on h8 (DL) form the line `3 7`.
    layout = layout_with({"g8": "d", "h8": "D"})
    board = board_from({"g7": 7, "h7": 3}, layout=layout)
    scored = check_placement(board, parse_move("g8=3 h8=7"), parse_rack("37"))
    by_line = {(ln.direction, ln.squares[0]): ln.score for ln in scored.lines}
    assert by_line == {
        ("across", index_of("g8")): (3 * 2 + 7) * 2,  # 26, as in docs/rules.md
        ("down", index_of("g7")): 7 + 3 * 2,  # the DN 3 counts double in its column too
        ("down", index_of("h7")): (3 + 7) * 2,  # the DL doubles the column through h8
    }
    assert scored.score == 26 + 13 + 20


def test_bonuses_count_only_for_newly_placed_tiles():
    layout = layout_with({"g7": "d", "h7": "D", "g8": "t"})
    first = apply_move(state_with(Board.empty(layout), ("37", "12")), "g7=3 h7=7")
    assert first.score == 26
    # g7 (DN) and h7 (DL) are old now: the column g7-g8 scores 3 + 7×3, not doubled.
    board = first.state.board
    assert score(board, "g8=7", "7") == 3 + 7 * 3


def test_number_multipliers_apply_before_line_multipliers():
    board = Board.empty(layout_with({"g7": "t", "h7": "T"}))
    assert score(board, "g7=4 h7=6", "46") == (4 * 3 + 6) * 3 == 54  # not 4*3 + 6*3 = 30


def test_several_line_multipliers_in_one_line_multiply():
    board = Board.empty(layout_with({"f7": "D", "g7": "T", "h7": "D"}))
    assert score(board, "f7=2 g7=3 h7=5", "235") == 10 * 2 * 3 * 2 == 120


def test_the_centre_acts_as_double_line_on_the_first_move_only():
    opening = state_with(None, ("37", "1234567"))
    first = apply_move(opening, "g7=3 h7=7")
    assert first.score == (3 + 7) * 2
    # Later the ★ square is an old tile: a line through g7 is not doubled.
    assert score(first.state.board, "g8=7", "7") == 3 + 7


def test_seven_tile_bonus_adds_twenty_in_games():
    # d7 (DN) e7 f7 g7 (★) h7 i7 j7 (DN): 0+0+1+1+2+3+3 = 10.
    move = "d7=0 e7=0 f7=1 g7=1 h7=2 i7=3 j7=3"
    line = (0 * 2 + 0 + 1 + 1 + 2 + 3 + 3 * 2) * 2
    state = state_with(None, ("0011233", "1234567"))
    result = apply_move(state, move)
    assert result.score == line + 20 and result.placement.bonus == 20
    puzzle = state_with(None, ("0011233", "1234567"), options=Options(seven_tile_bonus=False))
    result = apply_move(puzzle, move)
    assert result.score == line and result.placement.bonus == 0
    # Six tiles never earn the bonus.
    assert check_placement(state.board, parse_move("e7=0 f7=1 g7=1 h7=2 i7=3 j7=3"),
                           parse_rack("0011233")).bonus == 0


def test_a_single_zero_scores_nothing_even_on_a_bonus_square():
    layout = layout_with({"i7": "T"})
    board = board_from({"g7": 3, "h7": 7}, layout=layout)
    assert score(board, "i7=0", "0") == 0
    assert score(board, "i7=*0", "*") == 0  # a wild chosen as 0 too
    assert score(board, "f7=0", "0") == 0


def test_a_zero_placed_with_another_tile_scores_normally():
    layout = layout_with({"i7": "T"})
    board = board_from({"g7": 3, "h7": 6}, layout=layout)
    assert score(board, "i7=0 j7=1", "01") == 10 * 3


def test_a_single_zero_is_a_scoreless_turn():
    state = state_with(board_from({"g7": 3, "h7": 7}), ("0123456", "1234567"), scoreless=2)
    result = apply_move(state, "i7=0")
    assert result.score == 0 and result.state.scoreless_turns == 3
    assert result.state.scores == (0, 0)


def test_a_wild_scores_as_its_digit_and_is_recorded_as_wild():
    state = state_with(None, ("3*", "1234567"))
    result = apply_move(state, "g7=3 h7=*7")
    plain = apply_move(state_with(None, ("37", "1234567")), "g7=3 h7=7")
    assert result.score == plain.score == 20
    board = result.state.board
    assert board.cells[index_of("h7")] == 7
    assert board.wilds == frozenset({index_of("h7")})
    assert format_move(result.move) == "g7=3 h7=*7"
    assert result.state.racks[0] == tuple(sorted(result.drawn))  # the wild left the rack
    # The wild is now a 7 for every purpose: the column through h7 (h8 is a DN) sums with 7.
    assert score(board, "h8=3", "3") == 7 + 3 * 2


def test_a_wild_on_a_number_multiplier_is_multiplied_as_its_digit():
    board = Board.empty(layout_with({"g7": "t"}))
    assert score(board, "g7=*4 h7=6", "*6") == 4 * 3 + 6
