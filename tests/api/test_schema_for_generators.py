"""What the generated clients (tests/clients/) needed fixed in the schema, pinned here where it
is cheap to check: each was a client that could not be used as generated."""

from __future__ import annotations

import pytest

from live import event_schema
from live.schema import add_event_streams

ANONYMOUS = {"auth_register", "auth_token", "auth_email_verify", "auth_password_reset",
             "auth_password_reset_confirm"}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema):
    for methods in schema["paths"].values():
        for operation in methods.values():
            if isinstance(operation, dict) and "operationId" in operation:
                yield operation


def component(schema, ref: dict) -> dict:
    return schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]


def test_anyone_may_call_the_anonymous_operations(schema):
    """``security: []``: openapi-python-client asked for a token to register with ``[{}]``."""
    seen = set()
    for operation in operations(schema):
        if operation["operationId"] in ANONYMOUS:
            seen.add(operation["operationId"])
            assert operation["security"] == [], operation["operationId"]
            assert "401" not in operation["responses"] or operation["operationId"] == "auth_token"
        else:
            assert operation["security"] == [{"tokenAuth": []}, {"bearerAuth": []},
                                              {"cookieAuth": []}], operation["operationId"]
            assert "401" in operation["responses"], operation["operationId"]
    assert seen == ANONYMOUS


def test_a_rule_across_fields_is_a_choice_of_whole_objects(schema):
    """Each way of filling such a form is one object with every field it takes (generators
    typed a tile without its square, and a seat as Any)."""
    seat = schema["components"]["schemas"]["Crazy10sSeatInputRequest"]
    ways = [component(schema, ref) for ref in seat["oneOf"]]
    assert [(w["required"], list(w["properties"])) for w in ways] == [
        (["you"], ["you"]), (["computer"], ["computer"]), (["username"], ["username"]),
        (["random"], ["random"]),
    ]
    report = schema["components"]["schemas"]["ReportInputRequest"]
    player, game = (component(schema, ref) for ref in report["oneOf"])
    assert player["required"] == ["player", "reason"] and "game" not in player["properties"]
    assert game["required"] == ["game", "reason"] and "player" not in game["properties"]
    assert all(w["additionalProperties"] is False for w in [*ways, player, game])


def test_a_request_property_that_may_be_left_out_has_no_default_keyword(schema):
    """openapi-typescript made every property with a ``default`` required (``wild`` on every
    tile, ``rated`` on every new game): the default is said in words."""
    form = schema["components"]["schemas"]["Crazy10sCreateGameInputRequest"]
    assert "default" not in form["properties"]["rated"]
    assert form["properties"]["rated"]["description"].endswith("Default: true.")
    assert form["properties"]["turn_hours"]["description"] == "Default: 72."
    digit = schema["components"]["schemas"]["PlacedTileInputDigitRequest"]
    assert digit["properties"]["wild"] == {"type": "boolean", "description": "Default: false."}
    assert "'default'" not in str(form)


def test_stream_events_and_move_events_have_their_own_names(schema):
    """A stream's ``round_over`` (``type``) and a Crazy Eights move's (``kind``) had the same
    component name: one replaced the other, and the last move of a round did not parse."""
    schemas = schema["components"]["schemas"]
    assert "kind" in schemas["RoundOverEvent"]["properties"]
    assert "type" not in schemas["RoundOverEvent"]["properties"]
    assert "type" in schemas["LiveRoundOverEvent"]["properties"]
    assert schemas["LiveEvent"]["discriminator"]["mapping"]["round_over"].endswith(
        "/LiveRoundOverEvent")
    with pytest.raises(ValueError, match="LiveMoveEvent"):
        add_event_streams({"components": {"schemas": {"LiveMoveEvent": {}}}, "paths": {}})
    assert event_schema.component_name("move") == "LiveMoveEvent"
