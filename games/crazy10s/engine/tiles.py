"""Tiles, the bag and racks.

A tile is an ``int``: 0–9 for digit tiles and ``WILD`` (10) for a wild. Ints keep racks and bags
cheap to copy and compare, which matters for self-play and move generation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .errors import IllegalMoveError

WILD = 10
RACK_SIZE = 7

# RULES.md: 0×6, 1×10, 2×10, 3×10, 4×10, 5×9, 6×8, 7×7, 8×4, 9×3 and 3 wilds (80 tiles).
BAG_COUNTS: dict[int, int] = {
    0: 6, 1: 10, 2: 10, 3: 10, 4: 10, 5: 9, 6: 8, 7: 7, 8: 4, 9: 3, WILD: 3,
}
FULL_BAG: tuple[int, ...] = tuple(t for t, n in sorted(BAG_COUNTS.items()) for _ in range(n))
assert len(FULL_BAG) == 80


def tile_value(tile: int) -> int:
    """The value a tile left on a rack is worth at the end of the game (a wild is worth 0)."""
    return 0 if tile == WILD else tile


def rack_value(rack: Iterable[int]) -> int:
    return sum(tile_value(t) for t in rack)


def format_tile(tile: int) -> str:
    return "*" if tile == WILD else str(tile)


def parse_tile(text: str) -> int:
    if text == "*":
        return WILD
    if len(text) == 1 and text.isdigit():
        return int(text)
    raise IllegalMoveError("bad_notation", f"'{text}' is not a tile: use a digit 0-9 or *.")


def parse_rack(text: str) -> tuple[int, ...]:
    """Parse rack notation such as ``1237*55`` (spaces are ignored)."""
    tiles = tuple(parse_tile(ch) for ch in text if not ch.isspace())
    if len(tiles) > RACK_SIZE:
        raise IllegalMoveError(
            "bad_notation", f"A rack holds at most {RACK_SIZE} tiles, got {len(tiles)}."
        )
    return sort_rack(tiles)


def format_rack(rack: Iterable[int]) -> str:
    return "".join(format_tile(t) for t in rack)


def sort_rack(tiles: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(tiles))


def remove_tiles(rack: tuple[int, ...], tiles: Iterable[int]) -> tuple[int, ...] | None:
    """The rack without ``tiles`` (a multiset difference), or None if the rack lacks one."""
    need = Counter(tiles)
    have = Counter(rack)
    for tile, count in need.items():
        if have[tile] < count:
            return None
    have.subtract(need)
    return sort_rack(have.elements())
