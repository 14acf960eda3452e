"""Schemathesis over the whole OpenAPI schema, in the suite: every operation (the live streams
aside: tests/live covers them), with every response check it has (no 5xx, status codes, content
types, headers, response bodies against the schema, schema-valid input accepted, schema-invalid
input refused, missing headers, unsupported methods).

Two runs, as a dedicated player (``schemathesis``) who has games of both kinds in every state (a
Crazy10s game to play, a Crazy Eights match, a random-opponent request still waiting, a finished
game), a table, a friend and a second device:

- per operation: generated requests, half of whose path parameters are aimed at that player's
  real games, table, friend or device instead of a random one (mostly a 404);
- stateful: chains of requests that follow the schema's links (the game a POST games made, the
  table a POST tables opened, ...), so that a game is created and then resigned, cancelled,
  played or viewed — issue 30's bug was such a chain.

Requests go straight into the Django WSGI app (no server). Each generated request (and each
chain) runs in a transaction that is rolled back, so every example meets the same database.
"""

from __future__ import annotations

import os
import zlib

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, assume, settings
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import positive_data_acceptance

from accounts import tokens
from config.wsgi import application

# Codes of the envelope that mean "the request does not have the documented shape". A request
# the schema calls valid must never get them; it may still be refused by a rule of the game or
# of accounts the schema cannot state (an illegal move, wrong credentials, a taken name), and
# those refusals carry their own code.
SHAPE_ERRORS = {"invalid", "parse_error", "unsupported_media_type", "unknown_fields"}
# Examples per operation (~600 requests over the 59 operations), and chains of up to STEPS
# linked requests (~450 requests): a few minutes at most on a busy machine. A deeper run:
# SCHEMA_EXAMPLES=100 SCHEMA_CHAINS=500 scripts/test.sh tests/api/test_schema.py
PER_OPERATION = int(os.environ.get("SCHEMA_EXAMPLES", "10"))
CHAINS = int(os.environ.get("SCHEMA_CHAINS", "60"))
STEPS = 8


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
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).exclude(tag="live")
TOKEN: dict[str, str] = {}  # the dedicated player's token, set by the ``world`` fixture


@schema.auth(refresh_interval=None)
class DedicatedPlayer:
    """Every generated request is the dedicated player's (Schemathesis's own auth checks then
    send it without a token and with a wrong one too, and expect 401)."""

    def get(self, case, ctx):
        return TOKEN.get("key", "")  # asked at collection too, before any fixture ran

    def set(self, case, data, ctx):
        case.headers = {**(case.headers or {}), "Authorization": f"Token {data}"}


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
def world(user_factory, ai_queue, fixed_seed) -> dict:
    """The dedicated player, their token, and the real objects path parameters are aimed at."""
    from games import services
    from games.tables import services as tables
    from social.services import friends

    player = user_factory("schemathesis", display_name="Schemathesis")
    rival, friend = user_factory("rival"), user_factory("friendly")
    active = services.create_game(user=player, opponent={"username": "rival"})
    match = services.create_game(user=player, kind="crazy_eights",
                                 opponents=["cautious", "strong"])
    waiting = services.create_game(user=player, opponent={"random": True}, turn_hours=168)
    over = services.create_game(user=player, opponent={"username": "rival"})
    services.resign(game_id=over.pk, user=rival)
    rules = {"actions": True, "several": True, "classic": False}
    table = tables.create_table(user=player, options={"target": 100, "rules": rules})
    friends.request(user=friend, username="schemathesis")
    device = tokens.issue(user=player, name="phone")[0]
    TOKEN["key"] = tokens.issue(user=player, name="schemathesis")[1]
    return {
        "game_id": [active.pk, match.pk, waiting.pk, over.pk],
        "code": [table.code],
        "username": ["rival", "friendly"],
        "device_id": [device.pk],
    }


def _aim(case, world: dict, *, paths: bool = True) -> None:
    """Aim about half of the generated path parameters, and of the usernames a body names (a
    friend request, an invitation, an opponent), at the player's real objects and people. Which
    one follows from the generated value, so a failing example replays the same request.
    Values generated to break the schema stay as they are: they must be refused."""
    def negative(location: ParameterLocation) -> bool:
        return case.meta is not None and case.meta.is_negative_at(location)

    if paths and not negative(ParameterLocation.PATH):
        for name, value in (case.path_parameters or {}).items():
            case.path_parameters[name] = _real(world, name, value)
    body = case.body if isinstance(case.body, dict) and not negative(ParameterLocation.BODY) else {}
    for holder in (body, body.get("opponent")):
        if isinstance(holder, dict) and isinstance(holder.get("username"), str):
            holder["username"] = _real(world, "username", holder["username"])


FORMS = ("multipart/form-data", "application/x-www-form-urlencoded")


def _expressible(case) -> bool:
    """A form can only carry an object: Schemathesis sends an array or a scalar "as a form" as
    a part without a name, which every form parser skips (an empty form), so the answer says
    nothing about the API."""
    return case.media_type not in FORMS or case.body is None or isinstance(case.body, dict)


def _real(world: dict, name: str, value):
    real, digest = world.get(name), zlib.crc32(repr(value).encode())
    return real[digest // 2 % len(real)] if real and digest % 2 == 0 else value


def _validate(case, response) -> None:
    case.validate_response(
        response,
        excluded_checks=[positive_data_acceptance],
        additional_checks=[schema_valid_input_is_accepted],
    )


@schema.parametrize()
@settings(
    max_examples=PER_OPERATION,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_api_conforms_to_its_schema(case, world):
    assume(_expressible(case))
    _aim(case, world)
    cache.clear()  # throttle counters: every example starts below the limits
    with transaction.atomic():
        _validate(case, case.call())
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_linked_requests_conform_to_the_schema(world):
    """Chains along the schema's links: whatever a game, a table or a friend went through in
    the chain before, every answer is documented and none is a 5xx."""

    class Chains(schema.as_state_machine()):
        def setup(self):
            self._atomic = transaction.atomic()
            self._atomic.__enter__()

        def teardown(self):
            transaction.set_rollback(True)
            self._atomic.__exit__(None, None, None)

        def before_call(self, case):
            assume(_expressible(case))
            # Path parameters come from the links (real objects) or are drawn at random; a
            # linked id differs from run to run (sequences), so aiming it would make the
            # chain's next answers differ too, and Hypothesis could not replay a failure.
            _aim(case, world, paths=False)
            cache.clear()

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            _validate(case, response)

    Chains.run(settings=settings(
        max_examples=CHAINS,
        stateful_step_count=STEPS,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.shrink],
    ))
