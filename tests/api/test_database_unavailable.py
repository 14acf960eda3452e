"""The database unreachable (refusing connections, or gone mid-request) answers 503 with
Retry-After: the envelope on the API, a short page in the player's language on the web; one
clear log line per process instead of a traceback per request; the next request after it is
back is served as usual. (The fault suite does the same against a real outage:
tests/integration/test_faults.py.)"""

import logging

import psycopg
import pytest
from django.db import ProgrammingError, connection

from config import unavailable
from tests.helpers import assert_error
from tests.integration.workers import free_port

pytestmark = pytest.mark.django_db


def refused_error() -> Exception:
    """The very error Django raises when PostgreSQL refuses the connection (wrapped by the
    backend from psycopg's, as on a real outage)."""
    port = free_port()  # nothing listens there
    try:
        with connection.wrap_database_errors:
            psycopg.connect(f"host=127.0.0.1 port={port} user=x dbname=x", connect_timeout=2)
    except Exception as exc:
        return exc
    raise AssertionError("a closed port accepted a connection")


@pytest.fixture(autouse=True)
def _log_every_outage(monkeypatch):
    monkeypatch.setattr(unavailable, "_logged_at", {})


def database_down(monkeypatch, target: str) -> Exception:
    error = refused_error()

    def down(*args, **kwargs):
        raise error

    monkeypatch.setattr(target, down)
    return error


def test_the_api_answers_503_with_retry_after_and_logs_one_line(
    alice_client, caplog, monkeypatch
):
    caplog.set_level(logging.INFO)
    database_down(monkeypatch, "games.selectors.player_games_page")
    answers = [alice_client.get("/api/v1/games") for _ in range(3)]
    for response in answers:
        error = assert_error(response, 503, "service_unavailable")
        assert error["details"]["retry_after"] == int(response["Retry-After"]) > 0
    assert not [r for r in caplog.records if r.exc_info], "no traceback for an outage"
    outage = [r for r in caplog.records if r.name == "config.unavailable"]
    assert len(outage) == 1, [r.getMessage() for r in outage]
    assert "the database is unreachable (OperationalError" in outage[0].getMessage()
    statuses = [r.status for r in caplog.records if r.name == "crazy10s.requests"]
    assert statuses == [503, 503, 503]
    monkeypatch.undo()  # the database is back: the next request is served
    assert alice_client.get("/api/v1/games").status_code == 200


def test_a_move_during_the_outage_changes_nothing(human_game, alice_client, monkeypatch):
    database_down(monkeypatch, "games.services.submit_move")
    response = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "pass", "expected_move_number": 0}, format="json",
    )
    assert_error(response, 503, "service_unavailable")
    human_game.refresh_from_db()
    assert human_game.move_number == 0


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "briefly unavailable"),
        ("de", "kurz nicht erreichbar"),
        ("fr", "momentanément indisponible"),
        ("pt-br", "indisponível por um momento"),
    ],
)
def test_a_web_page_answers_a_short_page_in_the_players_language(
    client, alice, caplog, monkeypatch, language, text
):
    """Raised in a middleware (the player's saved language is read before any view), which
    Django would have turned into its 500 page."""
    caplog.set_level(logging.INFO)
    client.raise_request_exception = False  # the test client re-raises what Django caught
    client.force_login(alice)
    database_down(monkeypatch, "web.middleware.language_of")
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 503
    assert int(page["Retry-After"]) > 0
    assert page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    assert text in html and 'data-code="service_unavailable"' in html
    assert f'lang="{language}"' in html
    assert not [r for r in caplog.records if r.exc_info]
    assert len([r for r in caplog.records if r.name == "config.unavailable"]) == 1


def test_a_query_error_is_still_a_server_error(alice_client, monkeypatch):
    """Only an unreachable database is an outage: a broken query stays a 500 (with its
    traceback logged), so that it is fixed rather than retried."""

    def broken(*args, **kwargs):
        raise ProgrammingError('relation "nowhere" does not exist')

    monkeypatch.setattr("games.selectors.player_games_page", broken)
    assert_error(alice_client.get("/api/v1/games"), 500, "server_error")
    assert not unavailable.database_unreachable(ProgrammingError("x"))
    assert unavailable.database_unreachable(refused_error())
