"""Two players asking each other at the same moment on real PostgreSQL: one request is stored
and the other, finding it, accepts it; never two rows, never an error (threads on their own
connections, lined up on a barrier, as in test_rematch_concurrency.py)."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from social.models import Friendship

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

URL = "/api/v1/me/friends"
ROUNDS = 3


def _ask_together(requests: list[tuple[str, str]]) -> list:
    """POST each (token, username) request at once; the responses in the same order."""
    barrier = threading.Barrier(len(requests))
    responses: list = [None] * len(requests)
    failures: list[BaseException] = []

    def ask(i: int) -> None:
        token, username = requests[i]
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            barrier.wait(timeout=10)
            responses[i] = client.post(URL, {"username": username}, format="json")
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not failures, failures
    return responses


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_crossing_requests_make_friends_once(alice, bob, make_client, round_):
    responses = _ask_together([(make_client(alice).token, "bob"),
                               (make_client(bob).token, "alice")])
    bodies = sorted(r.json()["status"] for r in responses)
    assert bodies == ["friends", "requested"], [r.content for r in responses]
    assert sorted(r.status_code for r in responses) == [200, 201]
    (row,) = Friendship.objects.all()
    assert row.accepted_at is not None
    for client_of, other in ((alice, "bob"), (bob, "alice")):
        listed = make_client(client_of).get(URL).json()
        assert [p["username"] for p in listed["friends"]] == [other]
        assert listed["incoming"] == [] and listed["outgoing"] == []
