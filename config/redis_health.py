"""This process's memory of a recent Redis failure, shared by everything that talks to Redis
on a request's path (the throttles' cache, the live events, the broker's nudges).

A hung Redis costs every call its socket timeout (1 s), and a move makes several (a throttle,
its live events, the messages to the workers): without this memory one move waited 7-9 s.
After any of them fails, the others skip Redis for ``QUIET_SECONDS``: the throttles let the
request through, a live event is not stored (clients catch up on reload), a message is not
sent (every one has a sweep that finds its work in the database). So with Redis down or hung a
move costs at most one timeout, and still commits.
"""

from __future__ import annotations

import time

# Long enough to cover the rest of a request (and the next few), short enough that a Redis
# back from a restart is used again within seconds.
QUIET_SECONDS = 5.0

_failed_at = float("-inf")


def note_failure() -> None:
    global _failed_at
    _failed_at = time.monotonic()


def failed_recently() -> bool:
    return time.monotonic() - _failed_at < QUIET_SECONDS


def forget() -> None:
    """Trust Redis again at once (tests; a caller that just saw it answer)."""
    global _failed_at
    _failed_at = float("-inf")
