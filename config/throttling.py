"""Throttles whose counting is atomic, keyed on addresses clients cannot make up.

DRF's ``SimpleRateThrottle`` reads the request history from the cache and writes it back: two
requests at once both read "9 of 10" and both pass (40 parallel logins ran 39 password checks
against a limit of 10). Here the check and the hit are one step: a Lua script on Redis (a sliding
window in a sorted set), or, with the file cache of the embedded mode (one machine), the same
read-modify-write under an exclusive file lock that every process on the machine shares.

The address is the socket's (``REMOTE_ADDR``); ``X-Forwarded-For`` is only read when
``NUM_PROXIES`` trusted proxies are configured, and then the address that many hops from the
right (what the nearest trusted proxy saw): ``config.proxies``, which the ASGI entry point
applies as well, so that the servers and Django agree.

If the cache is unreachable the throttle lets the request through and logs and counts the event:
an outage of the counter must not turn every login into a 500.
"""

from __future__ import annotations

import fcntl
import hashlib
import ipaddress
import logging
import math
import threading
import time
import uuid
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from config import ratelimit, redis_health
from config.proxies import forwarded_client

log = logging.getLogger(__name__)

_DURATIONS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

# KEYS[1]: the window's sorted set. ARGV: now, window (s), limit, a unique member.
# Returns {allowed (1/0), hits in the window after this one, "<seconds until the oldest hit
# leaves the window>"}: when refused, that is the wait.
_SLIDING_WINDOW = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local allowed = 0
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, redis.call('ZCARD', KEYS[1]), tostring(tonumber(oldest[2]) + window - now)}
"""


@dataclass(frozen=True)
class Hit:
    """One counted request: allowed or not, how many more the window takes now, and the
    seconds until its oldest hit leaves it (when refused: the wait)."""

    allowed: bool
    remaining: int
    reset: float

_process_lock = threading.Lock()
# Requests let through unthrottled because the cache failed (for tests and diagnostics; each
# one is also logged).
degraded_count = 0
# After a cache failure the throttles skip the cache for this long (per process): a hung Redis
# costs each request its socket timeout, and a login checks two throttles, so without this a
# login would wait twice the timeout on every attempt while Redis is away.
CACHE_RETRY_SECONDS = 5.0
_cache_down_until = 0.0


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/min"`` -> (10, 60), as DRF reads rates."""
    count, period = rate.split("/")
    return int(count), _DURATIONS[period.strip()[0]]


def client_address(request) -> str:
    """The client's address: the socket's, or with ``NUM_PROXIES`` trusted proxies in front,
    the one the nearest of them reported. IPv6 clients are counted per /64 (one subscriber
    usually has a whole /64 to pick addresses from)."""
    address = forwarded_client(
        request.META.get("REMOTE_ADDR", ""),
        request.META.get("HTTP_X_FORWARDED_FOR", ""),
        api_settings.NUM_PROXIES or 0,
    )
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


