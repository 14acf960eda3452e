"""One scheduler, however many ``celery beat`` processes run.

Two beats would send every periodic task twice. Every beat takes a lock before it sends
anything: the one holding it schedules (renewing it every third of ``CELERY_BEAT_LOCK_SECONDS``),
any other stands by, checks again as often, and takes over when the holder stops (it releases
the lock) or dies (the lock expires after ``CELERY_BEAT_LOCK_SECONDS``). A second beat started by
mistake, or a deploy that starts the new beat before the old one stops, is harmless.

The lock lives in the broker's Redis (``SET NX PX``; renewed and released only by its holder's
token), or, without Redis (``make run``'s embedded beat), in an exclusive ``flock`` on
``VAR_DIR/beat.lock``, which the system releases when the process ends.
"""

from __future__ import annotations

import fcntl
import logging
import os
import socket
import time
import uuid
from pathlib import Path
from typing import TextIO, cast

from celery.beat import PersistentScheduler
from django.conf import settings

log = logging.getLogger("crazy10s.beat")

LOCK_KEY = "crazy10s:beat:lock"
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def holder_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class RedisLock:
    def __init__(self, url: str, ttl: float) -> None:
        import redis

        self.ttl_ms = int(ttl * 1000)
        self.token = f"{holder_name()}:{uuid.uuid4().hex[:8]}"
        self.client = redis.Redis.from_url(
            url, socket_connect_timeout=settings.REDIS_SOCKET_CONNECT_TIMEOUT,
            socket_timeout=settings.REDIS_SOCKET_TIMEOUT,
        )

    def acquire(self) -> bool:
        return bool(self.client.set(LOCK_KEY, self.token, nx=True, px=self.ttl_ms))

    def renew(self) -> bool:
        return bool(self.client.eval(_RENEW, 1, LOCK_KEY, self.token, str(self.ttl_ms)))

    def holder(self) -> str:
        # redis-py types the answers of its sync and asyncio clients alike (maybe awaitable).
        value = cast("bytes | None", self.client.get(LOCK_KEY))
        return value.decode() if value else "nobody"

    def release(self) -> None:
        self.client.eval(_RELEASE, 1, LOCK_KEY, self.token)


class FileLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.handle: TextIO | None = None

    def acquire(self) -> bool:
        handle = open(self.path, "a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(holder_name())
        handle.flush()
        self.handle = handle
        return True

    def renew(self) -> bool:
        return self.handle is not None

    def holder(self) -> str:
        try:
            return self.path.read_text() or "another process"
        except OSError:
            return "another process"

    def release(self) -> None:
        if self.handle is not None:
            self.handle.close()  # closing the descriptor releases the flock
            self.handle = None


def make_lock(ttl: float):
    if settings.REDIS_URL:
        return RedisLock(settings.CELERY_BROKER_URL, ttl)
    return FileLock(settings.VAR_DIR / "beat.lock")


class LockedScheduler(PersistentScheduler):
    """``celery beat``'s default scheduler (its schedule file as before), sending only while it
    holds the lock."""

    def __init__(self, *args, **kwargs) -> None:
        self.lock_ttl = float(settings.CELERY_BEAT_LOCK_SECONDS)
        self.check_every = self.lock_ttl / 3
        self.lock = make_lock(self.lock_ttl)
        self.holding = False
        self.last_renewed = 0.0
        self.announced_standby = False
        super().__init__(*args, **kwargs)

    def tick(self, *args, **kwargs) -> float:
        if not self._hold_lock():
            return self.check_every
        return min(super().tick(*args, **kwargs), self.check_every)

    def _hold_lock(self) -> bool:
        now = time.monotonic()
        try:
            if self.holding:
                if self.lock.renew():
                    self.last_renewed = now
                    return True
                self.holding = False
                log.error("beat: the scheduler lock was lost (%s holds it): standing by",
                          self.lock.holder())
                return False
            if self.lock.acquire():
                self.holding, self.last_renewed, self.announced_standby = True, now, False
                log.info("beat: holding the scheduler lock: this beat sends the periodic tasks")
                return True
            if not self.announced_standby:
                self.announced_standby = True
                log.warning("beat: another beat holds the scheduler lock (%s): standing by, "
                            "taking over if it stops", self.lock.holder())
            return False
        except Exception:
            # Redis unreachable: nothing could be sent anyway. The holder goes on while its lock
            # cannot have expired yet; after that another beat may have taken it.
            log.warning("beat: the scheduler lock cannot be checked", exc_info=True)
            self.holding = self.holding and now - self.last_renewed < self.lock_ttl
            return self.holding

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self.holding:
                try:
                    self.lock.release()
                    log.info("beat: released the scheduler lock")
                except Exception:
                    log.warning("beat: releasing the scheduler lock failed (it expires)",
                                exc_info=True)
                self.holding = False
