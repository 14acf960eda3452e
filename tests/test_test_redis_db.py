"""The suite flushes its cache before and after every test: never the service's Redis database."""

import os
import uuid

import pytest
import redis
from django.core.cache import cache

from tests.conftest import clear_test_cache
from tests.django_env import (
    DEFAULT_SERVICE_REDIS_URL,
    assert_test_cache,
    choose_test_redis_url,
    redis_address,
    worker_redis_url,
    xdist_worker_index,
)


def test_the_test_database_is_not_the_service_one_by_default():
    assert choose_test_redis_url("redis://127.0.0.1:6379/3", None) == "redis://127.0.0.1:6379/14"
    assert choose_test_redis_url("redis://h:6380/0", "redis://h:6380/9") == "redis://h:6380/9"


@pytest.mark.parametrize(
    "service,test",
    [
        ("redis://127.0.0.1:6379/3", "redis://localhost:6379/3"),
        ("redis://127.0.0.1:6379/14", None),  # the default test db is the service's: say so
        ("redis://127.0.0.1:6379/15", None),  # the tests' cache db would be the service's
        ("redis://127.0.0.1:6379/4", "redis://127.0.0.1:6379/3"),  # the tests' cache: db 4
        ("redis://127.0.0.1:6379/4", "redis://127.0.0.1:6379"),  # db 0, the default service db
    ],
)
def test_a_test_database_equal_to_a_service_one_is_refused(service, test):
    with pytest.raises(pytest.UsageError, match="TEST_REDIS_URL"):
        choose_test_redis_url(service, test)


def test_the_guard_refuses_a_service_database():
    with pytest.raises(RuntimeError, match="service"):
        assert_test_cache(
            {"BACKEND": "django.core.cache.backends.redis.RedisCache",
             "LOCATION": DEFAULT_SERVICE_REDIS_URL}
        )


def test_the_guard_refuses_a_file_cache_outside_the_tests_var_dir(tmp_path):
    with pytest.raises(RuntimeError, match="VAR_DIR"):
        assert_test_cache(
            {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
             "LOCATION": str(tmp_path)}
        )


@pytest.mark.redis
def test_clearing_the_cache_keeps_the_service_database(settings):
    service_url = os.environ["SERVICE_REDIS_URL"]  # REDIS_URL as given to the test run
    assert redis_address(settings.CACHES["default"]["LOCATION"]) != redis_address(service_url)
    service = redis.Redis.from_url(service_url)
    key = f"c10s-test-canary:{uuid.uuid4().hex}"
    service.set(key, "service data", ex=60)
    try:
        cache.set("throttle-like", 1)
        clear_test_cache()
        assert cache.get("throttle-like") is None  # the tests' own database was flushed
        assert service.get(key) == b"service data"  # the service's was not
    finally:
        service.delete(key)
        service.close()


@pytest.mark.redis
def test_the_fixture_refuses_to_flush_when_the_cache_points_at_the_service(settings):
    service_url = os.environ["SERVICE_REDIS_URL"]
    service = redis.Redis.from_url(service_url)
    key = f"c10s-test-canary:{uuid.uuid4().hex}"
    service.set(key, "service data", ex=60)
    try:
        settings.CACHES = {
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                        "LOCATION": service_url}
        }
        with pytest.raises(RuntimeError, match="refusing to flush"):
            clear_test_cache()
        assert service.get(key) == b"service data"
    finally:  # the settings fixture puts the tests' cache back before the next clear
        service.delete(key)
        service.close()


def test_each_xdist_worker_flushes_its_own_pair_of_databases():
    assert worker_redis_url("redis://127.0.0.1:6379/14", 0) == "redis://127.0.0.1:6379/14"
    assert worker_redis_url("redis://127.0.0.1:6379/14", 1) == "redis://127.0.0.1:6379/12"
    assert worker_redis_url("redis://127.0.0.1:6379/14", 3) == "redis://127.0.0.1:6379/8"
    with pytest.raises(pytest.UsageError):
        worker_redis_url("redis://127.0.0.1:6379/2", 2)


def test_this_worker_uses_the_databases_of_its_index():
    worker = xdist_worker_index()
    if worker is None:
        assert "TEST_REDIS_URL_OF_RUN" not in os.environ
        return
    base = redis_address(os.environ["TEST_REDIS_URL_OF_RUN"])[2]
    assert redis_address(os.environ["TEST_REDIS_URL"])[2] == base - 2 * worker
    assert os.environ["VAR_DIR"].endswith(f"gw{worker}")
