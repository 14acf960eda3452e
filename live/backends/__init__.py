"""Where events wait for their streams: ``db`` (embedded default) or ``redis``."""

from __future__ import annotations

from functools import cache

from django.conf import settings

from live.backends.base import Backend


@cache
def _backend(name: str) -> Backend:
    if name == "redis":
        from live.backends.redis import RedisBackend

        url = settings.REDIS_URL
        if not url:
            raise RuntimeError("LIVE_BACKEND=redis needs REDIS_URL")
        return RedisBackend(url)
    from live.backends.db import DbBackend

    return DbBackend()


def get_backend() -> Backend:
    return _backend(settings.LIVE_BACKEND)
