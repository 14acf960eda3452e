"""The move generator as it was before the speed work of issue 28 (games/crazy10s/engine/movegen.py
at 8356ceb), kept unchanged as the reference that test_movegen_reference.py compares the engine's
with. Its own description follows.

Fast generation of every legal placement, in the spirit of Appel–Jacobson.

For every empty square we precompute, per direction, the digits its perpendicular line allows
(no perpendicular neighbours: any digit; neighbours summing to s: exactly 10 - s, if that is a
digit). A placement must cover an *anchor* (an empty square next to a tile; the centre on an empty
board), so each row and column is scanned only from starts that can reach an anchor with the rack.
Runs are extended left to right with the rack as a multiset; because every digit is ≥ 0, a run
whose main-line sum passes 10 is pruned at once, and a run is emitted only when the main line
(including the existing tiles it joins) adds up to exactly 10. Runs are searched as digit
sequences (a rack tile plays a digit when there is one, else a wild), so wilds do not multiply the
search; every way of spending the wilds on a finished run is emitted with the same score and lines.

Multi-tile placements have one direction, so each is generated once; single tiles are generated
in a separate pass (both lines at once), so they are never produced twice. The results carry the
same moves, scores and lines (in the same order) as ``rules.check_placement``; the tests compare
them with a brute-force generator that calls it.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from games.crazy10s.engine.board import EMPTY, LINE_MULTIPLIER, NUMBER_MULTIPLIER, START, Board
from games.crazy10s.engine.moves import PlacedTile, Placement, new_placed_tile, new_placement
from games.crazy10s.engine.rules import (
    ACROSS,
    DOWN,
    Line,
    ScoredPlacement,
    new_line,
    new_scored_placement,
)
from games.crazy10s.engine.scoring import TARGET_SUM, placement_bonus
from games.crazy10s.engine.state import GameState
from games.crazy10s.engine.tiles import RACK_SIZE, WILD

ALL_DIGITS: tuple[int, ...] = tuple(range(10))
NO_DIGITS: tuple[int, ...] = ()

# A perpendicular run through an empty square: (squares, index of the square, existing sum).
CrossRun = tuple[tuple[int, ...], int, int]
# One way to supply a run's digits: (positions a wild plays, rack key of the tiles used, rack left).
WildSpend = tuple[tuple[int, ...], int, tuple[int, ...]]
# The best placement of a slot in players' mode: (score, tiles, bonus, rack left, the recipe of
# its lines: ``(build, *args)``, see rules.new_scored_placement).
BestRun = tuple[int, tuple[PlacedTile, ...], int, tuple[int, ...], tuple[Any, ...]]

# Slot setters to build results without the frozen-field setter (see moves.new_placement).
_new = object.__new__
_set_tiles = Placement.__dict__["tiles"].__set__
_scored_setters = tuple(
    ScoredPlacement.__dict__[name].__set__
    for name in ("move", "score", "_lines", "bonus", "rack_after", "_pending")
)


@cache
def _lines(size: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The squares of every row and every column of a board."""
    rows = [tuple(range(r * size, (r + 1) * size)) for r in range(size)]
    cols = [tuple(range(c, size * size, size)) for c in range(size)]
    return rows, cols


def _allowed(cross: CrossRun | None) -> tuple[int, ...]:
    """Digits an empty square may take so that its perpendicular line sums to 10."""
    if cross is None:
        return ALL_DIGITS
    need = TARGET_SUM - cross[2]
    return (need,) if 0 <= need <= 9 else NO_DIGITS


