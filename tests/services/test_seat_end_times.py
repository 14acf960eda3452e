"""Every way a game ends gives each of its seats the game's end time (issue 28): the finished
lists read it from the seats, newest first, straight from the index ``seat_finished_by_user``
(no sort of every game the player finished); the seats of a game still running have none."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from games import selectors, services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _end_times(game_id: int) -> tuple[object, list[object]]:
    game = Game.objects.get(pk=game_id)
    return game.finished_at, list(
        Seat.objects.filter(game_id=game_id).order_by("index").values_list("finished_at", flat=True)
    )


def test_a_move_that_ends_the_game_stamps_every_seat(human_game, alice):
    assert _end_times(human_game.pk) == (None, [None, None])
    services.resign(game_id=human_game.pk, user=alice)
    finished_at, seats = _end_times(human_game.pk)
    assert finished_at is not None and seats == [finished_at, finished_at]


@pytest.mark.parametrize("end", ["abort", "award", "cancel"])
def test_an_ending_without_a_move_stamps_every_seat(end, human_game, alice, bob):
    if end == "abort":
        services.abort_game(game_id=human_game.pk)
        game_id = human_game.pk
    elif end == "award":
        services.award_game(game_id=human_game.pk, seat_index=1)
        game_id = human_game.pk
    else:  # a request nobody took yet, withdrawn
        waiting = services.create_game(user=alice, opponent={"random": True})
        assert waiting.status == Game.Status.WAITING
        services.cancel(game_id=waiting.pk, user=alice)
        game_id = waiting.pk
    finished_at, seats = _end_times(game_id)
    assert finished_at is not None and seats and set(seats) == {finished_at}


def test_the_finished_list_is_newest_first_by_end_time(alice, bob, ai_queue, fixed_seed):
    games = [services.create_game(user=alice, opponent={"username": "bob"}) for _ in range(3)]
    for game in games:
        services.resign(game_id=game.pk, user=alice)
    # Ends out of the order of creation: the middle game ended last, the last one first.
    start = Game.objects.get(pk=games[0].pk).finished_at
    ends = {games[0].pk: start, games[1].pk: start + timedelta(hours=2),
            games[2].pk: start - timedelta(hours=1)}
    for game_id, ended in ends.items():
        Game.objects.filter(pk=game_id).update(finished_at=ended)
        Seat.objects.filter(game_id=game_id).update(finished_at=ended)
    listed = selectors.player_games_page(user=alice, status="finished", limit=10)
    assert [g.pk for g in listed] == [games[1].pk, games[0].pk, games[2].pk]
    assert [g.pk for g in selectors.player_games_page(user=bob, status="finished", limit=2)] \
        == [games[1].pk, games[0].pk]


@pytest.mark.postgres
def test_the_finished_page_is_read_in_order_from_the_index(alice, bob, ai_queue, fixed_seed):
    for _ in range(3):
        game = services.create_game(user=alice, opponent={"username": "bob"})
        services.resign(game_id=game.pk, user=alice)
    query = selectors._player_games(alice.pk, "finished")[:20]
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        # A handful of rows: the planner would rather scan and sort, whatever the index. With
        # every other way priced out, a plan without a sort shows the index can give the
        # page in its order (no sort of all the player's finished games).
        for method in ("seqscan", "bitmapscan", "hashjoin", "mergejoin", "sort"):
            cursor.execute(f"SET LOCAL enable_{method} = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "seat_finished_by_user" in plan, plan
    assert "Sort" not in plan, plan


def test_the_hourly_sweep_mends_seats_without_the_end_time(human_game, alice, bob):
    from games import tasks

    running = services.create_game(user=alice, opponent={"username": "bob"})
    services.resign(game_id=human_game.pk, user=alice)
    # As a game ended by the previous release during a deploy leaves it.
    Seat.objects.filter(game_id=human_game.pk).update(finished_at=None)
    assert tasks.copy_seat_end_times.run() == 2
    finished_at, seats = _end_times(human_game.pk)
    assert seats == [finished_at, finished_at]
    assert _end_times(running.pk) == (None, [None, None])
    assert tasks.copy_seat_end_times.run() == 0
