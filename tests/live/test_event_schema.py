"""Every event real games publish fits its schema in the OpenAPI document (``LiveEvent``: one
schema per type, told apart by ``type``), so a client typed from the schema reads them all."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from games import kinds, services
from games.crazy_eights import engine as c8
from games.models import Game
from games.notifications.services import reminders
from games.tables import services as tables
from live.event_schema import EVENTS
from live.models import LiveEvent
from social.services import chat, friends, rematch
from tests.crazy_eights.conftest import run_computers

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def db_backend(settings):
    settings.LIVE_BACKEND = "db"


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema (``type: [..., "null"]``); the rest as is."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: as_json_schema(value) for key, value in node.items() if key != "discriminator"}
    if node.pop("nullable", False):
        if "type" in node:
            node["type"] = [node["type"], "null"]
        elif "allOf" in node or "$ref" in node:
            node = {"anyOf": [{"type": "null"}, node]}
    return node


@pytest.fixture(scope="module")
def validator():
    document = SchemaGenerator().get_schema(request=None, public=True)
    components = as_json_schema(document["components"]["schemas"])
    schema = {"$ref": "#/components/schemas/LiveEvent", "components": {"schemas": components}}
    return jsonschema.Draft7Validator(schema)


def test_the_events_of_real_games_fit_their_schemas(
    validator, alice, bob, carol, ai_queue, fixed_seed, django_capture_on_commit_callbacks,
    monkeypatch,
):
    monkeypatch.setattr("games.notifications.services._common._enqueue_send", lambda n: None)
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        friends.request(user=alice, username="bob")
        friends.accept(user=bob, username="alice")
        game = services.create_game(user=alice, opponent={"username": "bob"})
    moves = [(alice, "g7=5 h7=5"), (bob, "pass"), (alice, "swap 0"), (bob, "pass")]
    for number, (user, move) in enumerate(moves):
        with capture(execute=True):
            services.submit_move(game_id=game.pk, user=user, move=move,
                                 expected_move_number=number)
    with capture(execute=True):
        chat.post(game_id=game.pk, user=alice, text="good luck")
        reminders.nudge(game_id=game.pk, user=bob, now=timezone.now())
        services.analyse_moves(game_id=game.pk)
        services.resign(game_id=game.pk, user=bob)
        services.analyse_moves(game_id=game.pk)
    with capture(execute=True):
        rematch.offer_or_accept(game_id=game.pk, user=alice)
        rematch.offer_or_accept(game_id=game.pk, user=bob)
    with capture(execute=True):
        solo = services.create_game(user=carol, kind="crazy_eights",
                                    opponents=["cautious", "chaotic"])
    run_computers(ai_queue, capture)
    solo = Game.objects.get(pk=solo.pk)
    state = kinds.get("crazy_eights").load(solo.state).engine
    with capture(execute=True):
        services.submit_move(game_id=solo.pk, user=carol,
                             move=c8.format_move(c8.legal_moves(state)[0]),
                             expected_move_number=solo.move_number)
    run_computers(ai_queue, capture)
    with capture(execute=True):
        table = tables.create_table(user=carol, options={"target": 100})
        tables.join(user=alice, code=table.code)
        tables.deal(user=carol, code=table.code)

    published = list(LiveEvent.objects.order_by("pk"))
    seen = {event.type for event in published}
    assert {"friend_request", "friend_accepted", "game_started", "move", "your_turn", "deadline",
            "chat", "nudge", "game_finished", "move_analysed", "analysis_ready",
            "rematch_offered", "rematch_accepted", "table_joined", "table_dealt"} <= seen
    assert seen <= set(EVENTS), seen - set(EVENTS)
    problems = []
    for event in published:
        payload = {"type": event.type, **event.data}
        errors = sorted(validator.iter_errors(payload), key=lambda e: e.path)
        if errors:
            problems.append(f"{event.type}: {errors[0].message} {payload}")
    assert not problems, "\n".join(problems[:5])


def test_the_check_refuses_an_event_off_its_schema(validator):
    assert not validator.is_valid({"type": "your_turn", "game": 1})
    assert not validator.is_valid({"type": "no_such_event"})
    assert validator.is_valid({"type": "analysis_ready", "game": 1})