class _Generator:
    """One generation call: board-derived tables plus the recursive run extension."""

    def __init__(
        self, board: Board, rack: tuple[int, ...], seven_tile_bonus: bool, best_wilds: bool = False,
        anchors: frozenset[int] | None = None,
    ) -> None:
        self.board = board
        self.size = size = board.size
        self.cells = cells = board.cells
        self.seven_tile_bonus = seven_tile_bonus
        # Players' mode: per (squares, rack tiles used) only the best-scoring wild digits.
        self.best_wilds = best_wilds
        self.first_move = first = all(c == EMPTY for c in cells)
        kinds = board.layout.kinds
        self.nmul = [NUMBER_MULTIPLIER.get(k, 1) for k in kinds]
        self.lmul = [
            LINE_MULTIPLIER.get(k, 1) * (2 if first and k == START else 1) for k in kinds
        ]
        self.counts = [0] * (WILD + 1)
        for tile in rack:
            self.counts[tile] += 1
        self.initial_counts = tuple(self.counts)
        self.rack_len = len(rack)
        # The rack left at any point of the search as one int (counts in base len(rack) + 1), so
        # that the per-rack tables below are looked up without building a tuple per step.
        self.base = len(rack) + 1
        self.weight = [self.base**tile for tile in range(WILD + 1)]
        self.rack_key = sum(n * w for n, w in zip(self.counts, self.weight, strict=True))
        self.out: list[ScoredPlacement] = []
        self._tiles: dict[int, PlacedTile] = {}
        self._cross_lines: dict[int, Line] = {}
        self._rack_after: dict[int, tuple[int, ...]] = {}
        self._sums: dict[int, list[int]] = {}
        self._wild_spends: dict[tuple[int, ...], list[WildSpend]] = {}
        # Perpendicular runs of every empty square, keyed by the run's direction.
        self.runs: dict[str, list[CrossRun | None]] = {
            ACROSS: [None] * (size * size),
            DOWN: [None] * (size * size),
        }
        if first:
            self.anchors = [False] * (size * size)
            self.anchors[board.layout.centre] = True
        else:
            self.anchors = [False] * (size * size)
            for q in range(size * size):
                if cells[q] == EMPTY:
                    self._scan_square(q)
            if anchors is not None:  # only placements covering one of these squares
                self.anchors = [a and q in anchors for q, a in enumerate(self.anchors)]

    def _scan_square(self, q: int) -> None:
        size, cells = self.size, self.cells
        row, col = divmod(q, size)
        for direction, step, pos, limit in ((ACROSS, 1, col, size), (DOWN, size, row, size)):
            before: list[int] = []
            i, p = q - step, pos - 1
            while p >= 0 and cells[i] != EMPTY:
                before.append(i)
                i -= step
                p -= 1
            after: list[int] = []
            i, p = q + step, pos + 1
            while p < limit and cells[i] != EMPTY:
                after.append(i)
                i += step
                p += 1
            if before or after:
                self.anchors[q] = True
                before.reverse()
                squares = (*before, q, *after)
                total = sum(cells[s] for s in before) + sum(cells[s] for s in after)
                self.runs[direction][q] = (squares, len(before), total)

    # --- shared building blocks -------------------------------------------------------------

    def placed_tile(self, q: int, digit: int, wild: bool) -> PlacedTile:
        key = q * 20 + digit * 2 + wild
        tile = self._tiles.get(key)
        if tile is None:
            row, col = divmod(q, self.size)
            tile = self._tiles[key] = new_placed_tile(col, row, digit, wild)
        return tile

    def cross_line(self, q: int, digit: int, direction: str, single_zero: bool = False) -> Line:
        key = (q * 10 + digit) * 2 + (direction == DOWN)
        line = self._cross_lines.get(key) if not single_zero else None
        if line is None:
            run = self.runs[direction][q]
            assert run is not None
            squares, index, total = run
            values = tuple(digit if s == q else self.cells[s] for s in squares)
            score = 0 if single_zero else (total + digit * self.nmul[q]) * self.lmul[q]
            line = new_line(direction, squares, values, score)
            if not single_zero:
                self._cross_lines[key] = line
        return line

    def rack_counts(self, key: int) -> list[int]:
        """The tile counts a rack key stands for (see ``__init__``)."""
        return [key // weight % self.base for weight in self.weight]

    def sums_by_size(self, key: int) -> list[int]:
        """Bit masks of the sums (up to 10) that exactly m tiles of the rack ``key`` can make."""
        masks = self._sums.get(key)
        if masks is None:
            full = (1 << (TARGET_SUM + 1)) - 1
            masks = [1] + [0] * RACK_SIZE
            for tile, n in enumerate(self.rack_counts(key)):
                for _ in range(n):
                    for m in range(RACK_SIZE - 1, -1, -1):
                        if not masks[m]:
                            continue
                        if tile == WILD:
                            grown = 0
                            for digit in ALL_DIGITS:
                                grown |= masks[m] << digit
                        else:
                            grown = masks[m] << tile
                        masks[m + 1] |= grown & full
            self._sums[key] = masks
        return masks

    def rack_after(self, key: int) -> tuple[int, ...]:
        kept = self._rack_after.get(key)
        if kept is None:
            kept = self._rack_after[key] = tuple(
                t for t, n in enumerate(self.rack_counts(key)) for _ in range(n)
            )
        return kept

    def spend_wilds(self, digits: tuple[int, ...]) -> list[WildSpend]:
        """Every way the rack can supply a run of ``digits``: (positions played by a wild,
        rack key of the tiles used, rack left). Built from the ways for the run less its last
        digit."""
        spends = self._wild_spends.get(digits)
        if spends is None:
            if not digits:
                return [((), 0, self.rack_after(self.rack_key))]
            last, d = len(digits) - 1, digits[-1]
            base, tile_weight, wild_weight = self.base, self.weight[d], self.weight[WILD]
            tiles, wilds = self.initial_counts[d], self.initial_counts[WILD]
            rack = self.rack_key
            spends = []
            for wild_at, used, _ in self.spend_wilds(digits[:-1]):
                if used // tile_weight % base < tiles:
                    spends.append(
                        (wild_at, used + tile_weight, self.rack_after(rack - used - tile_weight))
                    )
                if used // wild_weight % base < wilds:
                    spends.append(
                        ((*wild_at, last), used + wild_weight,
                         self.rack_after(rack - used - wild_weight))
                    )
            self._wild_spends[digits] = spends
        return spends

    def choices(self, digits: tuple[int, ...]) -> list[tuple[int, bool]]:
        """(digit, is wild) pairs the rack can supply for a square allowing ``digits``."""
        counts = self.counts
        wild = counts[WILD] > 0
        out = []
        for d in digits:
            if counts[d]:
                out.append((d, False))
            if wild:
                out.append((d, True))
        return out

    # --- single tiles ----------------------------------------------------------------------

    def singles(self) -> None:
        if self.first_move or not self.rack_len:
            return
        across, down = self.runs[ACROSS], self.runs[DOWN]
        for q, anchor in enumerate(self.anchors):
            if not anchor:
                continue
            h, v = across[q], down[q]
            digits = [d for d in _allowed(h) if d in _allowed(v)]
            best_wild: ScoredPlacement | None = None
            for d, wild in self.choices(tuple(digits)):
                zero = d == 0
                lines = []
                if h is not None:
                    lines.append(self.cross_line(q, d, ACROSS, zero))
                if v is not None:
                    lines.append(self.cross_line(q, d, DOWN, zero))
                move = new_placement((self.placed_tile(q, d, wild),))
                score = sum(line.score for line in lines)
                kept = self.rack_after(self.rack_key - self.weight[WILD if wild else d])
                scored = new_scored_placement(move, score, tuple(lines), 0, kept)
                if wild and self.best_wilds:  # one wild on q: keep its best digit only
                    if best_wild is None or score > best_wild.score:
                        best_wild = scored
                    continue
                self.out.append(scored)
            if best_wild is not None:
                self.out.append(best_wild)

    # --- runs of two or more tiles ---------------------------------------------------------

    def runs_of_line(self, squares: tuple[int, ...], direction: str) -> None:
        """Every placement of 2+ tiles along one row (ACROSS) or column (DOWN)."""
        n = len(squares)
        cells = self.cells
        cross_dir = DOWN if direction == ACROSS else ACROSS
        cross_runs = self.runs[cross_dir]
        anchor = [self.anchors[s] for s in squares]
        if True not in anchor or min(self.rack_len, RACK_SIZE) < 2:
            return
        vals = [cells[s] for s in squares]
        empty = [v == EMPTY for v in vals]
        allowed = [
            _allowed(cross_runs[s]) if e else NO_DIGITS
            for s, e in zip(squares, empty, strict=True)
        ]
        # Existing tiles right after each position: their sum and the next empty position.
        right_sum = [0] * n
        next_empty = [n] * n
        for p in range(n - 2, -1, -1):
            if empty[p + 1]:
                right_sum[p], next_empty[p] = 0, p + 1
            else:
                right_sum[p] = vals[p + 1] + right_sum[p + 1]
                next_empty[p] = next_empty[p + 1]
        # Empty squares needed from p to the first anchor (None: a square no digit fits blocks).
        reach: list[int | None] = [None] * n
        following: int | None = None
        for p in range(n - 1, -1, -1):
            if empty[p]:
                if not allowed[p]:
                    following = None
                elif anchor[p]:
                    following = 1
                elif following is not None:
                    following += 1
            reach[p] = following
        max_tiles = min(self.rack_len, RACK_SIZE)
        if max_tiles < 2:
            return
        if self.best_wilds and self.counts[WILD] >= 2:  # one wild: the digit search is cheap
            self.wild_symbol_runs(
                squares, direction, allowed, right_sum, next_empty, reach, anchor, max_tiles
            )
            return
        # Where a run continued at empty position e could end: (tiles placed from e on, sum of
        # the existing tiles it would pass or join, tiles on squares free to take any digit,
        # that sum plus the digits forced by cross lines). Squares no digit fits end the list.
        endings: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        for e in range(n):
            if not empty[e]:
                continue
            passed, fixed, m, free, f = 0, 0, 0, 0, e
            while f < n and allowed[f] and m < max_tiles:
                m += 1
                if len(allowed[f]) == 1:
                    fixed += allowed[f][0]
                else:
                    free += 1
                passed += right_sum[f]
                fixed += right_sum[f]
                if passed > TARGET_SUM or fixed > TARGET_SUM:
                    break
                endings[e].append((m, passed, free, fixed))
                f = next_empty[f]
        counts, weight = self.counts, self.weight
        sums_by_size = self.sums_by_size
        nmul, lmul = self.nmul, self.lmul
        # The run being built: its digits, and each as a rack tile and as a wild.
        digits_placed: list[int] = []
        placed: list[PlacedTile] = []
        placed_wild: list[PlacedTile] = []
        has_wild = counts[WILD] > 0
        wild_weight = weight[WILD]
        out_append = self.out.append
        best_wilds = self.best_wilds and self.counts[WILD] > 0  # else nothing to merge
        # Players' mode: (start, end, rack key used) -> (score, tiles, bonus, rack left, recipe).
        best: dict[tuple[int, int, int], BestRun] = {}
        bonus7 = placement_bonus(RACK_SIZE, self.seven_tile_bonus)
        cross_line, tiles, size = self.cross_line, self._tiles, self.size
        placed_tile = self.placed_tile
        new, set_tiles = _new, _set_tiles
        set_move, set_score, set_lines, set_bonus, set_rack_after, set_pending = _scored_setters
        wild_spends, spend_wilds = self._wild_spends, self.spend_wilds
        reachable: dict[int, int] = {}
        low_bits = (1 << (TARGET_SUM + 1)) - 1

        def sums_ahead(e: int, touched: bool, least: int, key: int) -> int:
            """Bit mask of the sums ``need`` the rack ``key`` could still complete exactly when
            a run is continued at position e (bit ``need`` set: the run may go on).

            A relaxation (which tiles the digits forced by cross lines need is ignored, but
            their sum counts): it only prunes runs that cannot reach exactly 10 with the tiles
            left, or cannot reach an anchor. ``least`` is the fewest tiles the run must still
            place (2 for a run not started yet). Memoised:
            the digits tried at one square, and a tile or a wild standing for it, meet the same
            questions again.
            """
            memo = ((key * n + e) * 2 + touched) * 3 + least
            sums = reachable.get(memo)
            if sums is None:
                masks = sums_by_size(key)
                fewest = least if touched else max(least, reach[e] or n)
                sums = 0
                for m, passed, free, fixed in endings[e]:
                    if m >= fewest:
                        # m tiles adding up to the sum, and the free ones to the sum less the
                        # forced digits: both are necessary.
                        sums |= (masks[m] << passed) & (masks[free] << fixed)
                sums = reachable[memo] = sums & low_bits
            return sums

        def build_lines(
            move: Placement, start: int, end: int, main_score: int
        ) -> tuple[Line, ...]:
            """The lines of a run from ``squares[start:end]``, built when first asked for:
            the main line, then the cross lines of the placed tiles in reading order."""
            # The generator's tiles all carry their digit.
            new = {t.row * size + t.col: cast(int, t.digit) for t in move.tiles}
            main_squares = squares[start:end]
            values = tuple(new.get(square, cells[square]) for square in main_squares)
            crossed = [
                cross_line(square, digit, cross_dir)
                for square, digit in new.items()
                if cross_runs[square] is not None
            ]
            return (new_line(direction, main_squares, values, main_score), *crossed)

        def extend(
            p: int, start: int, s: int, total: int, factor: int, cross: int, touched: bool,
            key: int,
        ) -> None:
            q = squares[p]
            nm, lm = nmul[q], lmul[q]
            run = cross_runs[q]
            ext, nxt = right_sum[p], next_empty[p]
            room = TARGET_SUM - s - ext  # the digit here that makes the main line exactly 10
            touched = touched or anchor[p]
            k = len(digits_placed) + 1
            can_end = k >= 2 and touched
            bonus = bonus7 if k == RACK_SIZE else 0
            going = k < max_tiles and nxt < n and bool(allowed[nxt])
            if going:
                digits = allowed[p]
            elif can_end and 0 <= room <= 9 and room in allowed[p]:
                digits = (room,)  # the run must end here: only one digit can do it
            else:
                return
            has_wild_left = counts[WILD] > 0
            wild_ahead = -1
            for d in digits:
                if d > room:
                    break
                # A digit sequence is searched once: a rack tile stands for d if there is one
                # (that leaves the wild, which can do anything the tile could), else a wild.
                # The other ways to spend the wilds on the same digits are added on emission.
                if counts[d]:
                    tile = d
                    key_after = key - weight[d]
                    ahead = sums_ahead(nxt, touched, 1, key_after) if going else 0
                elif has_wild_left:
                    tile = WILD
                    key_after = key - wild_weight
                    if wild_ahead < 0:  # the same for every digit a wild plays here
                        wild_ahead = sums_ahead(nxt, touched, 1, key_after) if going else 0
                    ahead = wild_ahead
                else:
                    continue
                finish = can_end and d == room
                rest = room - d  # what the rest of the run must add
                go = (ahead >> rest) & 1
                if not (finish or go):
                    continue
                if run is None:
                    cross_here = 0
                else:
                    cross_here = (run[2] + d * nm) * lm
                digits_placed.append(d)
                tile_key = q * 20 + d * 2
                real = tiles.get(tile_key)
                if real is None:
                    real = placed_tile(q, d, False)
                placed.append(real)
                if has_wild:
                    wild = tiles.get(tile_key + 1)
                    if wild is None:
                        wild = placed_tile(q, d, True)
                    placed_wild.append(wild)
                if finish:
                    main_score = (total + d * nm + ext) * factor * lm
                    score = main_score + cross + cross_here + bonus
                    recipe = (build_lines, start, nxt, main_score)
                    spends: Sequence[WildSpend] | None = wild_spends.get(
                        tuple(digits_placed)
                    )
                    if spends is None:
                        spends = spend_wilds(tuple(digits_placed))
                    if best_wilds:
                        # Same squares and rack tiles, other wild digits: keep the best score.
                        for wild_at, used, kept in spends:
                            slot = (start, nxt, used)
                            old = best.get(slot)
                            if old is not None and old[0] >= score:
                                continue
                            chosen = placed.copy()
                            for i in wild_at:
                                chosen[i] = placed_wild[i]
                            best[slot] = (score, tuple(chosen), bonus, kept, recipe)
                        spends = ()
                    # Built inline (see rules.new_scored_placement): up to ~20k per call.
                    for wild_at, _, kept in spends:
                        if wild_at:
                            chosen = placed.copy()
                            for i in wild_at:
                                chosen[i] = placed_wild[i]
                            tiles_here = tuple(chosen)
                        else:
                            tiles_here = tuple(placed)
                        move = new(Placement)
                        set_tiles(move, tiles_here)
                        scored = new(ScoredPlacement)
                        set_move(scored, move)
                        set_score(scored, score)
                        set_lines(scored, None)
                        set_bonus(scored, bonus)
                        set_rack_after(scored, kept)
                        set_pending(scored, recipe)
                        out_append(scored)
                if go:
                    counts[tile] -= 1
                    extend(
                        nxt, start, TARGET_SUM - rest, total + d * nm + ext, factor * lm,
                        cross + cross_here, touched, key_after,
                    )
                    counts[tile] += 1
                placed.pop()
                digits_placed.pop()
                if has_wild:
                    placed_wild.pop()

        for p in range(n):
            if not allowed[p] or reach[p] is None or reach[p] > max_tiles:  # type: ignore[operator]
                continue
            # Existing tiles just before the start join the main line.
            start, left = p, 0
            while start > 0 and not empty[start - 1]:
                start -= 1
                left += vals[start]
            if left > TARGET_SUM:
                continue
            if (sums_ahead(p, False, 2, self.rack_key) >> (TARGET_SUM - left)) & 1:
                extend(p, start, left, left, 1, 0, False, self.rack_key)
        for score, tiles_here, bonus, kept, recipe in best.values():
            out_append(
                new_scored_placement(new_placement(tiles_here), score, None, bonus, kept, recipe)
            )


    def wild_symbol_runs(
        self, squares: tuple[int, ...], direction: str, allowed: list[tuple[int, ...]],
        right_sum: list[int], next_empty: list[int], reach: list[int | None],
        anchor: list[bool], max_tiles: int,
    ) -> None:
        """Players' mode with wilds on the rack: the best placement per (squares, rack tiles
        used), without listing every digit a wild could play.

        Each span of empty squares is taken once. A square whose cross line forces a digit
        takes a tile of that digit or a wild; the other ("free") squares take a multiset of
        the remaining tiles, and the wilds among them share what the main line still needs
        (9s first: that choice dominates every other). Free squares have no cross line, so
        only their number multipliers weigh the digits: the largest digits go on the highest
        multipliers (the rearrangement inequality), which is the best score for that span and
        those tiles.
        """
        n = len(squares)
        cells, nmul, lmul, counts = self.cells, self.nmul, self.lmul, self.counts
        cross_dir = DOWN if direction == ACROSS else ACROSS
        cross_runs = self.runs[cross_dir]
        vals = [cells[s] for s in squares]
        bonus7 = placement_bonus(RACK_SIZE, self.seven_tile_bonus)
        weight, rack_key, size = self.weight, self.rack_key, self.size
        best: dict[tuple[int, int, int], BestRun] = {}

        def build_lines(
            move: Placement, start: int, end: int, main_score: int
        ) -> tuple[Line, ...]:
            # The generator's tiles all carry their digit.
            new = {t.row * size + t.col: cast(int, t.digit) for t in move.tiles}
            main = squares[start:end]
            values = tuple(new.get(q, cells[q]) for q in main)
            crossed = [
                self.cross_line(q, digit, cross_dir)
                for q, digit in new.items()
                if cross_runs[q] is not None
            ]
            return (new_line(direction, main, values, main_score), *crossed)

        def emit(
            start: int, end: int, existing: int, factor: int,
            forced: list[tuple[int, int, int]], free: list[int], picked: list[int],
        ) -> None:
            """Score one choice: ``forced`` (square, digit, tile), ``picked`` free tiles."""
            need = TARGET_SUM - existing - sum(d for _, d, _ in forced)
            need -= sum(t for t in picked if t != WILD)
            wilds = picked.count(WILD)
            if need < 0 or need > 9 * wilds:
                return
            values: list[tuple[int, int]] = [(t, t) for t in picked if t != WILD]
            for _ in range(wilds):
                values.append((min(9, need), WILD))
                need -= values[-1][0]
            values.sort(key=lambda v: (-v[0], v[1]))
            placed = [*forced, *(
                (q, d, tile) for q, (d, tile) in zip(free, values, strict=True)
            )]
            total, cross, used = existing, 0, 0
            for q, d, tile in placed:
                total += d * nmul[q]
                used += weight[tile]
                run = cross_runs[q]
                if run is not None:
                    cross += (run[2] + d * nmul[q]) * lmul[q]
            main_score = total * factor
            bonus = bonus7 if len(placed) == RACK_SIZE else 0
            score = main_score + cross + bonus
            slot = (start, end, used)
            old = best.get(slot)
            if old is not None and old[0] >= score:
                return
            placed.sort()
            tiles = tuple(self.placed_tile(q, d, tile == WILD) for q, d, tile in placed)
            kept = self.rack_after(rack_key - used)
            best[slot] = (score, tiles, bonus, kept, (build_lines, start, end, main_score))

        def pick_free(
            start: int, end: int, existing: int, factor: int,
            forced: list[tuple[int, int, int]], free: list[int], picked: list[int], tile: int,
        ) -> None:
            """Every multiset of len(free) remaining tiles (tile types from ``tile`` on)."""
            if len(picked) == len(free):
                emit(start, end, existing, factor, forced, free, picked)
                return
            for t in range(tile, WILD + 1):
                if counts[t]:
                    counts[t] -= 1
                    picked.append(t)
                    pick_free(start, end, existing, factor, forced, free, picked, t)
                    picked.pop()
                    counts[t] += 1

        def choose_forced(
            start: int, end: int, existing: int, factor: int, todo: list[tuple[int, int]],
            forced: list[tuple[int, int, int]], free: list[int],
        ) -> None:
            if len(forced) == len(todo):
                pick_free(start, end, existing, factor, forced, free, [], 0)
                return
            q, digit = todo[len(forced)]
            for tile in (digit, WILD):
                if counts[tile]:
                    counts[tile] -= 1
                    forced.append((q, digit, tile))
                    choose_forced(start, end, existing, factor, todo, forced, free)
                    forced.pop()
                    counts[tile] += 1

        for p in range(n):
            if not allowed[p] or reach[p] is None or reach[p] > max_tiles:  # type: ignore[operator]
                continue
            start, existing = p, 0
            while start > 0 and vals[start - 1] != EMPTY:
                start -= 1
                existing += vals[start]
            span: list[int] = []
            touched, factor, fixed, f = False, 1, existing, p
            while f < n and allowed[f] and len(span) < max_tiles:
                span.append(f)
                existing += right_sum[f]
                factor *= lmul[squares[f]]
                if len(allowed[f]) == 1:
                    fixed += allowed[f][0]
                fixed += right_sum[f]
                touched = touched or anchor[f]
                if fixed > TARGET_SUM:
                    break
                if len(span) >= 2 and touched:
                    todo = [(squares[e], allowed[e][0]) for e in span if len(allowed[e]) == 1]
                    free = [squares[e] for e in span if len(allowed[e]) > 1]
                    # Free squares by number multiplier, highest first (earliest among equals).
                    free.sort(key=lambda q: (-nmul[q], q))
                    choose_forced(start, next_empty[f], existing, factor, todo, [], free)
                f = next_empty[f]
        for score, tiles, bonus, kept, recipe in best.values():
            self.out.append(
                new_scored_placement(new_placement(tiles), score, None, bonus, kept, recipe)
            )

    def run(self) -> list[ScoredPlacement]:
        size = self.size
        self.singles()
        rows, cols = _lines(size)
        for squares in rows:
            self.runs_of_line(squares, ACROSS)
        for squares in cols:
            self.runs_of_line(squares, DOWN)
        return self.out


def generate_placements(
    board: Board, rack: tuple[int, ...], *, seven_tile_bonus: bool = True,
    best_wilds: bool = False, anchors: frozenset[int] | None = None,
) -> list[ScoredPlacement]:
    """Every legal placement of ``rack`` on ``board``, scored exactly as ``check_placement``.

    With ``best_wilds`` (the computer players' path) a placement's wilds take only their
    best-scoring digits: one result per set of squares and rack tiles used (the first found
    among equal scores). ``analyze`` and previews keep every assignment. With ``anchors``
    (square indices; not on an empty board) only the placements that cover one of those
    squares: the simulation asks what a move changed for the opponent."""
    # Tens of thousands of new objects (the results hold no reference cycles) would trigger many
    # cyclic-GC passes (a full one costs tens of ms on a big heap); pause the collector meanwhile.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Generator(board, tuple(rack), seven_tile_bonus, best_wilds, anchors).run()
    finally:
        if collecting:
            gc.enable()


def legal_moves(state: GameState, *, best_wilds: bool = False) -> list[ScoredPlacement]:
    """Every legal placement for the player to move ([] once the game is over); see
    ``generate_placements`` for ``best_wilds``."""
    if state.current_player is None:
        return []
    return generate_placements(
        state.board,
        state.racks[state.current_player],
        seven_tile_bonus=state.options.seven_tile_bonus,
        best_wilds=best_wilds,
    )
