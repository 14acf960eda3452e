"""Every operation of the API that can be sent a body refuses a field it does not take (issue
30): ``400 unknown_fields`` naming it (nested ones by path), and nothing changes. The list of
operations comes from the schema, so an endpoint added without a case here fails the test; the
refusal itself needs nothing from the endpoint (``config.unknown_fields``)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from accounts import tokens
from games import services
from tests.helpers import PASSWORD, assert_error

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "An0ther-long-Pass!"
# operationId -> (a body the operation takes, plus one field it does not), the unknown path.
WITH_BODY = {
    "auth_email_verify": ({"token": "t", "remember": True}, "remember"),
    "auth_password_reset": ({"email": "alice@example.test", "lang": "de"}, "lang"),
    "auth_password_reset_confirm": (
        {"token": "t", "new_password": NEW_PASSWORD, "confirm": NEW_PASSWORD}, "confirm"),
    "auth_register": ({"username": "dora", "email": "dora@example.test",
                       "password": NEW_PASSWORD, "newsletter": True}, "newsletter"),
    "auth_token": ({"username": "alice", "password": PASSWORD, "otp": "123456"}, "otp"),
    "games_create": ({"opponent": {"ai": "casual"}, "turn_days": 14}, "turn_days"),
    "games_chat_create": ({"text": "hello", "to": "bob"}, "to"),
    "games_moves_create": ({"move": "pass", "expected_move_number": 0, "force": True}, "force"),
    "games_preview": ({"move": "pass", "expected_move_number": 0}, "expected_move_number"),
    "me_update": ({"display_name": "Ally", "avatar": "x.png"}, "avatar"),
    "me_delete": ({"password": PASSWORD, "reason": "bye"}, "reason"),
    "me_friends_create": ({"username": "bob", "note": "hi"}, "note"),
    "me_push_subscribe": ({"endpoint": "https://push.example.test/x", "expirationTime": None,
                           "keys": {"p256dh": "k", "auth": "a"}, "topic": "t"}, "topic"),
    "me_push_update": ({"turn": False, "sound": True}, "sound"),
    "me_password": ({"current_password": PASSWORD, "new_password": NEW_PASSWORD,
                     "new_password2": NEW_PASSWORD}, "new_password2"),
    "me_social_update": ({"hide_profile": True, "hide_ratings": True}, "hide_ratings"),
    "me_vacation_start": ({"days": 2, "reason": "holiday"}, "reason"),
    "me_watching_update": ({"public_games": True, "friends_only": True}, "friends_only"),
    "puzzles_attempt": ({"move": "pass", "hint": True}, "hint"),
    "reports_create": ({"reason": "abuse", "text": "rude", "player": "bob", "urgent": True},
                       "urgent"),
    "tables_create": ({"target": 100, "seats": 3}, "seats"),
    "tables_invite": ({"username": "bob", "message": "join us"}, "message"),
}
# Nested objects refuse their unknown fields too, named by path.
NESTED = [
    ("games_create", {"opponent": {"ai": "casual", "colour": "red"}}, "opponent.colour"),
    ("games_create", {"kind": "crazy_eights", "opponents": ["cautious"],
                      "rules": {"actions": True, "jokers": True}}, "rules.jokers"),
    ("games_moves_create", {"tiles": [{"square": "g7", "digit": 5, "colour": "red"}],
                            "expected_move_number": 0}, "tiles.colour"),
    ("tables_create", {"target": 100, "rules": {"several": False, "timer": 10}}, "rules.timer"),
]
# Crazy Eights' own creation form (picked by "kind") refuses unknown fields like the default.
KIND_FORMS = [
    ({"kind": "crazy_eights", "opponents": ["cautious"], "opponent": {"random": True}},
     "opponent"),
    ({"kind": "crazy_eights", "opponents": ["cautious"], "layout": "classic"}, "layout"),
]
# Form bodies (the accounts endpoints take them) are held to the same rule.
@pytest.fixture(scope="module")
def operations() -> dict[str, tuple[str, str, bool]]:
    """operationId -> (method, path, takes a body) for every operation that changes something."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        op["operationId"]: (method.upper(), path, "requestBody" in op)
        for path, methods in schema["paths"].items()
        for method, op in methods.items()
        if method in ("post", "put", "patch", "delete") and "live" not in op.get("tags", [])
    }


@pytest.fixture
def world(alice, bob, ai_queue, fixed_seed, make_client):
    """alice (the client) with an active game against bob (her move), a finished one, an
    open table she hosts, a friend request from bob, a device; the path of each operation."""
    from games.tables import services as tables

    game = services.create_game(user=alice, opponent={"username": "bob"})
    over = services.create_game(user=alice, opponent={"username": "bob"})
    services.resign(game_id=over.pk, user=bob)
    rules = {"actions": True, "several": True, "classic": False}
    table = tables.create_table(user=alice, options={"target": 100, "rules": rules})
    make_client(bob).post("/api/v1/me/friends", {"username": "alice"}, format="json")
    device = tokens.issue(user=alice, name="other")[0]
    from games.notifications.models import PushSubscription

    subscription = PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.test/alice", p256dh="k", auth="a"
    )
    values = {
        "game_id": game.pk, "code": table.code, "username": "bob",
        "device_id": device.pk, "day": timezone.now().date().isoformat(),
        "subscription_id": subscription.pk,
    }
    return make_client(alice), values


