"""Which computer turns a worker is playing right now, from PostgreSQL's advisory locks.

A worker holds a session lock on the game while it plays the computer's turn
(``playing``): PostgreSQL releases it the moment the worker's connection ends, so a worker that
was SIGKILLed (or lost its host) leaves no lock behind. The computer-turn sweep asks
``being_played`` before it queues a turn again, and so no longer has to wait out the broker's
visibility timeout (45 s) to tell a lost message from a slow one. The sweep itself runs under
another lock (``sweeping``), so that two sweeps (a slow one and the next beat's, or two beats)
never double up.

Without PostgreSQL (SQLite in ``make run``: one machine, one worker) nothing can be known:
``supported()`` is False and the sweep keeps to the visibility timeout.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

# The first key of each lock (the second is the game's id, or 0): anything else in the
# database using advisory locks must pick other numbers.
COMPUTER_TURN = 0x0C10_0A11
SWEEP = 0x0C10_5EE9
_INT4 = 2**31 - 1


def supported() -> bool:
    return connection.vendor == "postgresql"


def _key(game_id: int) -> int:
    return game_id % _INT4  # the two-int4 form; game ids fit, a wrap only makes it cautious


def _try_lock(first: int, second: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [first, second])
        return bool(cursor.fetchone()[0])


def _unlock(first: int, second: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [first, second])


@contextmanager
def _held(first: int, second: int) -> Iterator[bool]:
    """True inside if this session took the lock (False: another session holds it)."""
    if not supported():
        yield True
        return
    mine = _try_lock(first, second)
    try:
        yield mine
    finally:
        if mine and connection.is_usable():
            _unlock(first, second)


def playing(game_id: int):
    """Held while a worker plays the game's server turn."""
    return _held(COMPUTER_TURN, _key(game_id))


def sweeping():
    """Held while one sweep of computer turns runs."""
    return _held(SWEEP, 0)


def being_played(game_id: int) -> bool:
    """Whether some worker holds the game's turn lock now (always False without PostgreSQL:
    callers check ``supported()`` first)."""
    if not supported():
        return False
    with connection.cursor() as cursor:
        # pg_locks rather than a try-lock: a try from this session would succeed on a lock
        # this very session holds (they are re-entrant), and would have to be undone.
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid::bigint = %s AND objid::bigint = %s AND objsubid = 2)",
            [COMPUTER_TURN, _key(game_id)],
        )
        return bool(cursor.fetchone()[0])
