"""Errors outside DRF views keep the envelope, and the schema documents shared error answers."""

import pytest

pytestmark = pytest.mark.django_db


def test_unmatched_api_path_answers_json_envelope(api_client):
    response = api_client.get("/api/v1/games/not-a-number/moves")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "not_found"


def test_unmatched_non_api_path_keeps_html(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_schema_documents_401_and_400_on_authenticated_endpoints(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    me = schema["paths"]["/api/v1/me"]
    for method in ("get", "patch"):
        assert {"400", "401", "429"} <= set(me[method]["responses"]), method
    register = schema["paths"]["/api/v1/auth/register"]["post"]
    assert "400" in register["responses"]
    assert "401" not in register["responses"]  # anonymous endpoint
