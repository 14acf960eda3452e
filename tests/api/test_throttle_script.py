"""The throttles' sliding window on Redis: its Lua script is registered once per connection
pool and reused (issue 28: a new client and Script per request cost a move POST ~0.3 ms),
and counts the same as before."""

from __future__ import annotations

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

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
    backend = caches["default"]
    old_pools = dict(backend._cache._pools)
    backend._cache._pools.clear()  # as a cache rebuilt by a settings change would have
    try:
        assert throttling.count("throttle:test:pool", 2, 60).remaining == 0
        assert len(throttling._scripts) == 2
    finally:
        for pool in backend._cache._pools.values():
            pool.disconnect()
        backend._cache._pools.clear()
        backend._cache._pools.update(old_pools)
