"""Both players at once on real PostgreSQL: offering at the same moment, or accepting twice at
the same moment, still makes exactly one new game (tests.helpers.at_once: threads on their own
connections, lined up on a barrier)."""

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game
from social.models import RematchOffer
from tests.helpers import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 3


def _post_together(tokens: list[str], url: str) -> list:
    """POST ``url`` with each token at once; the responses in order."""
    clients = []
    for token in tokens:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        clients.append(client)
    return at_once(*(lambda c=client: c.post(url) for client in clients))


@pytest.fixture
def over_game(alice, bob, ai_queue, make_client):
    def create() -> Game:
        game = services.create_game(user=alice, opponent={"username": "bob"})
        services.resign(game_id=game.pk, user=alice)
        return game

    return create


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_both_offer_at_once_one_game(over_game, alice, bob, make_client, round_):
    game = over_game()
    tokens = [make_client(alice).token, make_client(bob).token]
    responses = _post_together(tokens, f"/api/v1/games/{game.pk}/rematch")
    assert sorted(r.status_code for r in responses) == [200, 201], [r.content for r in responses]
    offer = RematchOffer.objects.get(game=game)
    assert offer.status == "accepted" and offer.new_game_id is not None
    assert Game.objects.filter(rematch_of__game=game).count() == 1
    assert Game.objects.count() == 2


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_double_accept_at_once_one_game(over_game, alice, bob, make_client, round_):
    game = over_game()
    assert make_client(alice).post(f"/api/v1/games/{game.pk}/rematch").status_code == 201
    token = make_client(bob).token
    responses = _post_together([token, token], f"/api/v1/games/{game.pk}/rematch")
    assert [r.status_code for r in responses] == [200, 200]
    assert len({r.json()["new_game"] for r in responses}) == 1
    assert Game.objects.count() == 2
