"""Migration 0013 (issue 28): the seats of games that ended before it get their game's end time,
the seats of running games none, and the finished list orders them by it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import kinds, selectors
from games.models import Seat
from tests.migrations.helpers import apps_at, latest, migrate

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BEFORE = [("games", "0012_crazy_eights_keep_records_still_read")]
SEED = 20240602


def _old_game(apps, users, *, finished_at) -> int:
    OldGame, OldSeat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    kind = kinds.get("crazy10s")
    options = kind.options(layout="classic")
    over = finished_at is not None
    game = OldGame.objects.create(
        kind="crazy10s", status="finished" if over else "active", options=options, seed=SEED,
        state=kind.dump(kind.new_state(seed=SEED, options=options)), turn_hours=72,
        seat_count=2, finished_at=finished_at, current_seat=None if over else 0,
        result={"termination": "resigned", "winner": 1, "winners": [1], "scores": [0, 0],
                "adjustments": [0, 0]} if over else None,
    )
    for index, user in enumerate(users):
        OldSeat.objects.create(game=game, index=index, user_id=user.pk,
                               result=("loss", "win")[index] if over else None)
    return game.pk


def test_ended_games_give_their_seats_their_end_time(user_factory):
    alice, bob = user_factory("alice"), user_factory("bob")
    migrate(BEFORE)
    try:
        old = apps_at(BEFORE)
        now = timezone.now()
        earlier = _old_game(old, [alice, bob], finished_at=now - timedelta(days=2))
        later = _old_game(old, [alice, bob], finished_at=now - timedelta(days=1))
        running = _old_game(old, [alice, bob], finished_at=None)
    finally:
        migrate(latest())
    by_game = {
        game_id: set(Seat.objects.filter(game_id=game_id).values_list("finished_at", flat=True))
        for game_id in (earlier, later, running)
    }
    assert by_game == {earlier: {now - timedelta(days=2)}, later: {now - timedelta(days=1)},
                       running: {None}}
    listed = selectors.player_games_page(user=bob, status="finished", limit=10)
    assert [game.pk for game in listed] == [later, earlier]
