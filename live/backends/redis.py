"""Redis: one stream per player (``live:u:<id>``, XADD trimmed by MINID to the retention
window, so a Last-Event-ID within it always replays) and one pub/sub channel (``live:wake``)
carrying the player's id. Each web process holds a single subscription however many streams it
serves and reads a woken player's stream with XRANGE; any worker or web process publishes.

Stream slots (the per-player limit) are a sorted set per player, shared by all web processes;
a slot not refreshed for three heartbeats (a process that died) no longer counts.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any

import redis
import redis.asyncio as aioredis
from django.conf import settings

from live.backends.base import Backend
from live.events import Event, decode_stored, encode_stored

log = logging.getLogger(__name__)

WAKE_CHANNEL = "live:wake"
# Connections of one process's streams to Redis (per event loop). Unbounded, the pool grew by
# the largest burst it met and kept them all: 1,000 streams closing at once sent 1,000 ZREMs
# together. Commands wait up to POOL_WAIT_SECONDS for a free connection.
POOL_SIZE = 20
POOL_WAIT_SECONDS = 5


def stream_key(user_id: int) -> str:
    return f"live:u:{user_id}"


def slots_key(user_id: int) -> str:
    return f"live:slots:{user_id}"


def _ms(event_id: str) -> int | None:
    head, _, seq = event_id.partition("-")
    if not head.isdigit() or (seq and not seq.isdigit()):
        return None
    return int(head)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisBackend(Backend):
    name = "redis"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._sync = redis.Redis.from_url(
            url,
            socket_connect_timeout=settings.REDIS_SOCKET_CONNECT_TIMEOUT,
            socket_timeout=settings.REDIS_SOCKET_TIMEOUT,
        )
        # One async client per event loop (tests run several loops; a server runs one).
        self._clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _client(self) -> aioredis.Redis:
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            pool = aioredis.BlockingConnectionPool.from_url(
                self.url,
                max_connections=POOL_SIZE,
                timeout=POOL_WAIT_SECONDS,
                socket_connect_timeout=settings.REDIS_SOCKET_CONNECT_TIMEOUT,
                socket_timeout=settings.REDIS_SOCKET_TIMEOUT,
            )
            client = aioredis.Redis(connection_pool=pool)
            self._clients[loop] = client
        return client

    @property
    def retention_ms(self) -> int:
        return settings.LIVE_RETENTION_SECONDS * 1000

    def append(self, user_id: int, type_: str, data: dict[str, Any], game_id: int | None) -> str:
        pipe = self.pipeline()
        self.add_many(pipe, [(user_id, type_, data, game_id)])
        return _text(pipe.execute()[0])  # the XADD's id

    def append_many(self, events: list[tuple[int, str, dict[str, Any], int | None]]) -> None:
        """One round trip for all of them, and one wake-up per player."""
        pipe = self.pipeline()
        self.add_many(pipe, events)
        pipe.execute()

    def pipeline(self) -> Any:
        """A redis-py pipeline (no MULTI) on this backend's Redis, for ``add_many``."""
        return self._sync.pipeline(transaction=False)

    def add_many(self, pipe: Any, events: list[tuple[int, str, dict[str, Any], int | None]]
                 ) -> None:
        """``append_many``'s commands, queued in the caller's pipeline (which may carry other
        commands to the same Redis: ``games.effects.one_publication``): each event's XADD,
        then one expiry and one wake-up per player."""
        # Approximate MINID trims whole macro-nodes only: it never drops an entry inside the
        # window, it may keep a few older ones.
        min_id = max(int(time.time() * 1000) - self.retention_ms, 0)
        for user_id, type_, data, game_id in events:
            pipe.xadd(stream_key(user_id), {"e": encode_stored(type_, data, game_id)},
                      minid=min_id, approximate=True)
        for user_id in dict.fromkeys(user_id for user_id, *_ in events):
            pipe.pexpire(stream_key(user_id), self.retention_ms + 60_000)
            pipe.publish(WAKE_CHANNEL, str(user_id))

    async def latest_id(self, user_id: int) -> str:
        last = await self._client().xrevrange(stream_key(user_id), count=1)
        return _text(last[0][0]) if last else "0-0"

    async def read_after(self, user_id: int, after: str, limit: int) -> list[Event]:
        entries = await self._client().xrange(stream_key(user_id), min=f"({after}",
                                              count=limit)
        return [decode_stored(_text(eid), fields[b"e"]) for eid, fields in entries]

    async def replayable(self, user_id: int, after: str) -> bool:
        ms = _ms(after)
        if ms is None:
            return False
        now_ms = int(time.time() * 1000)
        # Trimming keeps everything younger than the window; allow for clock skew.
        return now_ms - self.retention_ms + 5_000 <= ms <= now_ms + 60_000

    async def run_waker(
        self, wake: Callable[[int], None], wake_all: Callable[[], None]
    ) -> None:
        # Its own connection with no read timeout: it waits on the channel indefinitely.
        client = aioredis.Redis.from_url(
            self.url, socket_connect_timeout=settings.REDIS_SOCKET_CONNECT_TIMEOUT,
            health_check_interval=30,
        )
        try:
            async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                await pubsub.subscribe(WAKE_CHANNEL)
                wake_all()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        wake(int(_text(message["data"])))
                    except ValueError:
                        continue
        finally:
            await client.aclose()

    # --- slots shared between web processes ------------------------------------------------
    def _slot_ttl(self) -> float:
        return settings.LIVE_HEARTBEAT_SECONDS * 3 + 5

    async def acquire_slot(self, user_id: int, stream_id: str, limit: int) -> bool:
        client = self._client()
        key = slots_key(user_id)
        now = time.time()
        pipe = client.pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {stream_id: now + self._slot_ttl()})
        pipe.zrank(key, stream_id)  # by expiry: the newest stream ranks last
        pipe.zcard(key)
        pipe.expire(key, int(self._slot_ttl()) + 1)
        _, _, _, count, _ = await pipe.execute()
        if count > limit:
            await client.zrem(key, stream_id)
            return False
        return True

    async def refresh_slot(self, user_id: int, stream_id: str) -> None:
        key = slots_key(user_id)
        client = self._client()
        await client.zadd(key, {stream_id: time.time() + self._slot_ttl()}, xx=True)
        await client.expire(key, int(self._slot_ttl()) + 1)

    async def release_slot(self, user_id: int, stream_id: str) -> None:
        await self._client().zrem(slots_key(user_id), stream_id)
