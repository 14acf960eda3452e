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


def test_schema_generates_without_warnings(tmp_path):
    """drf-spectacular's warnings (an authenticator it cannot describe, two names for one enum)
    each hid a part of the contract: none may come back."""
    from django.core.management import call_command
    from drf_spectacular.drainage import GENERATOR_STATS

    GENERATOR_STATS.reset()
    call_command("spectacular", validate=True, fail_on_warn=True, file=str(tmp_path / "s.yaml"))
    assert not GENERATOR_STATS
    assert "cookieAuth" in (tmp_path / "s.yaml").read_text()


def test_schema_states_the_rules_validation_enforces(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    move_form = components["Crazy10sMoveRequest"]
    typed, *older = move_form["oneOf"]
    assert typed["discriminator"]["propertyName"] == "type"
    assert set(typed["discriminator"]["mapping"]) == {"place", "pass", "swap"}
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in older] == [
        "Crazy10sNotationMoveRequest", "Crazy10sTilesMoveRequest"
    ]
    place = components["Crazy10sPlaceMoveRequest"]
    assert sorted(place["required"]) == ["tiles", "type"]
    assert place["properties"]["tiles"]["minItems"] == 1
    assert place["properties"]["tiles"]["maxItems"] == 20
    move_form = components["Crazy10sNotationMoveRequest"]
    preview = schema["paths"]["/api/v1/games/{game_id}/preview"]["post"]
    assert preview["requestBody"]["required"] is True
    assert list(preview["requestBody"]["content"]) == ["application/json"]
    assert "413" in preview["responses"]
    # A tile is a whole object either way (generators type it): a wild, or a digit.
    tile = components["PlacedTileInputRequest"]
    wild, digit = (components[ref["$ref"].rsplit("/", 1)[1]] for ref in tile["anyOf"])
    assert wild["required"] == ["square", "wild"] and digit["required"] == ["digit", "square"]
    assert digit["properties"]["digit"]["nullable"] is False
    assert wild["properties"]["digit"]["nullable"] is True
    password = components["RegisterInputRequest"]["properties"]["password"]
    assert password["minLength"] == 8 and "pattern" in password
    assert "\\x00" in move_form["properties"]["move"]["pattern"]  # no NUL
