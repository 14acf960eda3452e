"""GET /healthz: database, broker and cache, unauthenticated; 503 names what failed."""

import socket
import time

import pytest
from django.test import Client

from config import health
from config.celery import app as celery_app

pytestmark = pytest.mark.django_db


def test_all_components_ok_without_authentication(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "components": {"database": "ok", "broker": "ok", "cache": "ok"},
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize("component", ["database", "broker", "cache"])
def test_a_failing_component_answers_503_naming_it(client, monkeypatch, component):
    def broken() -> None:
        raise ConnectionError("secret-host.internal:6379 refused")

    monkeypatch.setitem(health.CHECKS, component, broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["failed"] == [component]
    assert body["components"][component] == "unavailable"
    assert all(v == "ok" for k, v in body["components"].items() if k != component)
    assert b"secret-host" not in response.content  # reasons go to the log only


def test_an_unreachable_redis_broker_fails_fast(client, monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once the socket is closed
    monkeypatch.setitem(celery_app.conf, "broker_url", f"redis://127.0.0.1:{port}/0")
    started = time.monotonic()
    response = client.get("/healthz")
    assert time.monotonic() - started < 3
    assert response.status_code == 503
    assert response.json()["failed"] == ["broker"]


def test_only_get(client):
    assert client.post("/healthz").status_code == 405


def test_not_redirected_to_https_unlike_other_paths(settings):
    settings.SECURE_SSL_REDIRECT = True
    client = Client()  # middleware reads the setting when the client's handler is built
    assert client.get("/healthz").status_code == 200
    assert client.get("/api/v1/me").status_code == 301
