"""Schemathesis over the whole OpenAPI schema, in the suite, with every response check it has
(status codes, content types, headers, response bodies, schema-valid input accepted,
schema-invalid input refused, missing headers, unsupported methods) and no 5xx.

Requests go straight into the Django WSGI app (no server), authenticated as a player who has
an active game, so that half of the generated game ids hit a real game instead of a 404.
Each generated request runs in a transaction that is rolled back, so that every example meets
the same database (a username registered by one example is free again for the next).
"""

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from accounts import tokens
from config.wsgi import application

# Codes of the envelope that mean "the request does not have the documented shape". A request
# the schema calls valid must never get them; it may still be refused by a rule of the game or
# of accounts the schema cannot state (an illegal move, wrong credentials, a taken name), and
# those refusals carry their own code.
SHAPE_ERRORS = {"invalid", "parse_error", "unsupported_media_type"}


def schema_valid_input_is_accepted(ctx, response, case):
    """schemathesis's positive_data_acceptance, except for refusals with a domain code."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except AssertionError:
        if response.status_code in (400, 403, 409, 422) and _code(response) not in SHAPE_ERRORS:
            return None
        raise


def _code(response) -> str | None:
    try:
        return response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


# Loaded at import (schemathesis's lazy ``from_fixture`` does not work with pytest 9).
# The live event streams (tag "live") never end and need the ASGI server: tests/live covers them.
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).exclude(tag="live")


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
    return tokens.issue(user=alice, name="schemathesis")[1], game.pk


@schema.parametrize()
@settings(
    max_examples=10,
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
    cache.clear()  # throttle counters: every example starts below the limits
    with transaction.atomic():
        case.call_and_validate(
            headers={"Authorization": f"Token {token}"},
            excluded_checks=[positive_data_acceptance],
            additional_checks=[schema_valid_input_is_accepted],
        )
        transaction.set_rollback(True)
