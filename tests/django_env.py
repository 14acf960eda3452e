"""The test run's environment, set before pytest-django loads the settings.

Loaded with ``-p tests.django_env`` (pyproject ``addopts``), so it runs before pytest-django
imports ``config.settings`` and so that ``pytest`` alone behaves as ``scripts/test.sh`` does:

- a third game kind registered (``EXTRA_GAME_KINDS``: tests/kinds/tictactoe);
- a test-only ``SECRET_KEY`` and ``PUZZLE_SECRET`` (DEBUG is off by default, and then both are
  required) and no
  HTTPS redirect (the test client speaks plain HTTP);
- its own ``VAR_DIR`` (file cache, SQLite, filesystem broker) in a temporary directory;
- its own Redis database. Tests flush the cache before and after each test, so they must
  never run against the databases the service uses: ``REDIS_URL`` names the service's broker
  (its cache is the next database, or ``CACHE_REDIS_URL``), and the tests use ``TEST_REDIS_URL``
  as their broker, by default the same server's database 14, with their cache in the next
  database (15). Worker subprocesses inherit the rewritten ``REDIS_URL``/``CACHE_REDIS_URL``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlparse

import pytest

TEST_REDIS_DB = 14
# Whatever the environment says, the tests never flush a service's default database.
DEFAULT_SERVICE_REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_address(url: str) -> tuple[str, int, int]:
    """(host, port, db) of a redis:// URL; ``localhost`` and 127.0.0.1 compare equal."""
    parsed = urlparse(url)
    host = parsed.hostname or "127.0.0.1"
    if host == "localhost":
        host = "127.0.0.1"
    path = parsed.path.strip("/")
    return host, parsed.port or 6379, int(path) if path else 0


def with_db(url: str, db: int) -> str:
    return urlparse(url)._replace(path=f"/{db}").geturl()


def next_db(url: str) -> str:
    """The database beside ``url``'s: the settings' default cache of a broker URL (db + 1);
    below it for the last of Redis's 16 databases."""
    db = redis_address(url)[2]
    return with_db(url, db + 1 if db < 15 else db - 1)


def service_redis_urls() -> list[str]:
    """The Redis databases a service would use: the default broker and cache, the run's
    REDIS_URL and its cache (the next database, or CACHE_REDIS_URL)."""
    urls = [DEFAULT_SERVICE_REDIS_URL, next_db(DEFAULT_SERVICE_REDIS_URL)]
    service = os.environ.get("SERVICE_REDIS_URL")
    if service:
        urls += [service, os.environ.get("SERVICE_CACHE_REDIS_URL") or next_db(service)]
    return urls


def choose_test_redis_url(service_url: str, test_url: str | None) -> str:
    """The tests' broker database; their cache is the next one (``next_db``)."""
    chosen = test_url or with_db(service_url, TEST_REDIS_DB)
    service_dbs = (service_url, next_db(service_url), DEFAULT_SERVICE_REDIS_URL,
                   next_db(DEFAULT_SERVICE_REDIS_URL))
    protected = {redis_address(u) for u in service_dbs}
    if {redis_address(chosen), redis_address(next_db(chosen))} & protected:
        raise pytest.UsageError(
            f"the tests flush their Redis databases ({chosen} and the next), and one of them is "
            f"the service's (REDIS_URL={service_url}): set TEST_REDIS_URL to another database"
        )
    return chosen


def assert_test_cache(cache_settings: dict) -> None:
    """Refuse to go on with a cache that is not this run's own (tests flush it)."""
    backend = cache_settings["BACKEND"]
    location = cache_settings.get("LOCATION", "")
    if backend.endswith("RedisCache"):
        locations = location if isinstance(location, list | tuple) else [location]
        test_url = os.environ.get("TEST_CACHE_REDIS_URL")
        for url in locations:
            address = redis_address(url)
            if address in {redis_address(u) for u in service_redis_urls()}:
                raise RuntimeError(f"refusing to flush {url}: it is a service's Redis database")
            if not test_url or address != redis_address(test_url):
                raise RuntimeError(
                    f"refusing to flush {url}: not the tests' Redis database ({test_url})"
                )
    elif backend.endswith("FileBasedCache"):
        var_dir = os.environ.get("TEST_VAR_DIR")
        if not var_dir or not Path(location).resolve().is_relative_to(Path(var_dir).resolve()):
            raise RuntimeError(f"refusing to clear {location}: not under the tests' VAR_DIR")


_temp_var_dir: str | None = None


