"""Redis set-up that keeps tasks safe: the cache in another database than the broker (clearing
it keeps the queue), socket timeouts on both, and time limits on every task."""

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

from config import celery_wire
from config.celery import app
from games import dispatch

ROOT = Path(__file__).resolve().parents[2]


def load(**env: str) -> dict:
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "c = s.CACHES['default']; print(json.dumps({'broker': s.CELERY_BROKER_URL, "
        "'cache': c['LOCATION'], 'options': c.get('OPTIONS', {}), "
        "'transport': s.CELERY_BROKER_TRANSPORT_OPTIONS, "
        "'policy': s.CELERY_TASK_PUBLISH_RETRY_POLICY}))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CACHE_REDIS_URL"}}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_cache_uses_the_next_redis_database_with_timeouts():
    loaded = load(REDIS_URL="redis://127.0.0.1:6379/4")
    assert loaded["broker"] == "redis://127.0.0.1:6379/4"
    assert loaded["cache"] == "redis://127.0.0.1:6379/5"
    assert 0 < loaded["options"]["socket_connect_timeout"] <= 1
    assert 0 < loaded["options"]["socket_timeout"] <= 1
    transport = loaded["transport"]
    assert 0 < transport["socket_timeout"] <= 1 and 0 < transport["socket_connect_timeout"] <= 1
    # A publish gives up after at most two socket timeouts.
    assert loaded["policy"]["max_retries"] <= 1
    assert load(REDIS_URL="redis://h:6379")["cache"] == "redis://h:6379/1"


def test_an_explicit_cache_url_must_differ_from_the_broker():
    assert load(REDIS_URL="redis://h/2", CACHE_REDIS_URL="redis://c/0")["cache"] == "redis://c/0"
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, capture_output=True,
        text=True, timeout=60,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
             "REDIS_URL": "redis://h/2", "CACHE_REDIS_URL": "redis://h/2"},
    )
    assert result.returncode != 0 and "CACHE_REDIS_URL" in result.stderr


def test_every_task_has_time_limits_below_the_visibility_timeout():
    app.loader.import_default_modules()
    ours = {n: t for n, t in app.tasks.items() if not n.startswith("celery.")}
    assert {"notifications.process_event", "games.play_ai_turn", "notifications.send"} <= set(ours)
    visibility = 45  # the default CELERY_VISIBILITY_TIMEOUT
    for name, task in ours.items():
        soft = task.soft_time_limit or settings.CELERY_TASK_SOFT_TIME_LIMIT
        hard = task.time_limit or settings.CELERY_TASK_TIME_LIMIT
        assert soft and hard and soft < hard < visibility, name


@pytest.mark.redis
def test_clearing_the_cache_keeps_the_queued_tasks():
    from games.notifications import tasks

    queue = f"c10s-cache-clear-{uuid.uuid4().hex[:8]}"
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        tasks.process_event.apply_async((1,), queue=queue)
        listed = celery_wire.queue_list(queue, dispatch.BACKGROUND_PRIORITY)
        assert broker.llen(listed) == 1
        cache.set("something", 1)
        cache.clear()
        assert cache.get("something") is None
        assert broker.llen(listed) == 1
    finally:
        broker.delete(listed)
