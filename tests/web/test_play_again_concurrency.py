"""Two clicks of "Play again" at the same moment on real PostgreSQL (a double click: the second
arrives while the first is still creating the game) make one game; both land on it."""

import re

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.helpers import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("round_", range(3))
def test_a_double_click_at_once_makes_one_game(alice, bob, ai_queue, round_):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    services.resign(game_id=game.pk, user=bob)
    page = Client()
    page.force_login(alice)
    token = re.search(r'name="again_token" value="([^"]+)"',
                      page.get(f"/games/{game.pk}").content.decode()).group(1)
    clients = []
    for _ in range(2):
        client = Client()
        client.force_login(alice)
        clients.append(client)
    responses = at_once(*(
        lambda c=client: c.post(f"/games/{game.pk}/again", {"again_token": token})
        for client in clients))
    assert [r.status_code for r in responses] == [302, 302], [r.content for r in responses]
    assert responses[0].url == responses[1].url
    assert Game.objects.count() == 2