def xdist_worker_index() -> int | None:
    """0 for pytest-xdist's worker gw0, 1 for gw1, ...; None outside a worker (``-n`` unset)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else None


def worker_redis_url(base_url: str, worker: int) -> str:
    """The broker database of xdist worker ``worker`` (its cache is the next one): two
    databases below the previous worker's, so that no two workers flush the same one."""
    db = redis_address(base_url)[2] - 2 * worker
    if db < 0:
        raise pytest.UsageError(
            f"too many xdist workers for the tests' Redis databases below {base_url}"
        )
    return with_db(base_url, db)


def _prepare_environment() -> None:
    global _temp_var_dir
    os.environ.setdefault("SECRET_KEY", "tests-only-" + "k3y" * 16)
    os.environ.setdefault("PUZZLE_SECRET", "tests-only-puzzles-" + "p8z" * 12)
    os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
    os.environ.setdefault("GAMES_AI_PAUSE_MS", "0")  # computer turns follow each other at once
    # A third game kind, for the tests only (tests/kinds/tictactoe): its settings line.
    os.environ.setdefault("EXTRA_GAME_KINDS", "tests.kinds.tictactoe.kind.TicTacToeKind")
    # Web push: a test-only VAPID key (never a deployment's), and the push-service double on
    # loopback over plain HTTP (tests/notifications/push_double.py).
    os.environ.setdefault("VAPID_PRIVATE_KEY", "-QyEIlljsPm087yQyuHaWHULnxgGIwc1IH8ucGJwnak")
    os.environ.setdefault("VAPID_SUBJECT", "mailto:push-tests@example.com")
    os.environ.setdefault("PUSH_ALLOW_PRIVATE_ENDPOINTS", "true")

    worker = xdist_worker_index()
    if "TEST_VAR_DIR" not in os.environ:
        _temp_var_dir = tempfile.mkdtemp(prefix="c10s-tests-var-")
        os.environ["TEST_VAR_DIR"] = _temp_var_dir
    elif worker is not None and "TEST_VAR_DIR_OF_RUN" not in os.environ:
        # An xdist worker inherits the controller's environment: its own folder inside it.
        os.environ["TEST_VAR_DIR_OF_RUN"] = os.environ["TEST_VAR_DIR"]
        own = Path(os.environ["TEST_VAR_DIR"]) / f"gw{worker}"
        own.mkdir(parents=True, exist_ok=True)
        os.environ["TEST_VAR_DIR"] = str(own)
    os.environ["VAR_DIR"] = os.environ["TEST_VAR_DIR"]

    service_url = os.environ.get("SERVICE_REDIS_URL") or os.environ.get("REDIS_URL")
    if service_url and worker is not None and "TEST_REDIS_URL_OF_RUN" not in os.environ:
        # Each xdist worker flushes its own pair of databases: 14/15, 12/13, 10/11, ...
        base = os.environ.get("TEST_REDIS_URL") or with_db(service_url, TEST_REDIS_DB)
        os.environ["TEST_REDIS_URL_OF_RUN"] = base
        os.environ["TEST_REDIS_URL"] = worker_redis_url(base, worker)
        os.environ.pop("SERVICE_REDIS_URL", None)
        if os.environ.get("SERVICE_CACHE_REDIS_URL"):
            os.environ["CACHE_REDIS_URL"] = os.environ.pop("SERVICE_CACHE_REDIS_URL")
        else:
            os.environ.pop("CACHE_REDIS_URL", None)
        os.environ["REDIS_URL"] = service_url
    service_url = os.environ.get("REDIS_URL")
    if service_url and "SERVICE_REDIS_URL" not in os.environ:
        test_url = choose_test_redis_url(service_url, os.environ.get("TEST_REDIS_URL"))
        os.environ["SERVICE_REDIS_URL"] = service_url
        if os.environ.get("CACHE_REDIS_URL"):
            os.environ["SERVICE_CACHE_REDIS_URL"] = os.environ["CACHE_REDIS_URL"]
        os.environ["TEST_REDIS_URL"] = test_url
        os.environ["TEST_CACHE_REDIS_URL"] = next_db(test_url)
        os.environ["REDIS_URL"] = test_url
        os.environ["CACHE_REDIS_URL"] = next_db(test_url)


# At import: -p plugins are imported before any hook runs, pytest-django's included.
_prepare_environment()


def pytest_unconfigure(config) -> None:
    if _temp_var_dir is not None:
        shutil.rmtree(_temp_var_dir, ignore_errors=True)
