"""Bad input answers the error envelope with a stable code and changes nothing: bodies nested
too deep, bodies too large, unknown API paths and methods, and crashes (even with DEBUG on)."""

import json

import pytest
from django.contrib.auth import get_user_model

from config.parsers import MAX_DEPTH
from games.models import Game, Move
from tests.helpers import PASSWORD, assert_error

pytestmark = pytest.mark.django_db


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def deep_object(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def post_raw(client, url: str, body: str | bytes, **extra):
    return client.generic("POST", url, body, content_type="application/json", **extra)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 5_000, 100_000])
def test_deeply_nested_json_on_anonymous_register_is_a_400(api_client, depth):
    response = post_raw(api_client, "/api/v1/auth/register", nested(depth))
    error = assert_error(response, 400, "parse_error")
    assert "nested" in error["message"]
    assert not get_user_model().objects.exists()


def test_deep_json_inside_a_valid_register_body_is_refused(api_client):
    body = json.dumps(
        {"username": "mallory", "email": "m@example.test", "password": PASSWORD}
    )[:-1] + ', "extra": ' + deep_object(2_000) + "}"
    assert_error(post_raw(api_client, "/api/v1/auth/register", body), 400, "parse_error")
    assert not get_user_model().objects.filter(username="mallory").exists()


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("POST", "/api/v1/games"),
        ("POST", "/api/v1/games/{game}/moves"),
        ("POST", "/api/v1/games/{game}/preview"),
        ("PATCH", "/api/v1/me"),
        ("POST", "/api/v1/auth/token"),
        ("POST", "/api/v1/puzzles/2026-01-01/attempt"),
    ],
)
def test_deep_json_is_a_400_on_every_endpoint(alice_client, human_game, method, url):
    url = url.format(game=human_game.pk)
    response = alice_client.generic(method, url, nested(3_000), content_type="application/json")
    assert_error(response, 400, "parse_error")
    assert Move.objects.filter(game=human_game).count() == 0
    assert Game.objects.count() == 1


def test_json_as_deep_as_the_limit_is_parsed(api_client):
    """The limit refuses only what no endpoint needs: at the limit, the serializer answers."""
    body = '{"username": ' + nested(MAX_DEPTH - 1) + "}"
    error = assert_error(post_raw(api_client, "/api/v1/auth/register", body), 400, "invalid")
    assert "username" in error["details"]


def test_a_10_mb_body_is_a_413_envelope(api_client, settings):
    body = json.dumps({"username": "x" * 10_000_000, "email": "a@example.test"})
    response = post_raw(api_client, "/api/v1/auth/register", body)
    error = assert_error(response, 413, "request_too_large")
    assert error["details"] == {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    assert not get_user_model().objects.exists()


def test_a_large_form_is_a_413_envelope(alice_client):
    response = alice_client.patch(
        "/api/v1/me", {"display_name": "x" * 3_000_000}, format="multipart"
    )
    assert_error(response, 413, "request_too_large")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [("post", "/api/v1/auth/register", {"username": "amy", "email": "a@example.test",
                                        "password": "a long password 1"}),
     ("patch", "/api/v1/me", {"display_name": "Amy"}),
     ("post", "/api/v1/games", {"turn_hours": "24", "layout": "classic"})],
)
@pytest.mark.parametrize("fmt", ["multipart", "form"])
def test_forms_are_refused_with_415_and_change_nothing(alice, alice_client, method, path, body,
                                                       fmt):
    """Every body is JSON: a form or multipart body answers 415 in the error envelope."""
    if fmt == "form":
        from urllib.parse import urlencode

        response = getattr(alice_client, method)(
            path, urlencode(body, doseq=True), content_type="application/x-www-form-urlencoded"
        )
    else:
        response = getattr(alice_client, method)(path, body, format="multipart")
    assert_error(response, 415, "unsupported_media_type")
    alice.refresh_from_db()
    assert alice.display_name != "Amy"
    assert not get_user_model().objects.filter(username="amy").exists()


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("method", ["get", "post", "delete"])
@pytest.mark.parametrize(
    "path", ["/api/v1/nope", "/api/v1/games/abc", "/api/v2/games", "/api/v1/games/1/x/"]
)
def test_unknown_api_path_is_a_json_404_even_with_debug(alice_client, settings, debug, method,
                                                        path):
    settings.DEBUG = debug
    response = getattr(alice_client, method)(path)
    assert response["Content-Type"] == "application/json"
    assert_error(response, 404, "not_found")


def test_unknown_method_is_a_json_405(alice_client, settings):
    settings.DEBUG = True
    assert_error(alice_client.delete("/api/v1/games"), 405, "method_not_allowed")


def test_a_non_api_path_keeps_django_s_page(client, settings):
    settings.DEBUG = True
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("debug", [True, False])
def test_a_crash_is_a_json_500_without_traceback(alice_client, settings, monkeypatch, debug):
    settings.DEBUG = debug

    def crash(**_):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("games.selectors.player_games_page", crash)
    response = alice_client.get("/api/v1/games", HTTP_X_REQUEST_ID="crash-test-1")
    error = assert_error(response, 500, "server_error")
    assert error["details"] == {"request_id": "crash-test-1"}
    assert response["X-Request-ID"] == "crash-test-1"
    assert b"secret internals" not in response.content
    assert b"Traceback" not in response.content


@pytest.mark.parametrize("form", ["%Y%m%d", "%Y-%m-%dT00:00", "%Y-W%W-%w", " %Y-%m-%d"])
def test_a_puzzle_day_is_only_yyyy_mm_dd(alice_client, form):
    """Today's puzzle answers under 2026-12-01, never under 20261201 or another ISO form."""
    from games.crazy10s.puzzles.selectors import utc_today

    today = utc_today()
    assert alice_client.get(f"/api/v1/puzzles/{today:%Y-%m-%d}").status_code == 200
    day = today.strftime(form)
    for url in (f"/api/v1/puzzles/{day}", f"/api/v1/puzzles/{day}/leaderboard"):
        assert_error(alice_client.get(url), 404, "not_found")
    response = alice_client.post(
        f"/api/v1/puzzles/{day}/attempt", {"move": "g7=5 h7=5"}, format="json"
    )
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize("value", [0, "false", "yes"])
def test_booleans_are_json_booleans(alice, alice_client, value):
    response = alice_client.patch("/api/v1/me", {"result_emails": value}, format="json")
    assert assert_error(response, 400, "invalid")["details"].keys() == {"result_emails"}
    alice.refresh_from_db()
    assert alice.result_emails is True


def test_a_boolean_as_the_schema_spells_it_is_taken(alice, alice_client):
    response = alice_client.patch("/api/v1/me", {"result_emails": False}, format="json")
    assert response.status_code == 200 and response.json()["result_emails"] is False
    alice.refresh_from_db()
    assert alice.result_emails is False


def test_an_empty_status_filter_is_refused(alice_client):
    error = assert_error(alice_client.get("/api/v1/games?status="), 400, "invalid")
    assert set(error["details"]) == {"status"}


@pytest.mark.parametrize(
    "body",
    [
        {"move": "pass", "tiles": [{"square": "g7", "digit": 5}]},
        {"tiles": []},
        {"tiles": [{"digit": 5}]},  # a tile without its square
        {"move": 5},
        {"move": "pass\x00"},
        {"move": "   "},
    ],
)
def test_preview_refuses_what_the_schema_refuses(alice_client, human_game, body):
    url = f"/api/v1/games/{human_game.pk}/preview"
    assert_error(alice_client.post(url, body, format="json"), 400, "invalid")
