"""Simultaneous submissions on real PostgreSQL: the game-row lock lets exactly one move through.

Transactional tests (data really committed) with real threads, each on its own connection,
lined up on a barrier so that the requests hit the server together (tests.helpers.at_once).
"""

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game, IdempotencyRecord, Move
from tests.helpers import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 3  # fresh game per round: more chances for the two requests to truly overlap
OPENING = "g7=5 h7=5"  # legal for seat 0 under the fixed seed


def _post_together(token: str, game_id: int, headers: list[dict]) -> list:
    """POST the same opening move from ``len(headers)`` threads at once; responses in order."""
    clients = []
    for extra in headers:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}", **extra)
        clients.append(client)
    return at_once(*(
        lambda c=client: c.post(
            f"/api/v1/games/{game_id}/moves",
            {"move": OPENING, "expected_move_number": 0},
            format="json",
        )
        for client in clients
    ))


@pytest.fixture
def new_game(alice, bob, ai_queue, fixed_seed, make_client):
    token = make_client(alice).token

    def create() -> tuple[Game, str]:
        return services.create_game(user=alice, opponent={"username": "bob"}), token

    return create


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_same_move_twice_one_201_one_409(new_game, round_):
    game, token = new_game()
    responses = _post_together(token, game.pk, [{}, {}])
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201, 409], [r.content for r in responses]
    conflict = next(r for r in responses if r.status_code == 409)
    assert conflict.json()["error"]["code"] in ("stale_move_number", "not_your_turn")
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.move_number == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_same_idempotency_key_twice_plays_once(new_game, round_):
    game, token = new_game()
    key = {"HTTP_IDEMPOTENCY_KEY": f"retry-{game.pk}"}
    responses = _post_together(token, game.pk, [key, key])
    assert [r.status_code for r in responses] == [201, 201], [r.content for r in responses]
    assert responses[0].json() == responses[1].json()
    replayed = [r.headers.get("Idempotent-Replayed") for r in responses]
    assert sorted(replayed, key=str) == [None, "true"]
    assert Move.objects.filter(game=game).count() == 1
    assert IdempotencyRecord.objects.filter(game=game).count() == 1
