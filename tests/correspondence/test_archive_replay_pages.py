"""The archive page (filters, pages, export links) and the replay page (finished games only,
players only; the record it carries is the full one)."""

import json
import re

import pytest

from games import services
from games.models import Game
from tests.correspondence.test_archive_exports import _finished, _many_finished

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _creator_moves_first(fixed_seed):
    pass


def test_the_archive_page_filters_and_pages(client, alice, bob, carol, ai_queue):
    won = _finished(alice, bob, loser=bob)
    _finished(alice, carol, loser=alice)
    client.force_login(alice)
    page = client.get("/archive?opponent=bob").content.decode()
    assert page.count('class="archive-item"') == 1 and f"/games/{won.pk}/replay" in page
    assert f"/api/v1/games/{won.pk}/export.txt" in page and "/api/v1/me/archive/export" in page
    assert client.get("/archive?result=loss").content.decode().count('class="archive-item"') == 1
    bad = client.get("/archive?month=2026-13")
    assert bad.status_code == 400 and "This filter is not valid: month." in bad.content.decode()
    _many_finished(alice, bob, 45)
    second = client.get("/archive?opponent=bob&page=2").content.decode()
    assert "Page 2 of 3" in second and 'rel="prev"' in second and 'rel="next"' in second
    assert "opponent=bob&amp;page=3" in second


def test_the_replay_page_opens_after_the_end_for_players_only(client, alice, bob, carol,
                                                               ai_queue):
    running = services.create_game(user=alice, opponent={"username": "bob"})
    client.force_login(alice)
    closed = client.get(f"/games/{running.pk}/replay")
    assert closed.status_code == 409 and "replay-record" not in closed.content.decode()
    game = _finished(alice, bob, loser=bob)
    opened = client.get(f"/games/{game.pk}/replay").content.decode()
    data = re.search(r'<script id="replay-record" type="application/json">(.*?)</script>',
                     opened, re.S)
    record = json.loads(data.group(1))
    assert [m["pieces_before"] for m in record["moves"]] == ["0123555", "1234668"]
    assert record["initial"]["board"] and "board" in record["moves"][0]["position"]
    client.force_login(carol)
    assert client.get(f"/games/{game.pk}/replay").status_code == 403


def test_an_awarded_game_keeps_its_racks_private(client, alice, bob, ai_queue):
    game = _finished(alice, bob, loser=bob)
    Game.objects.filter(pk=game.pk).update(result={**game.result, "termination": "awarded"})
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/replay").status_code == 409
    record = client.get(f"/api/v1/games/{game.pk}/export").json()
    assert record["full"] is False and "pieces_before" not in record["moves"][0]
