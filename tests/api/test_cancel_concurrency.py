"""Cancelling a random-opponent request at the moment someone is paired with it, on real
PostgreSQL (tests.helpers.at_once): either the request is cancelled and the partner waits in a
game of their own, or the two are paired and the cancel answers game_started — never a
cancelled game with two players, and every result fits its seats."""

import pytest
from rest_framework.test import APIClient

from games.models import Game
from games.results import result_problems
from tests.helpers import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 3


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_cancel_and_a_partner_at_once(alice, bob, make_client, round_):
    waiting = make_client(alice).post("/api/v1/games", {"opponent": {"random": True}},
                                      format="json").json()
    alices, bobs = _client(make_client(alice).token), _client(make_client(bob).token)
    cancel, pair = at_once(
        lambda: alices.post(f"/api/v1/games/{waiting['id']}/cancel"),
        lambda: bobs.post("/api/v1/games", {"opponent": {"random": True}}, format="json"),
    )
    game = Game.objects.get(pk=waiting["id"])
    if cancel.status_code == 200:
        assert game.status == "aborted" and game.seats.count() == 1
        assert pair.status_code == 201 and pair.json()["id"] != game.pk
        assert pair.json()["status"] == "waiting"
    else:
        assert cancel.status_code == 409 and cancel.json()["error"]["code"] == "game_started"
        assert pair.json()["id"] == game.pk and game.status == "active"
        assert game.seats.count() == 2
    for stored in Game.objects.all():
        assert result_problems(stored.result, stored.seat_count) == []
