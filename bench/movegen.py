"""Move-generation benchmark: ``python bench/movegen.py [--positions 200] [--repeats 5]``.

Builds seeded mid-game 13×13 positions by strong-vs-strong self-play (10–30 moves in), gives
the player to move a rack with 0, 1, 2 or 3 wilds (a quarter each), times ``legal_moves()`` (the
full listing) and ``legal_moves(best_wilds=True)`` (the computer players' path), the median of
several repeats per position, and prints the median and p99 time per wild count, the move
counts, the self-play rate in games per second and the load average. Every request a player
waits on (a move, a preview, the analysis of a move) takes the players' path or checks one
placement: the full listing is the command line's ``analyze`` and the puzzle generator's only
(``kind.best_move``, the analysis of a move, and the computer players take the players' path).

Times are wall-clock and this thread's CPU time (``time.thread_time``: without the waits for a
core, so steadier on a loaded machine). ``--reference FILE`` also times another generator (a copy
of an earlier ``games/crazy10s/engine/movegen.py``, e.g. ``git show REV:games/crazy10s/engine/
movegen.py > /tmp/old_movegen.py``) on the same positions, interleaved, and prints the ratio of
the two, which the machine's load affects little.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.crazy10s.engine import (  # noqa: E402
    WILD,
    GameState,
    apply_generated,
    apply_move,
    legal_moves,
    new_game_from_seed,
)
from games.crazy10s.engine.players import computer_choice  # noqa: E402
from games.crazy10s.engine.rules import ScoredPlacement  # noqa: E402
from games.crazy10s.selfplay import play_game  # noqa: E402


def mid_game_position(index: int) -> GameState:
    rng = random.Random(f"bench:{index}")
    state = new_game_from_seed(rng.getrandbits(63))
    target = rng.randrange(10, 31)
    while state.move_number < target and not state.is_over:
        choice = computer_choice(state, "strong", rng)
        if isinstance(choice, ScoredPlacement):
            state = apply_generated(state, choice).state
        else:
            state = apply_move(state, choice).state
    if state.is_over:  # rare: start again from a later seed
        return mid_game_position(index + 100_000)
    player = state.current_player
    assert player is not None
    wilds = index % 4
    digits = [t for t in state.racks[player] if t != WILD]
    while len(digits) < 7:
        digits.append(rng.randrange(10))
    rack = tuple(sorted(digits[: 7 - wilds] + [WILD] * wilds))
    racks = (rack, state.racks[1]) if player == 0 else (state.racks[0], rack)
    return replace(state, racks=racks)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(generate: Callable[..., list[ScoredPlacement]], state: GameState, best_wilds: bool,
          repeats: int) -> tuple[float, float, int]:
    """The median wall and CPU time (ms) of ``repeats`` runs, and the number of moves."""
    wall, cpu = [], []
    moves: list[ScoredPlacement] = []
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.thread_time()
        moves = generate(state, best_wilds=best_wilds)
        wall.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - started_cpu)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000, len(moves)


def load_reference(path: Path) -> ModuleType:
    """An earlier movegen.py, imported as a module of the engine package (its relative imports
    then find the engine's other modules)."""
    spec = importlib.util.spec_from_file_location("games.crazy10s.engine._reference", path)
    assert spec and spec.loader, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=20, help="strong-vs-strong games for the rate")
    parser.add_argument("--reference", type=Path, metavar="FILE",
                        help="also time this copy of an earlier engine/movegen.py")
    args = parser.parse_args()

    generators: dict[str, Callable[..., list[ScoredPlacement]]] = {"": legal_moves}
    if args.reference:
        generators["reference "] = load_reference(args.reference).legal_moves
    positions = [mid_game_position(i) for i in range(args.positions)]
    print(f"legal_moves() over {len(positions)} mid-game 13x13 positions "
          f"(median of {args.repeats} runs each); load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    for label, best_wilds in (("full listing", False), ("players' path (best_wilds)", True)):
        wall: dict[str, list[float]] = {name: [] for name in generators}
        cpu: dict[str, list[float]] = {name: [] for name in generators}
        counts: list[int] = []
        for state in positions:
            for name, generate in generators.items():
                w, c, count = timed(generate, state, best_wilds, args.repeats)
                wall[name].append(w)
                cpu[name].append(c)
            counts.append(count)
        for name in generators:
            times = wall[name]
            print(f" {name}{label}: median {statistics.median(times):.2f} ms"
                  f"  p99 {percentile(times, 0.99):.2f}  max {max(times):.2f};"
                  f" moves median {statistics.median(counts):.0f} max {max(counts)}")
            for wilds in range(4):
                w = wall[name][wilds::4]
                c = cpu[name][wilds::4]
                print(f"  {wilds} wild(s): median {statistics.median(w):.2f} ms"
                      f"  p99 {percentile(w, 0.99):.2f} ms  max {max(w):.2f} ms"
                      f"  (CPU median {statistics.median(c):.2f}  p99 {percentile(c, 0.99):.2f})")
        if args.reference:
            for wilds in range(4):
                new, old = cpu[""][wilds::4], cpu["reference "][wilds::4]
                ratios = [o / n for o, n in zip(old, new, strict=True) if n > 0]
                print(f"  {wilds} wild(s): reference / now, CPU: median of the ratios"
                      f" {statistics.median(ratios):.2f}, of the p99s"
                      f" {percentile(old, 0.99) / percentile(new, 0.99):.2f}")

    started = time.perf_counter()
    for game in range(args.games):
        play_game(game, ("strong", "strong"))
    elapsed = time.perf_counter() - started
    print(f"self-play strong vs strong: {args.games} games in {elapsed:.1f} s "
          f"= {args.games / elapsed:.2f} games/s")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
