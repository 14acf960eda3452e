"""Scoring of the lines a placement forms (RULES.md, "Scoring")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .board import LINE_MULTIPLIER, NUMBER_MULTIPLIER, START

SEVEN_TILE_BONUS = 20
TARGET_SUM = 10


def line_score(
    squares: Sequence[int],
    values: Sequence[int],
    new: Mapping[int, int],
    kinds: str,
    first_move: bool,
) -> int:
    """Number multipliers on newly placed tiles first, then every newly covered line multiplier.

    The start square counts as a double line only on the first move of a game.
    """
    total = 0
    factor = 1
    for square, value in zip(squares, values, strict=True):
        if square in new:
            kind = kinds[square]
            total += value * NUMBER_MULTIPLIER.get(kind, 1)
            factor *= LINE_MULTIPLIER.get(kind, 1)
            if kind == START and first_move:
                factor *= 2
        else:
            total += value
    return total * factor


def placement_bonus(tile_count: int, seven_tile_bonus: bool) -> int:
    return SEVEN_TILE_BONUS if seven_tile_bonus and tile_count == 7 else 0
