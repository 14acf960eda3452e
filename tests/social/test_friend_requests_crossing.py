"""Two players asking each other at the same moment on real PostgreSQL: one request is stored
and the other, finding it, accepts it; never two rows, never an error (tests.helpers.at_once:
threads on their own connections, lined up on a barrier)."""

import pytest

from social.models import Friendship
from tests.helpers import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

URL = "/api/v1/me/friends"
ROUNDS = 3


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_crossing_requests_make_friends_once(alice, bob, make_client, round_):
    alice_client, bob_client = make_client(alice), make_client(bob)
    responses = at_once(
        lambda: alice_client.post(URL, {"username": "bob"}, format="json"),
        lambda: bob_client.post(URL, {"username": "alice"}, format="json"),
    )
    bodies = sorted(r.json()["status"] for r in responses)
    assert bodies == ["friends", "requested"], [r.content for r in responses]
    assert sorted(r.status_code for r in responses) == [200, 201]
    (row,) = Friendship.objects.all()
    assert row.accepted_at is not None
    for client_of, other in ((alice, "bob"), (bob, "alice")):
        listed = make_client(client_of).get(URL).json()
        assert [p["username"] for p in listed["friends"]] == [other]
        assert listed["incoming"] == [] and listed["outgoing"] == []
