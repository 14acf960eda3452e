"""What a stored ``Game.result`` must look like, checked where it is written and where it is read.

A result has one score and one adjustment per seat of the game (``Game.seat_count``), whether
every seat was filled or not: readers index them by seat (``selectors.result_for``), and a
result with fewer entries broke every read of the game (issue 30). Three guards share this:

- the database refuses a result whose ``scores`` or ``adjustments`` is not a list of
  ``seat_count`` entries (``Game.Meta.constraints``, built on ``JSONArrayLength``), whoever
  writes it: a service, the admin, a migration or a raw ``update()``;
- the services check the whole shape before they save (``services._common._finish``), and
  ``manage.py verify_games`` reports stored games that do not fit (``result_problems``);
- a read of a game whose result is malformed anyway answers what it can and logs one error.

Terminations the service writes itself, beside the kinds' own: ``aborted`` (moderation, a
table everybody left), ``awarded`` (moderation) and ``cancelled`` (a game withdrawn before
every seat was filled: a random-opponent request nobody answered).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Func, IntegerField, Value

ABORTED = "aborted"
AWARDED = "awarded"
CANCELLED = "cancelled"
SERVICE_TERMINATIONS = (ABORTED, AWARDED, CANCELLED)
NOT_PLAYED = (ABORTED, CANCELLED)  # nobody won or lost: every seat's result is "none"
PER_SEAT = ("scores", "adjustments")


def result_problems(result: Any, seat_count: int) -> list[str]:
    """Why ``result`` does not fit a game of ``seat_count`` seats (empty: it fits, or there is
    no result). Only the shape: whether the scores are the right ones is ``verify_games``'s
    replay."""
    if result is None:
        return []
    if not isinstance(result, dict):
        return [f"result is {type(result).__name__}, not an object"]
    problems = []
    termination = result.get("termination")
    if not isinstance(termination, str) or not termination:
        problems.append(f"result.termination is {termination!r}")
    for key in PER_SEAT:
        values = result.get(key)
        if not isinstance(values, list):
            problems.append(f"result.{key} is {values!r}, not a list")
        elif len(values) != seat_count:
            problems.append(
                f"result.{key} has {len(values)} entries for {seat_count} seats: {values!r}"
            )
        elif not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            problems.append(f"result.{key} is not all integers: {values!r}")
    winners = result.get("winners", [])
    if not isinstance(winners, list) or not all(
        isinstance(w, int) and not isinstance(w, bool) and 0 <= w < seat_count for w in winners
    ):
        problems.append(f"result.winners is not a list of seats: {winners!r}")
    winner = result.get("winner")
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < seat_count
    ):
        problems.append(f"result.winner is not a seat: {winner!r}")
    return problems


class JSONArrayLength(Func):
    """The length of the JSON array under ``key`` of a JSON column, -1 when it is missing or
    not an array (so a comparison with a count is false rather than an error). PostgreSQL and
    SQLite spell it differently; both evaluate the type before the length."""

    output_field = IntegerField()

    def __init__(self, column: Any, key: str, **extra: Any) -> None:
        super().__init__(column, Value(key), **extra)

    def _parts(self, compiler, connection):
        column, key = self.get_source_expressions()
        column_sql, column_params = compiler.compile(column)
        key_sql, key_params = compiler.compile(key)
        return column_sql, tuple(column_params), key_sql, tuple(key_params)

    def as_postgresql(self, compiler, connection, **extra):
        col, col_params, key, key_params = self._parts(compiler, connection)
        item = f"(({col})::jsonb -> {key})"
        sql = (
            f"CASE WHEN jsonb_typeof{item} = 'array' THEN jsonb_array_length{item} ELSE -1 END"
        )
        return sql, (*col_params, *key_params, *col_params, *key_params)

    def as_sqlite(self, compiler, connection, **extra):
        col, col_params, key, key_params = self._parts(compiler, connection)
        path = f"('$.' || {key})"
        sql = (
            f"CASE WHEN json_type({col}, {path}) = 'array' "
            f"THEN json_array_length({col}, {path}) ELSE -1 END"
        )
        return sql, (*col_params, *key_params, *col_params, *key_params)

    def as_sql(self, compiler, connection, **extra):  # pragma: no cover - other databases
        raise NotImplementedError(f"JSONArrayLength on {connection.vendor}")
