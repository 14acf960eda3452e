"""Daily Puzzle positions: a pure function of the date (no Django, no clock, no global random).

A candidate position comes from self-play on the 11×11 classic layout. Attempt ``n`` of a day is
seeded by ``random.Random(f"puzzle:{secret}:{day}:{n}")``; the first attempt whose position is
*interesting* is the day's puzzle, so the same date always gives the same puzzle.

Interesting (documented choice):
- the rack to play holds 7 tiles and has at least ``MIN_LEGAL_MOVES`` legal placements;
- the best placement scores at least ``MIN_BEST_SCORE``; and
- it clearly beats the *obvious* moves, i.e. the best placement of one or two tiles (what a
  player sees at a glance): ``best >= OBVIOUS_FACTOR × best_obvious`` and ``best > best_obvious``.
  A position whose best move is itself a one- or two-tile move is never a puzzle.

The self-play policy lives here, not in the computer players, on purpose: retuning the computer
levels must not change which puzzle a past date had.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from games.crazy10s.engine import (
    Board,
    GameState,
    Options,
    ScoredPlacement,
    apply_generated,
    format_board,
    format_layout,
    format_move,
    format_rack,
    generate_placements,
    legal_moves,
    new_game_from_seed,
    parse_board,
    parse_layout,
)
from games.crazy10s.engine.board import PUZZLE_SIZE

PUZZLE_OPTIONS = Options(size=PUZZLE_SIZE, layout="classic", seven_tile_bonus=False)
RACK_TILES = 7
MIN_LEGAL_MOVES = 5
MIN_BEST_SCORE = 20
OBVIOUS_FACTOR = 1.3
OBVIOUS_MAX_TILES = 2
MAX_ATTEMPTS = 20  # bounded: after this many the best candidate seen is used (deterministic)
FIRST_LOOK = (6, 10)  # moves played before positions are looked at (drawn per attempt)
LAST_LOOK = 18  # the last move number looked at in one self-play game
POLICY_TOP_K = 4  # the self-play player picks at random among its top-k moves


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the engine finds in a position: the best placement and how many there are."""

    best: ScoredPlacement
    legal_move_count: int
    best_obvious_score: int

    @property
    def best_score(self) -> int:
        return self.best.score

    @property
    def best_move(self) -> str:
        return format_move(self.best.move)

    @property
    def is_interesting(self) -> bool:
        return (
            self.legal_move_count >= MIN_LEGAL_MOVES
            and self.best_score >= MIN_BEST_SCORE
            and self.best_score > self.best_obvious_score
            and self.best_score >= OBVIOUS_FACTOR * self.best_obvious_score
        )


@dataclass(frozen=True, slots=True)
class GeneratedPuzzle:
    board: str  # docs/rules.md board notation
    layout: str  # docs/rules.md layout notation
    rack: str  # rack notation, 7 tiles
    best_score: int
    best_move: str
    legal_move_count: int
    attempt: int  # the attempt number that produced it (a moderator's "regenerate" goes on)


def all_placements(board: Board, rack: tuple[int, ...]) -> list[ScoredPlacement]:
    """The engine's full move list for a puzzle position (never the seven-tile bonus)."""
    return generate_placements(board, rack, seven_tile_bonus=False)


def analyse_moves(moves: list[ScoredPlacement]) -> Analysis | None:
    """Best placement (ties: the smallest notation, so it is stable), or None without moves."""
    if not moves:
        return None
    top = max(m.score for m in moves)
    best = min((m for m in moves if m.score == top), key=lambda m: format_move(m.move))
    obvious = [m.score for m in moves if len(m.move.tiles) <= OBVIOUS_MAX_TILES]
    return Analysis(best, len(moves), max(obvious, default=0))


def analyse(board: Board, rack: tuple[int, ...]) -> Analysis | None:
    return analyse_moves(all_placements(board, rack))


def analyse_notation(board: str, layout: str, rack: tuple[int, ...]) -> Analysis | None:
    return analyse(parse_board(board, parse_layout(layout)), rack)


Candidate = tuple[GameState, Analysis]


def _candidates(day: date, attempt: int, secret: str) -> Iterator[Candidate]:
    """Positions of one self-play game (a 'casual' policy), from a seeded move number on.

    The puzzle options have no seven-tile bonus, so the move list the player needs anyway is
    exactly the puzzle's full move list: judging a position costs nothing extra.
    """
    # The secret keeps tomorrow's puzzle (and its solution) out of reach of anyone who has the
    # source code; the same secret and date always give the same puzzle.
    prefix = f"puzzle:{secret}:" if secret else "puzzle:"
    rng = random.Random(f"{prefix}{day.isoformat()}:{attempt}")
    state = new_game_from_seed(rng.getrandbits(63), PUZZLE_OPTIONS)
    first_looked_at = rng.randint(*FIRST_LOOK)
    for played in range(LAST_LOOK + 1):
        if state.current_player is None:
            return
        moves = legal_moves(state)
        if not moves:
            return  # a stuck rack: the next attempt takes over
        rack = state.racks[state.current_player]
        if played >= first_looked_at and len(rack) == RACK_TILES:
            analysis = analyse_moves(moves)
            assert analysis is not None
            yield state, analysis
        moves.sort(key=lambda m: (-m.score, format_move(m.move)))
        state = apply_generated(state, rng.choice(moves[:POLICY_TOP_K])).state


def _puzzle(state: GameState, analysis: Analysis, attempt: int) -> GeneratedPuzzle:
    assert state.current_player is not None
    return GeneratedPuzzle(
        board=format_board(state.board),
        layout=format_layout(state.board.layout),
        rack=format_rack(state.racks[state.current_player]),
        best_score=analysis.best_score,
        best_move=analysis.best_move,
        legal_move_count=analysis.legal_move_count,
        attempt=attempt,
    )


def generate_puzzle(day: date, first_attempt: int = 0, *, secret: str = "") -> GeneratedPuzzle:
    """The day's puzzle: the first interesting candidate from ``first_attempt`` on.

    If none of ``MAX_ATTEMPTS`` candidates is interesting, the one with the largest margin over
    the obvious moves is used, so the function always answers and stays deterministic.
    """
    fallback: tuple[tuple[int, int], GameState, Analysis, int] | None = None
    for attempt in range(first_attempt, first_attempt + MAX_ATTEMPTS):
        for state, analysis in _candidates(day, attempt, secret):
            if analysis.is_interesting:
                return _puzzle(state, analysis, attempt)
            margin = (analysis.best_score - analysis.best_obvious_score, -attempt)
            if fallback is None or margin > fallback[0]:
                fallback = (margin, state, analysis, attempt)
    if fallback is None:
        raise RuntimeError(f"no puzzle position found for {day}")
    return _puzzle(fallback[1], fallback[2], fallback[3])
