"""Redis or the broker unavailable answers 503 + Retry-After in the envelope, never 500; and
POST /games honours Idempotency-Key like moves do."""

import pytest
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.models import Game, IdempotencyRecord
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "error",
    [
        RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
        RedisTimeoutError("Timeout reading from socket"),
        BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
    ],
)
def test_redis_or_broker_unavailable_answers_503_with_retry_after(
    human_game, alice_client, monkeypatch, error
):
    def unavailable(**kwargs):
        raise error

    monkeypatch.setattr("games.services.submit_move", unavailable)
    response = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
    )
    assert_error(response, 503, "service_unavailable")
    assert int(response["Retry-After"]) > 0
    human_game.refresh_from_db()
    assert human_game.move_number == 0


def test_a_throttle_whose_cache_is_down_answers_503(human_game, alice_client, monkeypatch):
    def down(*args, **kwargs):
        raise RedisConnectionError("Connection refused.")

    monkeypatch.setattr("config.throttling._hit_redis", down)
    monkeypatch.setattr("config.throttling._hit_locked", down)
    response = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
    )
    assert response.status_code in (201, 503), response.content  # degraded, or 503
    if response.status_code == 503:
        assert_error(response, 503, "service_unavailable")


def create(client, body, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post("/api/v1/games", body, format="json", **headers)


def test_game_creation_with_the_same_key_is_created_once(alice_client, bob, ai_queue):
    body = {"opponent": {"username": "bob"}, "turn_hours": 24}
    first = create(alice_client, body, key="create-1")
    assert first.status_code == 201, first.content
    again = create(alice_client, body, key="create-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Game.objects.count() == 1
    # Another body under the same key is refused and creates nothing.
    other = create(alice_client, {"opponent": {"ai": "casual"}}, key="create-1")
    assert_error(other, 422, "idempotency_key_mismatch")
    assert Game.objects.count() == 1
    # Without a key every request creates a game; another key creates another one.
    assert create(alice_client, body).status_code == 201
    assert create(alice_client, body, key="create-2").status_code == 201
    assert Game.objects.count() == 3


def test_keys_are_per_user_and_a_move_key_does_not_replay_as_a_game(
    human_game, alice_client, bob_client, ai_queue
):
    played = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert played.status_code == 201
    refused = create(alice_client, {"opponent": {"ai": "casual"}}, key="k1")
    assert_error(refused, 422, "idempotency_key_mismatch")
    assert create(bob_client, {"opponent": {"ai": "casual"}}, key="k1").status_code == 201
    assert IdempotencyRecord.objects.count() == 2


def test_a_refused_creation_stores_nothing(alice_client):
    response = create(alice_client, {"opponent": {"username": "nobody"}}, key="bad")
    assert_error(response, 400, "unknown_player")
    assert not IdempotencyRecord.objects.exists() and not Game.objects.exists()


def test_the_schema_documents_the_header_on_game_creation():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    post = schema["paths"]["/api/v1/games"]["post"]
    assert any(
        p["name"] == "Idempotency-Key" and p["in"] == "header" for p in post["parameters"]
    )
    assert "422" in post["responses"]
