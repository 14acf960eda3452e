"""Prepared statements for the few hot statements whose text repeats (issue 28).

Django's PostgreSQL backend binds parameters on the client (it quotes every value into the SQL
text) and turns psycopg's prepared statements off, so each execution of a move's lock query and
of its write statement is quoted in Python and parsed and planned again by PostgreSQL.
``cursor()`` gives a Django cursor (counted by ``connection.queries`` and
``CaptureQueriesContext`` like any other) over a psycopg cursor that binds on the server and
prepares the statement on its second execution on the connection: later executions send only
the statement's name and the values. psycopg forgets them with the connection and on a rollback
(prepared again on later use).

Only for statements of a fixed text with plain values (the callers' compiled SQL): the rest of
the ORM keeps Django's client-side binding. psycopg keeps at most ``prepared_max`` (100)
statements per connection. A connection pooler in
transaction mode would need its prepared-statement support (PgBouncer >= 1.21); the project's
set-ups connect to PostgreSQL directly.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper


def _prepared_cursor_class() -> type:
    import psycopg

    class PreparedCursor(psycopg.Cursor):
        def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
            # Django turns preparing off on the connection (threshold None). For this one
            # statement a threshold of 1 prepares it from its second execution on the
            # connection (preparing costs a round trip of its own: a connection that runs it
            # once, as one that lives for one request, never pays it), and leaves the ORM's
            # other statements uncounted.
            connection = self.connection
            connection.prepare_threshold = 1
            try:
                return super().execute(query, params, **kwargs)
            finally:
                connection.prepare_threshold = None

        def _convert_query(self, query: Any, params: Any = None) -> Any:
            # Kept where Django's query log looks for the statement (last_executed_query):
            # its text with $1, $2... for the values.
            self._query = converted = super()._convert_query(query, params)
            return converted

    return PreparedCursor


_cursor_class: type | None = None


def cursor(connection: BaseDatabaseWrapper) -> Any:
    """A cursor of ``connection`` whose statements are prepared (PostgreSQL with psycopg 3),
    else the connection's usual cursor."""
    global _cursor_class
    if connection.vendor != "postgresql" or not _is_psycopg3(connection):
        return connection.cursor()
    if _cursor_class is None:
        _cursor_class = _prepared_cursor_class()
    connection.ensure_connection()
    # Django's own wrapping (query logging, the debug cursor of tests, execute wrappers).
    return connection._prepare_cursor(  # type: ignore[attr-defined]
        _cursor_class(connection.connection))


def _is_psycopg3(connection: BaseDatabaseWrapper) -> bool:
    # The backend's driver module: psycopg (3) or psycopg2, whichever Django found.
    return getattr(getattr(connection, "Database", None), "__name__", "") == "psycopg"
