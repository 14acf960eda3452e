"""The games list: no query per row, search by id and username, player and stale-turn filters."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

URL = reverse("admin:games_game_changelist")


def _ids(response) -> set[int]:
    return {game.pk for game in response.context["cl"].result_list}


def _new_games(count: int, user_factory, ai_queue) -> list[Game]:
    games = []
    for _ in range(count):
        a, b = user_factory(), user_factory()
        games.append(services.create_game(user=a, opponent={"username": b.username}))
    return games


def _queries(client, url=URL) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_list_query_count_does_not_grow_with_games(moderator_client, user_factory, ai_queue):
    _new_games(2, user_factory, ai_queue)
    few = _queries(moderator_client)
    _new_games(6, user_factory, ai_queue)
    many = _queries(moderator_client)
    assert many == few
    assert "vs" in moderator_client.get(URL).content.decode()


def test_search_by_id_and_by_username(moderator_client, human_game, user_factory, ai_queue):
    other = _new_games(1, user_factory, ai_queue)[0]
    assert _ids(moderator_client.get(URL, {"q": str(human_game.pk)})) == {human_game.pk}
    assert _ids(moderator_client.get(URL, {"q": "bob"})) == {human_game.pk}
    assert other.pk in _ids(moderator_client.get(URL))


def test_filter_by_player_and_status(moderator_client, human_game, user_factory, ai_queue):
    _new_games(1, user_factory, ai_queue)
    assert _ids(moderator_client.get(URL, {"player": "alice"})) == {human_game.pk}
    assert _ids(moderator_client.get(URL, {"status__exact": "finished"})) == set()


def test_stale_turn_filter(moderator_client, human_game, user_factory, ai_queue):
    fresh, overdue = _new_games(2, user_factory, ai_queue)
    now = timezone.now()
    Game.objects.filter(pk=human_game.pk).update(turn_started_at=now - timedelta(hours=30))
    Game.objects.filter(pk=overdue.pk).update(turn_deadline=now - timedelta(minutes=1))
    assert _ids(moderator_client.get(URL, {"stale": "stale"})) == {human_game.pk, overdue.pk}
    assert fresh.pk not in _ids(moderator_client.get(URL, {"stale": "stale"}))


def test_stuck_computer_filter(moderator_client, computer_to_move, human_game):
    assert _ids(moderator_client.get(URL, {"stale": "computer"})) == set()
    Game.objects.filter(pk=computer_to_move.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=10)
    )
    Game.objects.filter(pk=human_game.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=10)
    )
    assert _ids(moderator_client.get(URL, {"stale": "computer"})) == {computer_to_move.pk}
