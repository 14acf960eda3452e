"""A model queryset compiled into SQL once, then run again with other values (issue 28: building
and compiling the games lists' querysets — the filters, the annotations, the select_related
join — was a quarter of a list request's CPU, the same work for every request).

``CompiledQuery(build, count)`` calls ``build(*markers(count))`` once per database alias (and
thread) with stand-in values for what changes between requests (a user's id, the games' ids),
compiles the queryset and remembers where each stand-in landed among the SQL's parameters.
``run(values)`` puts the values there, executes the SQL on a cursor of the connection (query
logging and ``CaptureQueriesContext`` see it as any query) and turns the rows into model
instances as Django's ``ModelIterable`` does (the compiler's converters, ``select_related``
objects, annotations as attributes, deferred fields left out). Slicing would inline ``LIMIT`` and
``OFFSET`` into the SQL: ``paged=True`` appends them as two more parameters instead (``run``
takes ``limit`` and ``offset``), so one compiled statement serves every page.

The stand-ins are integers no row has (large negative numbers, within 32 bits so that Django
keeps them as they are; a text column's filter turns one into its text, which is found too);
each must land exactly once among the parameters, or compiling fails.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar, cast

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators  # type: ignore[attr-defined]

from config import prepared

M = TypeVar("M", bound=Model)
FIRST_MARKER = -2_000_000_000


def markers(count: int) -> list[int]:
    """``count`` stand-in values, each distinct and unlike any real id."""
    return [FIRST_MARKER - i for i in range(count)]


class CompiledQuery(Generic[M]):
    def __init__(
        self, build: Callable[..., QuerySet[M, Any]], count: int, *, paged: bool = False
    ) -> None:
        self._build = build
        self._count = count
        self._paged = paged
        # Per thread, as Django's connections are: the compiler converts the rows with its
        # connection's operations.
        self._compiled = threading.local()

    def run(
        self, values: Sequence[Any], *, limit: int | None = None, offset: int = 0,
        using: str = "default",
    ) -> list[M]:
        """The model instances (of a queryset of models)."""
        return cast(list[M], self._statement(using).run(self._values(values, limit, offset)))

    def rows(
        self, values: Sequence[Any], *, limit: int | None = None, offset: int = 0,
        using: str = "default",
    ) -> list[tuple[Any, ...]]:
        """The rows (of a ``values_list`` queryset)."""
        return self._statement(using).rows(self._values(values, limit, offset))

    def _statement(self, using: str) -> _Statement:
        by_alias: dict[str, _Statement] | None = getattr(self._compiled, "by_alias", None)
        if by_alias is None:
            by_alias = self._compiled.by_alias = {}
        statement = by_alias.get(using)
        if statement is None:
            statement = by_alias[using] = _Statement(
                self._build(*markers(self._count)), using, self._count, self._paged
            )
        return statement

    def _values(self, values: Sequence[Any], limit: int | None, offset: int) -> Sequence[Any]:
        if not self._paged:
            return values
        if limit is None:
            raise ValueError("a paged query needs a limit")
        return [*values, limit, offset]


class _Statement:
    def __init__(self, queryset: QuerySet, using: str, count: int, paged: bool) -> None:
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        positions = []
        for marker in markers(count):
            # A text column's filter holds the stand-in as text.
            found = [i for i, value in enumerate(params) if value in (marker, str(marker))]
            if len(found) != 1:
                raise ValueError(f"stand-in {marker} is {len(found)} times in {params!r}")
            positions.append(found[0])
        if paged:
            sql += " LIMIT %s OFFSET %s"
            params = (*params, None, None)
            positions += [len(params) - 2, len(params) - 1]
        self.sql, self.params, self.positions = sql, list(params), positions
        self.using, self.compiler = using, compiler
        # The compiler's converters, worked out once: results_iter asks every field and the
        # backend again on each run (~0.25 ms for a model's row, paid by every API request's
        # token lookup). None: composite columns, left to results_iter.
        columns = [s[0] for s in compiler.select[0 : compiler.col_count]]
        self.converters = (None if compiler.has_composite_fields(columns)
                           else compiler.get_converters(columns))
        klass_info = compiler.klass_info
        if queryset._iterable_class is not ModelIterable or klass_info is None:
            self.model = None  # values() or values_list(): rows only
            return
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in compiler.select[self.start:self.end]]
        self.related_populators = get_related_populators(klass_info, compiler.select, using)
        self.annotations = list(compiler.annotation_col_map.items())

    def _fetch(self, values: Sequence[Any]) -> list[Any]:
        params = list(self.params)
        for position, value in zip(self.positions, values, strict=True):
            params[position] = value
        # A fixed text: prepared on its first execution per connection (config/prepared.py),
        # then only its values are sent and PostgreSQL neither parses nor plans it again.
        with prepared.cursor(connections[self.using]) as cursor:
            cursor.execute(self.sql, params)
            return cursor.fetchall()

    def _converted(self, rows: list[Any]) -> Iterable[Sequence[Any]]:
        if self.converters is None:
            return self.compiler.results_iter([rows])
        if not self.converters:
            return rows
        return self.compiler.apply_converters(rows, self.converters)

    def rows(self, values: Sequence[Any]) -> list[tuple[Any, ...]]:
        rows = self._fetch(values)
        return [tuple(row) for row in self._converted(rows)] if rows else []

    def run(self, values: Sequence[Any]) -> list[Model]:
        if self.model is None:
            raise TypeError("a values_list() query has rows, not model instances")
        rows = self._fetch(values)
        if not rows:
            return []
        objects = []
        model, using, init_list = self.model, self.using, self.init_list
        start, end = self.start, self.end
        for row in self._converted(rows):
            obj = model.from_db(using, init_list, row[start:end])
            for populator in self.related_populators:
                populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects
