"""CORS: only the origins in CORS_ALLOWED_ORIGINS (default none) may call the API from a browser."""

import pytest

ALLOWED = "https://app.crazy10s.example"


def preflight(client, origin: str, headers: str = "authorization,content-type"):
    return client.options(
        "/api/v1/games",
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS=headers,
    )


@pytest.fixture
def allowed_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = [ALLOWED]


def test_no_origin_is_allowed_by_default(client, settings):
    assert settings.CORS_ALLOWED_ORIGINS == []
    response = preflight(client, ALLOWED)
    assert "Access-Control-Allow-Origin" not in response


def test_preflight_from_an_allowed_origin(client, allowed_origin):
    response = preflight(client, ALLOWED, "authorization,content-type,idempotency-key")
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert "POST" in response["Access-Control-Allow-Methods"]
    allowed_headers = response["Access-Control-Allow-Headers"].lower()
    for header in ("authorization", "content-type", "idempotency-key", "if-none-match"):
        assert header in allowed_headers
    assert "Access-Control-Allow-Credentials" not in response  # tokens, not cookies


def test_preflight_from_another_origin_is_not_allowed(client, allowed_origin):
    response = preflight(client, "https://evil.example")
    assert "Access-Control-Allow-Origin" not in response
    assert "Access-Control-Allow-Methods" not in response


@pytest.mark.django_db
def test_an_allowed_origin_can_read_the_etag(alice_client, allowed_origin):
    response = alice_client.get("/api/v1/me", HTTP_ORIGIN=ALLOWED)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert "etag" in response["Access-Control-Expose-Headers"].lower()


def test_only_the_api_answers_cors(client, allowed_origin):
    response = client.options(
        "/admin/login/", HTTP_ORIGIN=ALLOWED, HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST"
    )
    assert "Access-Control-Allow-Origin" not in response
