"""psycopg's C loader for ``timestamptz`` values on PostgreSQL connections (issue 28).

Django's PostgreSQL backend registers its own ``timestamptz`` loader on every connection: a
subclass of psycopg's pure-Python loader (a regular expression and a ``datetime`` built in
Python per value) that then replaces the value's time zone with the connection's. A move's lock
query reads about thirty timestamps (the game, its seats, their players; the token's); parsing
them was ~4 % of a move request's CPU. psycopg's C loader (``psycopg_binary``) gives the same
aware datetime when the session's time zone is UTC, which is how Django sets the session up with
``USE_TZ`` and no database ``TIME_ZONE``: its values then carry ``datetime.timezone.utc``, the
zone Django's loader would set.

Installed from ``connection_created`` (after Django set the session's time zone), only where
all of that holds: otherwise Django's loader stays. The C loader follows the session's time zone,
so a session switched to another zone afterwards (``SET TIME ZONE``, or a pooler in transaction
mode handing the connection's session to others) would get the right instants in that zone,
where Django's loader would have labelled them UTC; nothing in the project does either.
"""

from __future__ import annotations

import datetime
from typing import Any

_fast_loader: type | None = None


def _c_loader() -> type | None:
    """A loader that hands each value to psycopg's C ``TimestamptzLoader`` (a final class:
    it cannot be subclassed), with the ``timezone`` attribute Django's cursors read
    (``DatabaseWrapper.create_cursor`` compares it with the connection's); None without
    psycopg's C implementation (``psycopg_binary`` or a local ``psycopg_c`` build)."""
    global _fast_loader
    if _fast_loader is None:
        import psycopg
        from psycopg.adapt import Loader
        from psycopg.pq import Format

        c_loader = psycopg.adapters.get_loader(
            psycopg.adapters.types["timestamptz"].oid, Format.TEXT
        )
        if c_loader is None or not c_loader.__module__.startswith(("psycopg_binary", "psycopg_c")):
            return None

        class UtcTimestamptzLoader(Loader):
            timezone = datetime.UTC

            def __init__(self, oid: int, context: Any = None) -> None:
                super().__init__(oid, context)
                self.load = c_loader(oid, context).load  # type: ignore[method-assign, misc]

            def load(self, data: Any) -> Any:  # replaced per instance by the C loader's
                raise NotImplementedError

        _fast_loader = UtcTimestamptzLoader
    return _fast_loader


def install(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: the C loader on a PostgreSQL (psycopg 3) connection
    whose session is in UTC and whose values Django wants in UTC."""
    if connection.vendor != "postgresql" or connection.timezone is not datetime.UTC:
        return
    raw = connection.connection
    adapters = getattr(raw, "adapters", None)  # psycopg2 has none: left as it is
    if adapters is None or raw.info.parameter_status("TimeZone") != "UTC":
        return
    loader = _c_loader()
    if loader is not None:
        adapters.register_loader("timestamptz", loader)
