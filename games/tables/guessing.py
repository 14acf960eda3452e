"""Guessing table codes: lookups and joins of codes that name no table are counted per user
and per client address (``THROTTLE_TABLE_MISSES``, ``THROTTLE_TABLE_MISSES_ADDRESS``); past
either rate every request by code is refused with ``429 throttled`` and ``Retry-After``
(config/throttling.py's ``MissThrottle``). A player opening the tables they were given is
never counted, however often."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from config.errors import ApiError
from config.throttling import MissThrottle
from games.tables import errors

CODE_MISSES = MissThrottle("table_misses", "table_misses_address")


@contextmanager
def counting_misses(request) -> Iterator[None]:
    """Around anything that looks a table up by the code the client sent."""
    try:
        CODE_MISSES.check(request)
    except MissThrottle.Refused as refused:
        raise errors.too_many_misses(refused.wait) from None
    try:
        yield
    except ApiError as exc:
        if exc.code == "table_not_found":
            try:
                CODE_MISSES.missed(request)
            except MissThrottle.Refused as refused:
                raise errors.too_many_misses(refused.wait) from exc
        raise
