"""``GET /healthz``: can this process reach its database, broker and cache?

Unauthenticated and cheap (one query, one ping, one cache round trip, each with a short
timeout), for load balancers and the docker-compose healthchecks. 200 ``{"status": "ok"}``
when all answer, else 503 naming the ones that did not. The reasons go to the log only: they
can carry host names and addresses.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable
from typing import Any

import redis
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 1.0


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_broker() -> None:
    from config.celery import app

    url = app.conf.broker_url
    if url.startswith(("redis://", "rediss://", "unix://")):
        client = redis.Redis.from_url(
            url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
        )
        try:
            client.ping()
        finally:
            client.close()
        return
    if url.startswith("filesystem://"):
        folder = app.conf.broker_transport_options["data_folder_in"]
        if not os.access(folder, os.W_OK):
            raise OSError(f"broker folder {folder} is not writable")
        return
    raise ValueError(f"no health check for broker {url.split(':', 1)[0]}")


def check_cache() -> None:
    key = f"healthz:{secrets.token_hex(8)}"
    value = secrets.token_hex(8)
    cache.set(key, value, timeout=10)
    try:
        if cache.get(key) != value:
            raise RuntimeError("the cache did not return the value just written")
    finally:
        cache.delete(key)


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "broker": check_broker,
    "cache": check_cache,
}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    components: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception:
            logger.warning("healthz: %s unavailable", name, exc_info=True)
            components[name] = "unavailable"
        else:
            components[name] = "ok"
    failed = [name for name, state in components.items() if state != "ok"]
    body: dict[str, Any] = {
        "status": "unavailable" if failed else "ok", "components": components
    }
    if failed:
        body["failed"] = failed
    return JsonResponse(body, status=503 if failed else 200)