def _path(path: str, values: dict) -> str:
    for name, value in values.items():
        path = path.replace("{" + name + "}", str(value))
    return path


def snapshot() -> dict:
    """Every row of every model, as values: any change shows."""
    return {
        model._meta.label: sorted(map(repr, model.objects.values_list()))
        for model in apps.get_models()
        if model._meta.managed and not model._meta.proxy
    }


def test_every_operation_with_a_body_has_a_case(operations):
    with_body = {op for op, (_m, _p, body) in operations.items() if body}
    assert with_body == set(WITH_BODY), (
        f"no case: {sorted(with_body - set(WITH_BODY))}; "
        f"stale: {sorted(set(WITH_BODY) - with_body)}"
    )


def _send(client, method: str, url: str, body, fmt: str = "json"):
    return getattr(client, method.lower())(url, body, format=fmt)


def test_an_unknown_field_is_refused_by_name_and_changes_nothing(world, operations):
    client, values = world
    for operation, (body, unknown) in WITH_BODY.items():
        method, path, _body = operations[operation]
        before = snapshot()
        response = _send(client, method, _path(path, values), body)
        error = assert_error(response, 400, "unknown_fields")
        assert error["details"] == {"fields": [unknown]}, operation
        assert unknown in error["message"], operation
        assert snapshot() == before, f"{operation} changed something"


def test_nested_unknown_fields_are_named_by_path(world, operations):
    client, values = world
    for operation, body, unknown in [*NESTED, *(("games_create", b, u) for b, u in KIND_FORMS)]:
        method, path, _body = operations[operation]
        before = snapshot()
        error = assert_error(_send(client, method, _path(path, values), body), 400,
                             "unknown_fields")
        assert error["details"] == {"fields": [unknown]}, (operation, body)
        assert snapshot() == before


def test_an_operation_without_a_body_refuses_any_field(world, operations):
    client, values = world
    without = {op: v for op, v in operations.items() if not v[2]}
    assert {"games_resign", "games_cancel", "tables_join", "auth_logout"} <= set(without)
    for operation, (method, path, _body) in without.items():
        before = snapshot()
        response = _send(client, method, _path(path, values), {"why": "because"})
        error = assert_error(response, 400, "unknown_fields")
        assert error["details"] == {"fields": ["why"]}, operation
        assert snapshot() == before, f"{operation} changed something"


def test_the_known_fields_alone_still_work(world, operations):
    """The same bodies without their unknown field are taken (the refusal above was about that
    field only)."""
    client, values = world
    for operation in ("games_create", "games_moves_create", "games_preview", "me_update",
                      "games_chat_create", "tables_invite", "me_social_update"):
        body, unknown = WITH_BODY[operation]
        method, path, _body = operations[operation]
        known = {k: v for k, v in body.items() if k != unknown}
        response = _send(client, method, _path(path, values), known)
        assert response.status_code in (200, 201), (operation, response.content)
    # An empty body, or none, is no field at all: the page scripts send {} to resign.
    assert client.post(_path("/api/v1/games/{game_id}/resign", values), {},
                       format="json").status_code == 200


def test_the_schema_closes_every_request_object():
    """Every object schema a request body reaches says additionalProperties: false."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    todo = [media["schema"] for methods in schema["paths"].values() for op in methods.values()
            for media in op.get("requestBody", {}).get("content", {}).values()]
    closed: set[str] = set()
    while todo:
        node = todo.pop()
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in closed:
                closed.add(name)
                todo.append(components[name])
            continue
        if node.get("type") == "object" and "properties" in node:
            assert node.get("additionalProperties") is False, node
            todo.extend(node["properties"].values())
        todo.extend(b for k in ("oneOf", "anyOf", "allOf") for b in node.get(k, [])
                    if "$ref" in b or any(n in b for n in ("oneOf", "anyOf", "allOf")))
        if node.get("type") == "array":
            todo.append(node["items"])
    assert {"CreateGameInputRequest", "OpponentInputRequest", "PlacedTileInputRequest",
            "RulesInputRequest"} <= closed


def test_a_method_the_operation_lacks_still_answers_405_with_a_body(world):
    """Found by Schemathesis: the no-body rule must not answer for a method DRF refuses."""
    client, values = world
    response = client.generic("TRACE", _path("/api/v1/tables/{code}/invite", values),
                              '{"username": "bob"}', content_type="application/json")
    assert_error(response, 405, "method_not_allowed")
    response = client.put(_path("/api/v1/games/{game_id}/resign", values), {"why": 1},
                          format="json")
    assert_error(response, 405, "method_not_allowed")
