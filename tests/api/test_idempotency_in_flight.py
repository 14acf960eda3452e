"""A request that comes with an Idempotency-Key while another request with that key is still
in flight is refused at once with 409 ``idempotency_key_in_use`` and changes nothing (issue 28:
with two different bodies the second one used to get the engine's answer about its own body).
PostgreSQL only: the claim is an advisory lock (SQLite runs one writer at a time)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from games.models import Game, IdempotencyRecord, Move
from games.services import idempotency
from tests.helpers import assert_error

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture
def key_in_flight(alice):
    """A transaction in another thread that holds alice's key "k-1" until released."""
    holding, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                assert idempotency.hold(alice, "k-1") is None
                holding.set()
                release.wait(20)
        except BaseException as exc:  # reported by the test, not lost in the thread
            failures.append(exc)
            holding.set()
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert holding.wait(20) and not failures, failures
    yield
    release.set()
    thread.join(20)
    assert not failures, failures


def test_a_move_with_a_key_in_flight_is_refused_and_changes_nothing(
    human_game, alice_client, key_in_flight
):
    response = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json", HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert_error(response, 409, "idempotency_key_in_use")
    assert response.json()["error"]["details"] == {"retry_after": 1}
    assert Game.objects.get(pk=human_game.pk).move_number == 0
    assert not Move.objects.filter(game=human_game).exists()
    assert not IdempotencyRecord.objects.exists()


def test_a_new_game_with_a_key_in_flight_is_refused(alice_client, bob, key_in_flight):
    before = Game.objects.count()
    response = alice_client.post(
        "/api/v1/games", {"opponent": {"username": "bob"}}, format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert_error(response, 409, "idempotency_key_in_use")
    assert Game.objects.count() == before


def test_once_the_first_is_done_the_key_plays_again(human_game, alice_client):
    body = {"move": "g7=5 h7=5", "expected_move_number": 0}
    url = f"/api/v1/games/{human_game.pk}/moves"
    first = alice_client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    again = alice_client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    other = alice_client.post(url, {"move": "pass", "expected_move_number": 0}, format="json",
                              HTTP_IDEMPOTENCY_KEY="k-2")
    assert first.status_code == 201 and again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert_error(other, 422, "idempotency_key_mismatch")
