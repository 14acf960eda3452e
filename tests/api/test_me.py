import pytest

from tests.helpers import assert_error

ME = "/api/v1/me"

pytestmark = pytest.mark.django_db


def test_requires_authentication(api_client):
    assert_error(api_client.get(ME), 401, "not_authenticated")


def test_bad_token(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error(api_client.get(ME), 401, "authentication_failed")


def test_get(alice, alice_client):
    response = alice_client.get(ME)
    assert response.status_code == 200
    assert response.json() == {
        "id": alice.pk,
        "username": "alice",
        "email": "alice@example.test",
        "display_name": "Alice",
        "language": "",  # not chosen: answered in the request's Accept-Language
        "turn_emails": "each",
        "reminder_emails": True,
        "result_emails": True,
        "email_verified": True,
        "puzzle_streak": 0,
        "best_puzzle_streak": 0,
    }


def test_patch_preferences(alice, alice_client):
    response = alice_client.patch(
        ME,
        {
            "language": "pt-br",
            "turn_emails": "digest",
            "reminder_emails": False,
            "display_name": "Ali",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    alice.refresh_from_db()
    assert alice.language == "pt-br"
    assert alice.turn_emails == "digest"
    assert alice.reminder_emails is False
    assert alice.display_name == "Ali"
    assert response.json()["language"] == "pt-br"


@pytest.mark.parametrize("given", ["pt-BR", "pt_br", "PT-br", "pt-br"])
def test_patch_language_in_any_spelling(alice, alice_client, given):
    response = alice_client.patch(ME, {"language": given}, format="json")
    assert response.status_code == 200, response.content
    alice.refresh_from_db()
    assert alice.language == "pt-br" and response.json()["language"] == "pt-br"


def test_username_is_read_only(alice, alice_client):
    """A read-only field is not one PATCH me takes: refused by name, nothing changes (it was
    silently ignored, so a client believed the rename had worked)."""
    response = alice_client.patch(ME, {"username": "mallory", "display_name": "M"},
                                  format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown_fields"
    assert response.json()["error"]["details"] == {"fields": ["username"]}
    alice.refresh_from_db()
    assert alice.username == "alice" and alice.display_name == "Alice"


@pytest.mark.parametrize(
    "field,value", [("language", "xx"), ("turn_emails", "hourly"), ("email", "not-an-email")]
)
def test_patch_invalid(alice_client, field, value):
    error = assert_error(alice_client.patch(ME, {field: value}, format="json"), 400, "invalid")
    assert field in error["details"]


def test_method_not_allowed(alice_client):
    assert_error(alice_client.put(ME, {}, format="json"), 405, "method_not_allowed")


def test_unknown_url_is_json_404_under_api(alice_client):
    response = alice_client.get("/api/v1/does-not-exist")
    assert response.status_code == 404


def test_schema_is_served(alice_client):
    response = alice_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/v1/me" in response.json()["paths"]
