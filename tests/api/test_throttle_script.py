"""The throttles' sliding window on Redis: its Lua script is registered once per connection
pool and reused (issue 28: a new client and Script per request cost a move POST ~0.3 ms),
and counts the same as before."""

from __future__ import annotations

import contextvars
import uuid

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from config import cache as shared_cache
from config import throttling

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_cache():
    # Marked redis: scripts/test.sh leaves these out when Redis is missing, never silently here.
    assert isinstance(caches["default"], RedisCache), "the throttles use Redis only with its cache"


def test_the_script_is_registered_once_and_still_counts(redis_cache, monkeypatch):
    registered = []
    real = redis.Redis.register_script
    monkeypatch.setattr(redis.Redis, "register_script",
                        lambda self, script: registered.append(script) or real(self, script))
    monkeypatch.setattr(throttling, "_scripts", {})
    hits = [throttling.count("throttle:test:script", 3, 60) for _ in range(4)]
    assert [h.allowed for h in hits] == [True, True, True, False]
    assert [h.remaining for h in hits] == [2, 1, 0, 0]
    assert 0 < hits[3].reset <= 60
    assert len(registered) == 1


def test_a_new_cache_pool_gets_its_own_script(redis_cache, monkeypatch):
    monkeypatch.setattr(throttling, "_scripts", {})
    assert throttling.count("throttle:test:pool", 2, 60).remaining == 1
    monkeypatch.setattr(shared_cache, "_pools", {})  # as a settings change would give
    assert throttling.count("throttle:test:pool", 2, 60).remaining == 0
    assert len(throttling._scripts) == 2
    for pool in shared_cache._pools.values():
        pool.disconnect()


def test_requests_in_fresh_contexts_share_one_pool_and_connection(redis_cache, monkeypatch):
    """Under the ASGI server each request runs in a copy of the context, where Django builds
    a new cache backend (config/threaded_wsgi.py): it used to open a Redis connection per
    request, and the script cache kept each one open."""
    monkeypatch.setattr(throttling, "_scripts", {})
    location = settings.CACHES["default"]["LOCATION"]
    observer = redis.Redis.from_url(location)
    name = f"c10s-test-{uuid.uuid4().hex[:8]}"

    def ours() -> int:
        clients = observer.client_list()
        return sum(1 for c in clients if c.get("name") == name)

    def request() -> None:
        backend = caches["default"]
        backend._cache._pool_options["client_name"] = name  # marks this test's connections
        throttling.count("throttle:test:contexts", 1000, 60)

    monkeypatch.setattr(shared_cache, "_pools", {})
    try:
        for _ in range(20):
            contextvars.copy_context().run(request)
        assert len(shared_cache._pools) == 1
        assert len(throttling._scripts) == 1
        assert ours() == 1
    finally:
        for pool in shared_cache._pools.values():
            pool.disconnect()
        observer.close()