@contextmanager
def _machine_lock():
    # flock on a fresh descriptor excludes other threads of this process as well as other
    # processes; the thread lock just keeps them from spinning on the file.
    with _process_lock, open(settings.VAR_DIR / "throttle.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# The sliding window's script per connection pool of the cache: Django's cache builds a new
# redis client on every call (its ``get_client``), and ``register_script`` a new Script (with
# its SHA) each time; both cost a move POST ~0.3 ms of CPU (issue 28). Keyed by the pool's id,
# with the pool kept beside it so that a pool's id reused after it is freed cannot match.
_scripts: dict[int, tuple[object, Any]] = {}


def _script_for(backend: RedisCache, key: str) -> Any:
    # The cache's redis client (Django's private RedisCacheClient, missing from django-stubs).
    cache_client = backend._cache  # type: ignore[attr-defined]
    pool = cache_client._get_connection_pool(write=True)
    entry = _scripts.get(id(pool))
    if entry is None or entry[0] is not pool:
        client = cache_client.get_client(key, write=True)
        entry = (pool, client.register_script(_SLIDING_WINDOW))
        _scripts[id(pool)] = entry  # a race builds it twice: harmless, both are the same
    return entry[1]


def _hit_redis(backend: RedisCache, key: str, limit: int, window: int, now: float) -> Hit:
    script = _script_for(backend, key)
    allowed, count, reset = script(
        keys=[key], args=[now, window, limit, f"{now}:{uuid.uuid4().hex}"]
    )
    return Hit(bool(int(allowed)), max(0, limit - int(count)), float(reset))


def _hit_locked(backend, key: str, limit: int, window: int, now: float) -> Hit:
    with _machine_lock():
        history = [t for t in backend.get(key, []) if t > now - window]
        if len(history) >= limit:
            return Hit(False, 0, history[0] + window - now)
        history.append(now)
        backend.set(key, history, window)
        return Hit(True, limit - len(history), history[0] + window - now)


def hit(key: str, limit: int, window: int) -> tuple[bool, float]:
    """Record one request against ``limit`` per ``window`` seconds, atomically.
    Returns (allowed, seconds to wait when refused)."""
    counted = count(key, limit, window)
    return counted.allowed, 0.0 if counted.allowed else counted.reset


def count(key: str, limit: int, window: int) -> Hit:
    """``hit`` with what a client may be told of the window (``RateLimit-*`` headers)."""
    global degraded_count, _cache_down_until
    now = time.time()
    if now < _cache_down_until:
        degraded_count += 1
        log.warning("throttle %s not counted (cache failed recently): request allowed", key)
        return Hit(True, limit, float(window))
    try:
        # The backend itself: ``django.core.cache.cache`` is a proxy, never an instance of it.
        backend = caches["default"]
        if isinstance(backend, RedisCache):
            return _hit_redis(backend, backend.make_and_validate_key(key), limit, window, now)
        return _hit_locked(backend, key, limit, window, now)
    except Exception:  # redis.ConnectionError, TimeoutError, OSError...: never a 500
        degraded_count += 1
        _cache_down_until = time.time() + CACHE_RETRY_SECONDS
        redis_health.note_failure()  # the request's live events and messages skip it too
        log.warning("throttle %s not counted (cache unavailable): request allowed", key,
                    exc_info=True)
        return Hit(True, limit, float(window))


class AtomicThrottle(BaseThrottle):
    """Checks each (scope, identity) of ``identities`` in turn; the first one over its rate
    refuses the request (later ones are then not counted)."""

    def identities(self, request, view) -> Iterable[tuple[str, str]]:
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        self._wait: float | None = None
        for scope, identity in self.identities(request, view):
            rate = api_settings.DEFAULT_THROTTLE_RATES[scope]
            # drf-stubs type the rates as numbers: they are "n/period" strings.
            limit, window = parse_rate(rate)  # type: ignore[arg-type]
            counted = count(f"throttle:{scope}:{identity}", limit, window)
            ratelimit.note(request, limit, counted.remaining, counted.reset)
            if not counted.allowed:
                self._wait = max(counted.reset, 0.001)
                return False
        return True

    def wait(self) -> float | None:
        return self._wait


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


class UserThrottle(AtomicThrottle):
    """Per signed-in user, at the view's ``throttle_scope`` rate."""

    def identities(self, request, view) -> Iterable[tuple[str, str]]:
        yield view.throttle_scope, str(request.user.pk)


class AddressThrottle(AtomicThrottle):
    """Per client address, at the view's ``throttle_scope`` rate."""

    def identities(self, request, view) -> Iterable[tuple[str, str]]:
        yield view.throttle_scope, _digest(client_address(request))


class MissThrottle:
    """Counts only the requests that miss (a code that names nothing), per user and per client
    address, at the ``scope`` and ``address_scope`` rates: guessing codes is what it stops,
    while a player who opens the tables they were given is never counted.

    Once either count is over its rate every request of the scope is refused until the window
    frees a place, those that would hit as well: answering them would tell the guesser which
    codes exist. ``check`` before the lookup, ``missed`` when it found nothing (it raises
    ``Refused`` for the miss that went over). The cache unavailable: nothing is refused.
    """

    class Refused(Exception):
        def __init__(self, wait: float) -> None:
            super().__init__(wait)
            self.wait = max(1.0, wait)

    def __init__(self, scope: str, address_scope: str) -> None:
        self.scope, self.address_scope = scope, address_scope

    def _identities(self, request) -> list[tuple[str, str]]:
        found = [(self.address_scope, _digest(client_address(request)))]
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            found.insert(0, (self.scope, str(user.pk)))
        return found

    @staticmethod
    def _block_key(scope: str, identity: str) -> str:
        return f"throttle:{scope}:{identity}:refusing-until"

    def check(self, request) -> None:
        now = time.time()
        try:
            keys = [self._block_key(*identity) for identity in self._identities(request)]
            until = max((u for u in caches["default"].get_many(keys).values() if u), default=0)
        except Exception:
            log.warning("throttle %s not checked (cache unavailable): request allowed",
                        self.scope)
            return
        if until > now:
            raise self.Refused(until - now)

    def missed(self, request) -> None:
        rates = api_settings.DEFAULT_THROTTLE_RATES
        for scope, identity in self._identities(request):
            limit, window = parse_rate(rates[scope])  # type: ignore[arg-type]
            counted = count(f"throttle:{scope}:{identity}", limit, window)
            if counted.allowed:
                continue
            wait = max(counted.reset, 1.0)
            try:
                caches["default"].set(self._block_key(scope, identity), time.time() + wait,
                                      math.ceil(wait))
            except Exception:
                log.warning("throttle %s: refusal not stored (cache unavailable)", scope)
            raise self.Refused(wait)


__all__ = ["AddressThrottle", "AtomicThrottle", "Hit", "MissThrottle", "UserThrottle",
           "client_address", "count", "hit", "parse_rate"]
