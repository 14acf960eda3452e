"""The embedded default: events are rows of ``LiveEvent``; each web process polls the table
(one query per ``LIVE_POLL_SECONDS`` for the whole process, however many streams it holds) and
wakes the streams of the players that got rows. Event ids are the rows' primary keys.

Meant for the embedded set-up (SQLite: one writer at a time, so ids are committed in order).
On PostgreSQL with concurrent writers a row with a smaller id can commit after a larger one
and be skipped by a live stream; use the ``redis`` backend there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.db.models import Max, Min

from live.backends.base import Backend
from live.events import Event
from live.models import LiveEvent

log = logging.getLogger(__name__)


def _db(fn):
    """Run ``fn`` in a worker thread, not the sync views' thread (stream reads must not queue
    behind the API), closing its connection as a request's end would (``CONN_MAX_AGE``)."""

    def call(*args):
        try:
            return fn(*args)
        finally:
            close_old_connections()

    return sync_to_async(call, thread_sensitive=False)


def _parse(event_id: str) -> int | None:
    try:
        value = int(event_id)
    except (TypeError, ValueError):
        return None
    return value if value >= 0 else None


def _new_rows(after: int) -> list[tuple[int, int]]:
    return list(
        LiveEvent.objects.filter(pk__gt=after).order_by("pk").values_list("pk", "user_id")[
            :10_000
        ]
    )


class DbBackend(Backend):
    name = "db"

    def append(self, user_id: int, type_: str, data: dict[str, Any], game_id: int | None) -> str:
        row = LiveEvent.objects.create(user_id=user_id, type=type_, data=data, game_id=game_id)
        return str(row.pk)

    def append_many(self, events: list[tuple[int, str, dict[str, Any], int | None]]) -> None:
        LiveEvent.objects.bulk_create(
            LiveEvent(user_id=user_id, type=type_, data=data, game_id=game_id)
            for user_id, type_, data, game_id in events
        )

    async def latest_id(self, user_id: int) -> str:
        latest = await _db(lambda: LiveEvent.objects.aggregate(m=Max("pk"))["m"])()
        return str(latest or 0)

    async def read_after(self, user_id: int, after: str, limit: int) -> list[Event]:
        cursor = _parse(after) or 0

        def query() -> list[Event]:
            rows = (
                LiveEvent.objects.filter(user_id=user_id, pk__gt=cursor)
                .order_by("pk")
                .values_list("pk", "type", "data", "game_id")[:limit]
            )
            return [Event(id=str(pk), type=t, data=d, game_id=g) for pk, t, d, g in rows]

        return await _db(query)()

    async def replayable(self, user_id: int, after: str) -> bool:
        cursor = _parse(after)
        if cursor is None:
            return False

        def check() -> bool:
            # The purge deletes by age, oldest first: while a row at or before the cursor is
            # left, nothing after it has been purged. A cursor beyond the newest row is bogus.
            bounds = LiveEvent.objects.aggregate(low=Min("pk"), high=Max("pk"))
            if cursor > (bounds["high"] or 0):
                return False
            # Nothing purged yet (the first id is still there): every cursor replays.
            return bounds["low"] in (None, 1) or LiveEvent.objects.filter(pk__lte=cursor).exists()

        return await _db(check)()

    async def run_waker(
        self, wake: Callable[[int], None], wake_all: Callable[[], None]
    ) -> None:
        last = int(await self.latest_id(0))
        wake_all()
        while True:
            await asyncio.sleep(settings.LIVE_POLL_SECONDS)
            try:
                rows = await _db(_new_rows)(last)
            except Exception:  # the database may be down for a moment: poll again
                log.exception("live: polling events failed")
                continue
            for pk, user_id in rows:
                last = max(last, pk)
                wake(user_id)
