"""Bonus layouts (docs/rules.md "Bonus squares"): the classic layouts and seeded random ones."""

from collections import Counter

import pytest

from games.crazy10s.engine import (
    IllegalMoveError,
    Options,
    classic_layout,
    format_layout,
    new_game_from_seed,
    parse_layout,
    random_layout,
    square_name,
)

# Copied verbatim from docs/rules.md.
CLASSIC_13 = (
    "T..d..T..d..T/.D...t.t...D./....d...d..../d..D..d..D..d/..d.......d../.t...d.d...t./"
    "T..d..*..d..T/.t...d.d...t./..d.......d../d..D..d..D..d/....d...d..../.D...t.t...D./"
    "T..d..T..d..T"
)
CLASSIC_11 = (
    "T.d..T..d.T/.D..t.t..D./d....d....d/...D...D.../.t.......t./T.d..*..d.T/"
    ".t.......t./...D...D.../d....d....d/.D..t.t..D./T.d..T..d.T"
)
# Counted by hand from the strings above.
COUNTS = {
    13: {".": 120, "d": 24, "t": 8, "D": 8, "T": 8, "*": 1},
    11: {".": 84, "d": 12, "t": 8, "D": 8, "T": 8, "*": 1},
}


def grid(layout):
    s = layout.size
    return [layout.kinds[r * s:(r + 1) * s] for r in range(s)]


def symmetric_images(layout):
    """The layout under each of the eight symmetries of the square, as row lists."""
    rows = grid(layout)
    n = layout.size

    def rotate(g):
        return ["".join(g[n - 1 - c][r] for c in range(n)) for r in range(n)]

    def mirror(g):
        return [row[::-1] for row in g]

    images, g = [], rows
    for _ in range(4):
        images += [g, mirror(g)]
        g = rotate(g)
    return images


def assert_layout_shape(layout, size):
    assert layout.size == size
    assert Counter(layout.kinds) == COUNTS[size]
    rows = grid(layout)
    assert {rows[0][0], rows[0][-1], rows[-1][0], rows[-1][-1]} == {"T"}
    assert layout.kinds[layout.centre] == "*"
    images = symmetric_images(layout)
    assert len({tuple(i) for i in images}) == 1, "not invariant under all eight symmetries"


@pytest.mark.parametrize("size,text,centre", [(13, CLASSIC_13, "g7"), (11, CLASSIC_11, "f6")])
def test_classic_layouts_are_verbatim(size, text, centre):
    layout = classic_layout(size)
    assert format_layout(layout) == text
    assert format_layout(parse_layout(text)) == text
    assert parse_layout(text) == layout
    assert square_name(layout.centre, size) == centre
    assert_layout_shape(layout, size)


def test_bonus_squares_list_names_every_bonus_square():
    squares = classic_layout(13).bonus_squares()
    assert len(squares) == 169 - 120
    assert squares[0] == ("a1", "TL")
    assert ("g7", "★") in squares
    assert ("d4", "DL") in squares and ("f2", "TN") in squares and ("d1", "DN") in squares
    assert Counter(kind for _, kind in squares) == {"DN": 24, "TN": 8, "DL": 8, "TL": 8, "★": 1}


@pytest.mark.parametrize("size", [13, 11])
def test_random_layout_keeps_counts_symmetry_corners_and_centre(size):
    layouts = [new_game_from_seed(seed, Options(size=size, layout="random")).board.layout
               for seed in range(6)]
    for layout in layouts:
        assert_layout_shape(layout, size)
    # Different seeds give different layouts, and they differ from the classic one.
    assert len({lay.kinds for lay in layouts}) > 1
    assert any(lay != classic_layout(size) for lay in layouts)


def test_random_layout_is_deterministic_per_seed():
    options = Options(layout="random")
    first = new_game_from_seed(1234, options).board.layout
    assert new_game_from_seed(1234, options).board.layout == first
    assert new_game_from_seed(1235, options).board.layout != first
    import random

    assert random_layout(13, random.Random(5)) == random_layout(13, random.Random(5))


def test_classic_games_use_the_classic_layout():
    assert new_game_from_seed(99).board.layout == classic_layout(13)
    assert new_game_from_seed(99, Options(size=11)).board.layout == classic_layout(11)


@pytest.mark.parametrize("text", ["", "T../...", "T.x/.../...", "../.."])
def test_malformed_layouts_are_refused(text):
    with pytest.raises(IllegalMoveError) as info:
        parse_layout(text)
    assert info.value.code == "bad_notation"
    assert parse_layout("T..d/..../..../....").size == 4  # while a well-formed 4×4 one parses
