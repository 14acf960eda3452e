"""Schemathesis over the whole OpenAPI schema, in the suite: no 5xx, no response outside it.

Requests go straight into the Django WSGI app (no server), authenticated as a player who has
an active game, so that half of the generated game ids hit a real game instead of a 404.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from config.wsgi import application

# Content-type conformance is left out: a path that doesn't match the URL pattern (a game id
# "null,null") gets Django's HTML 404 from the resolver, before any API view runs.
CHECKS = [not_a_server_error, response_schema_conformance]


# Loaded at import (schemathesis's lazy ``from_fixture`` does not work with pytest 9).
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Like Django's test client: a request must not close the test's connection (and with it
    the transaction the test runs in), which request_started/finished would otherwise do."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def player(alice, bob, ai_queue, fixed_seed):
    """alice's token and the id of her active game against bob (alice to move)."""
    from games import services

    game = services.create_game(user=alice, opponent={"username": "bob"})
    return Token.objects.get_or_create(user=alice)[0].key, game.pk


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_api_conforms_to_its_schema(case, player):
    token, game_id = player
    generated = (case.path_parameters or {}).get("game_id")
    if isinstance(generated, int) and generated % 2 == 0:
        case.path_parameters["game_id"] = game_id  # a real game of the player's
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
