"""Django's Redis cache with one connection pool per process (the ``CACHES`` backend when
``REDIS_URL`` is set).

Django keeps a cache backend per context (``django.core.cache.caches`` is an asgiref ``Local``
that is not thread-critical), and its Redis client opens its own connection pool. Under the
ASGI server every request runs in a fresh copy of the context (config/threaded_wsgi.py), so each
request built a backend, a pool and a new Redis connection: a throttled request paid a TCP
connect, and the throttle's script cache (config/throttling.py, keyed by pool) kept every pool
and its connection alive, so a long-running web process collected one idle Redis connection
per request (issue 28). Here the pools are shared by every backend of the process with the same
server and options; redis-py's pools are thread-safe and start afresh in a forked child.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_pools: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = {}
_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    def _get_connection_pool(self, write: bool) -> Any:
        client: Any = self  # Django's private attributes, missing from django-stubs
        server = client._servers[client._get_connection_pool_index(write)]
        options = client._pool_options
        key = (server, tuple(sorted((name, repr(value)) for name, value in options.items())))
        pool = _pools.get(key)
        if pool is None:
            with _lock:
                pool = _pools.get(key)
                if pool is None:
                    pool = _pools[key] = client._pool_class.from_url(server, **options)
        return pool


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient
