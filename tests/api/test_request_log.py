"""One log line per request, with a request id that the response echoes; tracebacks only for
real server errors; JSON lines with LOG_FORMAT=json; never a body or a token in the logs."""

import json
import logging
import subprocess
import sys

import pytest

from tests.helpers import PASSWORD, assert_error
from tests.test_settings import CLEAN, ROOT

pytestmark = pytest.mark.django_db


def request_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "crazy10s.requests"]


def test_one_line_per_request_with_its_fields(alice, alice_client, caplog):
    caplog.set_level(logging.INFO)
    response = alice_client.get("/api/v1/me")
    assert response.status_code == 200
    [line] = request_lines(caplog)
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32
    assert (line.method, line.path, line.status, line.user_id) == ("GET", "/api/v1/me", 200,
                                                                    alice.pk)
    assert line.request_id == request_id
    assert isinstance(line.duration_ms, float) and line.duration_ms >= 0
    assert line.getMessage().startswith("GET /api/v1/me 200 ")
    assert line.getMessage().endswith(f"user={alice.pk}")


def test_a_sane_incoming_request_id_is_kept(api_client, caplog):
    caplog.set_level(logging.INFO)
    response = api_client.get("/api/v1/me", HTTP_X_REQUEST_ID="edge-7f3a:1.2_x")
    assert response["X-Request-ID"] == "edge-7f3a:1.2_x"
    [line] = request_lines(caplog)
    assert line.request_id == "edge-7f3a:1.2_x" and line.user_id is None


@pytest.mark.parametrize(
    "incoming", ["", "has space", "a\r\nforged line", "x" * 129, "-starts-with-dash", "ä"]
)
def test_an_odd_incoming_request_id_is_replaced(api_client, incoming):
    response = api_client.get("/api/v1/me", HTTP_X_REQUEST_ID=incoming)
    assert response["X-Request-ID"] != incoming and len(response["X-Request-ID"]) == 32


def test_every_request_gets_its_own_id(api_client):
    ids = {api_client.get("/api/v1/me")["X-Request-ID"] for _ in range(3)}
    assert len(ids) == 3


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/api/v1/nope", 404),  # no such endpoint
        ("get", "/api/v1/games/999999", 404),  # a view's 404
        ("get", "/api/v1/me", 401),
        ("delete", "/api/v1/games", 405),
        ("post", "/api/v1/games", 400),
    ],
)
def test_an_expected_error_logs_one_line_without_traceback(alice_client, caplog, method, path,
                                                           status):
    caplog.set_level(logging.DEBUG)
    client = alice_client
    if status == 401:
        client.credentials()
    response = getattr(client, method)(path, {}, format="json")
    assert response.status_code == status
    assert [r.status for r in request_lines(caplog)] == [status]
    assert all(r.exc_info is None for r in caplog.records), [r.name for r in caplog.records]
    assert all(r.levelno < logging.ERROR for r in caplog.records)


def test_throttling_logs_no_traceback(api_client, caplog, settings):
    caplog.set_level(logging.DEBUG)
    for _ in range(12):
        response = api_client.post(
            "/api/v1/auth/token", {"username": "x", "password": "y"}, format="json"
        )
    assert_error(response, 429, "throttled")
    assert all(r.exc_info is None for r in caplog.records)


def test_a_server_error_logs_its_traceback_once(alice_client, caplog, monkeypatch):
    caplog.set_level(logging.INFO)

    def crash(**_):
        raise RuntimeError("boom")

    monkeypatch.setattr("games.selectors.player_games_page", crash)
    response = alice_client.get("/api/v1/games")
    request_id = response.json()["error"]["details"]["request_id"]
    with_traceback = [r for r in caplog.records if r.exc_info]
    assert len(with_traceback) == 1 and with_traceback[0].request_id == request_id
    assert "RuntimeError: boom" in caplog.text
    [line] = request_lines(caplog)
    assert line.status == 500 and line.levelno == logging.ERROR


def test_no_body_or_token_reaches_the_logs(api_client, caplog):
    caplog.set_level(logging.DEBUG)
    response = api_client.post(
        "/api/v1/auth/register",
        {"username": "zed", "email": "zed@example.test", "password": PASSWORD},
        format="json",
    )
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    api_client.get("/api/v1/me")
    api_client.get("/api/v1/notifications/unsubscribe/some-signed-secret")
    assert PASSWORD not in caplog.text and token not in caplog.text
    assert "some-signed-secret" not in caplog.text
    assert "/api/v1/notifications/unsubscribe/<redacted>" in caplog.text


def run_logged_request(**env: str) -> subprocess.CompletedProcess:
    code = (
        "import django; django.setup(); from django.test import Client; "
        "Client().get('/api/v1/nope', HTTP_X_REQUEST_ID='json-check-1')"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**CLEAN, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_log_format_json_writes_json_lines():
    result = run_logged_request(LOG_FORMAT="json")
    assert result.returncode == 0, result.stderr
    [line] = [json.loads(x) for x in result.stderr.splitlines() if "crazy10s.requests" in x]
    assert line["request_id"] == "json-check-1"
    assert (line["method"], line["path"], line["status"]) == ("GET", "/api/v1/nope", 404)
    assert line["user_id"] is None and line["level"] == "INFO"
    assert {"time", "message", "duration_ms"} <= set(line)


def test_log_format_text_names_the_request_id():
    result = run_logged_request()
    assert result.returncode == 0, result.stderr
    [line] = [x for x in result.stderr.splitlines() if "crazy10s.requests" in x]
    assert "[json-check-1] GET /api/v1/nope 404 " in line


def test_an_unknown_log_format_stops_the_process():
    result = run_logged_request(LOG_FORMAT="xml")
    assert result.returncode != 0 and "LOG_FORMAT" in result.stderr
