"""The pages a player opens most cost a number of queries that does not depend on how many
games they have (issue 28): the games list (API and web) and a game's page, with finished and
active games of both kinds. bench/lists.py times them with 1,000 finished and 100 active games.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services

pytestmark = pytest.mark.django_db


def _games(user, count: int) -> list:
    made = []
    for index in range(count):
        if index % 2:
            game = services.create_game(user=user, kind="crazy_eights", opponents=["cautious"])
        else:
            game = services.create_game(user=user, opponent={"ai": "casual"})
        made.append(game)
        if index % 3 == 0:
            services.resign(game_id=game.pk, user=user)
    return made


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries.captured_queries)


@pytest.mark.parametrize("url", ["/", "/api/v1/games", "/api/v1/games?status=finished"])
def test_the_games_lists_cost_the_same_with_more_games(client, alice, ai_queue, url):
    client.force_login(alice)
    _games(alice, 3)
    few = _count(client, url)
    _games(alice, 9)
    assert _count(client, url) == few


def test_a_game_page_costs_the_same_however_many_games_the_player_has(client, alice, ai_queue):
    client.force_login(alice)
    game = _games(alice, 1)[0]
    client.get(f"/games/{game.pk}")  # the first look is recorded (last_seen); later ones not
    few = _count(client, f"/games/{game.pk}")
    _games(alice, 8)
    assert _count(client, f"/games/{game.pk}") == few
    assert few <= 12


def test_the_home_page_shows_the_first_games_in_progress_and_all_on_request(
    client, alice, ai_queue, monkeypatch
):
    from web.views import games as game_views

    monkeypatch.setattr(game_views, "ACTIVE_SHOWN", 3)
    client.force_login(alice)
    for _ in range(5):
        services.create_game(user=alice, opponent={"ai": "casual"})
    first = client.get("/").content.decode()
    assert first.count('class="game-row') == 3
    assert 'id="all-active-link"' in first and 'href="?playing=all"' in first
    every = client.get("/?playing=all").content.decode()
    assert every.count('class="game-row') == 5
    assert 'id="all-active-link"' not in every
    assert "games/lists?playing=all" in every  # the live refresh keeps the whole list
    assert _count(client, "/?playing=all") == _count(client, "/")
    monkeypatch.setattr(game_views, "ACTIVE_SHOWN", 5)
    assert 'id="all-active-link"' not in client.get("/").content.decode()


@pytest.mark.parametrize("url", ["/", "/api/v1/games"])
def test_the_lists_read_no_more_of_the_other_players_accounts_than_their_names(
    client, alice, bob, ai_queue, url
):
    """A list's seats read their players' names only (``selectors._seats``): a field left in
    the database and then read would cost a query per game."""
    bob.display_name = "Bobby Tables"
    bob.save()
    client.force_login(alice)
    services.create_game(user=alice, opponent={"username": bob.username})
    few = _count(client, url)
    for _ in range(4):
        services.create_game(
            user=alice, kind="crazy_eights", seats=[{"you": True}, {"username": bob.username}]
        )
    assert _count(client, url) == few
    assert client.get(url).content.count(b"Bobby Tables") >= 5
