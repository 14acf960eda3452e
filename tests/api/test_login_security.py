"""Login throttles that cannot be dodged, counted atomically, and logins that take the same time
whether or not the account exists."""

from __future__ import annotations

import statistics
import threading
import time

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher, PBKDF2PasswordHasher
from django.db import connection
from rest_framework.test import APIClient, APIRequestFactory

from config import throttling
from tests.helpers import PASSWORD, assert_error

TOKEN = "/api/v1/auth/token"
REGISTER = "/api/v1/auth/register"


def login(client, username="alice", password="wrong", **extra):
    return client.post(TOKEN, {"username": username, "password": password}, format="json", **extra)


@pytest.fixture
def proxies(settings):
    def set_count(count: int) -> None:
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": count}

    return set_count


@pytest.mark.django_db
class TestAddress:
    def test_made_up_forwarded_for_does_not_escape_the_login_throttle(self, api_client, alice):
        codes = [
            login(api_client, HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code
            for i in range(1, 31)
        ]
        assert codes[:10] == [401] * 10
        assert codes[10:] == [429] * 20

    def test_made_up_forwarded_for_does_not_escape_the_register_throttle(self, api_client):
        codes = [
            api_client.post(
                REGISTER,
                {"username": f"new{i}", "email": f"new{i}@example.test", "password": PASSWORD},
                format="json",
                HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
            ).status_code
            for i in range(8)
        ]
        assert codes == [201] * 5 + [429] * 3

    def test_behind_one_trusted_proxy_the_address_it_saw_counts(self, api_client, alice, proxies):
        proxies(1)
        # The proxy appends the real peer; whatever the client wrote before it is ignored.
        for i in range(10):
            response = login(api_client, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}, 192.0.2.7")
            assert response.status_code == 401
        assert login(api_client, HTTP_X_FORWARDED_FOR="1.1.1.1, 192.0.2.7").status_code == 429
        # Another client behind the same proxy has its own budget.
        assert login(api_client, HTTP_X_FORWARDED_FOR="192.0.2.8").status_code == 401

    @pytest.mark.parametrize(
        ("num_proxies", "forwarded", "expected"),
        [
            (0, "1.2.3.4", "127.0.0.9"),
            (1, "1.2.3.4, 5.6.7.8", "5.6.7.8"),
            (2, "1.2.3.4, 5.6.7.8, 9.9.9.9", "5.6.7.8"),
            (3, "5.6.7.8", "5.6.7.8"),  # fewer hops than proxies: the leftmost
            (1, "", "127.0.0.9"),
            (1, "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ],
    )
    def test_client_address(self, proxies, num_proxies, forwarded, expected):
        proxies(num_proxies)
        extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
        request = APIRequestFactory().post(TOKEN, REMOTE_ADDR="127.0.0.9", **extra)
        assert throttling.client_address(request) == expected


@pytest.mark.django_db
def test_logins_are_throttled_per_account_from_any_address(api_client, alice, settings):
    # Any spelling login accepts for the account counts against it: case and look-alikes.
    spellings = ["alice", "ALICE", "аlice", " Alice "]  # the third starts with a Cyrillic а
    codes = [
        login(api_client, username=spellings[i % 4], REMOTE_ADDR=f"192.0.2.{i}").status_code
        for i in range(32)
    ]
    assert codes[:30] == [401] * 30
    assert codes[30:] == [429] * 2
    # Another account is not affected.
    assert login(api_client, username="bob", REMOTE_ADDR="192.0.2.200").status_code == 401


class _CountingHashers:
    def __init__(self, monkeypatch, *classes):
        self.calls = 0
        self._lock = threading.Lock()
        for cls in classes:
            original = cls.encode

            def counting(hasher, *args, _original=original, **kwargs):
                with self._lock:
                    self.calls += 1
                return _original(hasher, *args, **kwargs)

            monkeypatch.setattr(cls, "encode", counting)


@pytest.fixture
def hash_calls(monkeypatch):
    return _CountingHashers(monkeypatch, MD5PasswordHasher, PBKDF2PasswordHasher)


@pytest.mark.django_db
class TestTiming:
    def _cases(self, user_factory):
        user_factory("known")
        user_factory("suspended", is_active=False)
        no_password = user_factory("nopassword")
        no_password.set_unusable_password()
        no_password.save()
        return {
            "known, wrong password": ("known", "wrong", 401),
            "known, right password": ("known", PASSWORD, 200),
            "unknown": ("ghost", PASSWORD, 401),
            "unusable password": ("nopassword", PASSWORD, 401),
            "suspended, wrong password": ("suspended", "wrong", 401),
            "suspended, right password": ("suspended", PASSWORD, 403),
        }

    def test_every_login_hashes_the_password_exactly_once(self, user_factory, hash_calls):
        for name, (username, password, status) in self._cases(user_factory).items():
            hash_calls.calls = 0
            response = login(APIClient(), username, password)
            assert response.status_code == status, (name, response.content)
            assert hash_calls.calls == 1, name

    def test_unknown_and_known_accounts_take_about_as_long(self, user_factory, settings):
        """Coarse on purpose (a busy 2-core CI machine): before, unknown took ~1/100 of known."""
        settings.PASSWORD_HASHERS = ["tests.api.test_login_security.SlowEnoughHasher"]
        cases = self._cases(user_factory)
        times: dict[str, list[float]] = {name: [] for name in cases}
        client = APIClient()
        for _ in range(7):
            for name, (username, password, _status) in cases.items():
                throttling_off = {"REMOTE_ADDR": f"10.1.{len(times[name])}.{len(name)}"}
                started = time.perf_counter()
                login(client, username, password, **throttling_off)
                times[name].append(time.perf_counter() - started)
        medians = {name: statistics.median(values) for name, values in times.items()}
        reference = medians["known, wrong password"]
        for name, median in medians.items():
            assert reference / 3 < median < reference * 3, (name, medians)


class SlowEnoughHasher(PBKDF2PasswordHasher):
    """~10-20 ms a hash: well above a query, well below the real 1,000,000 iterations."""

    iterations = 30_000


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_parallel_logins_from_one_address_run_at_most_the_limit_of_checks(
    alice, hash_calls, monkeypatch
):
    """On Redis the count is one Lua script per hit, atomic across processes and machines (not
    the file lock of the embedded mode, which would only hold on one machine)."""
    monkeypatch.setattr(throttling, "_hit_locked", None)  # must not be reached
    barrier = threading.Barrier(40)
    codes: list[int] = []
    failures: list[BaseException] = []

    def attempt() -> None:
        try:
            client = APIClient()
            barrier.wait(timeout=20)
            codes.append(login(client).status_code)
        except BaseException as exc:  # re-raised in the main thread
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    assert sorted(codes) == [401] * 10 + [429] * 30
    assert hash_calls.calls == 10


def test_file_cache_counts_atomically_across_threads(settings, tmp_path):
    """The embedded mode's file cache: check-and-hit under one machine-wide file lock."""
    settings.VAR_DIR = tmp_path
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }
    barrier = threading.Barrier(30)
    allowed: list[bool] = []

    def attempt() -> None:
        barrier.wait(timeout=20)
        allowed.append(throttling.hit("throttle:test:one", 10, 60)[0])

    threads = [threading.Thread(target=attempt) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(allowed) == [False] * 20 + [True] * 10


@pytest.mark.django_db
def test_unreachable_cache_lets_logins_through_and_counts_it(alice, settings, caplog):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        }
    }
    before = throttling.degraded_count
    client = APIClient()
    assert_error(login(client), 401, "invalid_credentials")
    assert login(client, password=PASSWORD).status_code == 200
    response = client.post(
        REGISTER,
        {"username": "newbie", "email": "newbie@example.test", "password": PASSWORD},
        format="json",
    )
    assert response.status_code == 201, response.content
    # login: address and account; the second login too; register: address.
    assert throttling.degraded_count - before == 5
    assert "cache unavailable" in caplog.text


@pytest.mark.django_db
def test_after_a_cache_failure_the_throttles_skip_the_cache_for_a_while(
    alice, settings, monkeypatch
):
    """A hung Redis costs its socket timeout once, not on every throttle of every request."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    monkeypatch.setattr(throttling, "_cache_down_until", 0.0)
    calls = []
    real = throttling._hit_redis
    monkeypatch.setattr(throttling, "_hit_redis", lambda *a: calls.append(a) or real(*a))
    client = APIClient()
    assert_error(login(client), 401, "invalid_credentials")
    assert_error(login(client), 401, "invalid_credentials")
    assert len(calls) == 1  # the first throttle check failed; the other three skipped the cache
    monkeypatch.setattr(throttling, "_cache_down_until", 0.0)  # the retry interval is over
    assert_error(login(client), 401, "invalid_credentials")
    assert len(calls) == 2
