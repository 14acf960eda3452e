"""How fast this machine's CPU runs Python right now, printed beside a benchmark's figures.

This VM switches between a fast and a slow mode within the hour (2-3x the CPU for the same
code), so a figure alone cannot say whether the code or the machine changed: a fixed loop's
time, taken the same way each time, can."""

from __future__ import annotations

import timeit


def reference_ms() -> float:
    """The best of five times of a fixed pure-Python loop, in ms."""
    loop = timeit.Timer("sum(i * i for i in range(100_000))")
    return min(loop.repeat(repeat=5, number=10)) / 10 * 1000


def describe() -> str:
    return f"reference loop {reference_ms():.2f} ms (bench/machine.py; lower is faster)"
