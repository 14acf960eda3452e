"""The games lists read from statements compiled once (config/compiled_queries.py): the same
games, in the same order, with the same fields, seats and players as the ORM's querysets they
are compiled from (``player_games`` and its seats' ``Prefetch``)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Count, Window, prefetch_related_objects
from django.test.utils import CaptureQueriesContext

from config.compiled_queries import CompiledQuery
from config.pagination import TOTAL
from games import selectors, services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {k: v for k, v in obj.__dict__.items() if not k.startswith("_")}


def _seats(game: Game) -> list[tuple]:
    return [(_fields(s), s.user and _fields(s.user), s.game is game) for s in game.seats.all()]


@pytest.fixture
def many_games(human_game, alice, bob, carol, ai_queue):
    from games.correspondence import services as vacations

    services.create_game(
        user=alice, kind="crazy_eights",
        seats=[{"you": True}, {"username": carol.username}, {"computer": "strong"}],
    )
    services.create_game(user=alice, seats=[{"you": True}, {"random": True}])
    for _ in range(3):
        over = services.create_game(user=alice, opponent={"computer": "casual"})
        services.resign(game_id=over.pk, user=alice)
        services.create_game(user=alice, opponent={"computer": "casual"})
    vacations.start(user=bob, days=3)


@pytest.mark.parametrize("status", [None, "active", "waiting", "finished"])
@pytest.mark.parametrize(("offset", "limit"), [(0, 20), (0, 3), (2, 3), (50, 20)])
def test_a_compiled_page_is_the_querysets_slice(many_games, alice, status, offset, limit):
    games = selectors.player_games(user=alice, status=status, seats=False)
    expected = list(games.annotate(**{TOTAL: Window(Count("*"))})[offset:offset + limit])
    page = selectors.player_games_page(
        user=alice, status=status, offset=offset, limit=limit, counted=True
    )
    assert [_fields(g) for g in page] == [_fields(g) for g in expected]
    assert [type(g) for g in page] == [type(g) for g in expected]
    assert all("state" in g.get_deferred_fields() for g in page)
    uncounted = selectors.player_games_page(user=alice, status=status, offset=offset, limit=limit)
    assert [g.pk for g in uncounted] == [g.pk for g in expected]
    assert not any(hasattr(g, TOTAL) for g in uncounted)


def test_the_list_seats_are_the_prefetchs(many_games, alice, bob):
    mine = list(selectors.player_games(user=alice, seats=False))
    assert len({g.seat_count for g in mine}) == 2
    expected = list(selectors.player_games(user=alice))
    with CaptureQueriesContext(connection) as queries:
        selectors.prefetch_list_seats(mine)
    assert len(queries) == 1
    assert [_seats(g) for g in mine] == [_seats(g) for g in expected]
    assert any(s.vacation_until for g in mine for s in g.seats.all())
    with CaptureQueriesContext(connection) as queries:
        summaries = [selectors.game_summary(game=g, user=alice) for g in mine]
    assert not queries.captured_queries
    assert summaries == [selectors.game_summary(game=g, user=alice) for g in expected]
    again = list(selectors.player_games(user=alice, seats=False))
    prefetch_related_objects(again, selectors._seats_prefetch(private=False))
    assert [_seats(g) for g in mine] == [_seats(g) for g in again]
    selectors.prefetch_list_seats([])  # nothing to read: no query


def test_a_stand_in_that_is_not_in_the_sql_is_refused():
    query = CompiledQuery(lambda user_id: Seat.objects.filter(user_id=1), 1)
    with pytest.raises(ValueError, match="stand-in"):
        query.run([1])
    paged = CompiledQuery(lambda user_id: Seat.objects.filter(user_id=user_id), 1, paged=True)
    with pytest.raises(ValueError, match="limit"):
        paged.run([1])
    assert paged.run([1], limit=5) == []


def test_the_badge_counts_the_games_waiting_for_the_user(many_games, alice, bob, carol):
    from django.db.models import F

    for user in (alice, bob, carol):
        expected = Seat.objects.filter(
            user=user, game__status=Game.Status.ACTIVE, game__current_seat=F("index")
        ).count()
        assert selectors.waiting_for_you_count(user=user) == expected
    assert selectors.waiting_for_you_count(user=alice) > 0
    query = CompiledQuery(lambda user_id: Seat.objects.filter(user_id=user_id), 1)
    assert query.run([alice.pk]) and query.rows  # a model query runs, a values query rows
    with pytest.raises(TypeError):
        CompiledQuery(
            lambda user_id: Seat.objects.filter(user_id=user_id).values_list("pk"), 1
        ).run([alice.pk])


def test_each_thread_compiles_its_own_statement(many_games, alice):
    """A compiled statement converts rows with its thread's connection, as Django does."""
    import threading

    built = []
    query = CompiledQuery(
        lambda user_id: built.append(user_id) or Seat.objects.filter(user_id=user_id), 1
    )
    assert query.run([alice.pk]) and query.run([alice.pk])
    assert len(built) == 1
    seen = []
    thread = threading.Thread(target=lambda: seen.append(len(query._statement("default").sql)))
    thread.start()
    thread.join()
    assert len(built) == 2 and seen
