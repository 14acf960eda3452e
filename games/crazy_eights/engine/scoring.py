"""Round points and the end of a match (docs/rules.md, "Crazy Eights": scoring and classic)."""

from __future__ import annotations

from .cards import CLASSIC_VALUE, DEFAULT_VALUE
from .options import Options


def round_points(
    options: Options, hands: tuple[tuple[int, ...], ...], reason: str, out: int | None
) -> tuple[tuple[int, ...], int | None]:
    """(points added to each seat's total, the round's winner or None).

    Default scoring: every hand left counts against its holder (the goer-out's hand is empty);
    a blocked round scores the same way. Classic: the goer-out scores the others' hands; in a
    blocked round the lowest hand scores the difference to each other hand. Two or more lowest
    hands in a blocked classic round share the lowest place: nobody scores (our choice, the
    rules leave it open: no single player won the round).
    """
    n = len(hands)
    if not options.classic:
        points = tuple(sum(DEFAULT_VALUE[c] for c in hand) for hand in hands)
        return points, out
    values = [sum(CLASSIC_VALUE[c] for c in hand) for hand in hands]
    if reason == "out":
        assert out is not None
        return tuple(sum(values) if i == out else 0 for i in range(n)), out
    low = min(values)
    lowest = [i for i, v in enumerate(values) if v == low]
    if len(lowest) > 1:
        return (0,) * n, None
    winner = lowest[0]
    gain = sum(v - low for v in values)
    return tuple(gain if i == winner else 0 for i in range(n)), winner


def ranking(options: Options, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Seats best first: lowest total first by default, highest first in classic; ties keep
    seat order."""
    sign = -1 if options.classic else 1
    return tuple(sorted(range(len(scores)), key=lambda s: (sign * scores[s], s)))


def match_winner(options: Options, scores: tuple[int, ...]) -> int | None:
    """The match's winner after a round, or None to play another round.

    Default: once someone is at or above the target, the lowest total wins; a tie for lowest
    plays another round. Classic: the first to reach the target wins (only one seat scores in a
    round, so there is never a tie).
    """
    goal = options.goal
    if max(scores) < goal:
        return None
    if options.classic:
        best = max(scores)
        leaders = [s for s, v in enumerate(scores) if v == best]
    else:
        best = min(scores)
        leaders = [s for s, v in enumerate(scores) if v == best]
    return leaders[0] if len(leaders) == 1 else None
