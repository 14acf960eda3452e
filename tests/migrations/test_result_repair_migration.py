"""Migrations 0009/0010 (issue 30): results stored before the check that do not fit their game's
seats are repaired — a request resigned while it waited becomes an aborted game with a score
and an adjustment per seat, a finished game keeps its ending with its lists rebuilt — results
that fit are left alone, and from then on the database refuses a misfit."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import kinds
from games.models import Game, Seat
from games.moderation.verification import verify_game
from tests.migrations.helpers import apps_at, latest, migrate

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BEFORE = [("games", "0008_game_rated")]
SEED = 20240602


def _old_game(apps, seats, *, status, result, **fields) -> int:
    OldGame, OldSeat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    kind = kinds.get("crazy10s")
    options = kind.options(layout="classic")
    now = timezone.now()
    game = OldGame.objects.create(
        kind="crazy10s", status=status, options=options, layout="classic", seed=SEED,
        state=kind.dump(kind.new_state(seed=SEED, options=options)), turn_hours=72,
        seat_count=2, result=result, finished_at=now if result else None, **fields,
    )
    for index, (user, score, seat_result) in enumerate(seats):
        OldSeat.objects.create(game=game, index=index, user_id=user.pk, score=score,
                               result=seat_result)
    return game.pk


def test_misfit_results_are_repaired_and_refused_afterwards(user_factory, make_client):
    alice, bob = user_factory("alice"), user_factory("bob")
    migrate(BEFORE)
    try:
        old = apps_at(BEFORE)
        # Issue 30: a random-opponent request resigned while waiting.
        resigned_waiting = _old_game(
            old, [(alice, 0, "none")], status="aborted",
            result={"termination": "aborted", "winner": None, "winners": [], "scores": [0],
                    "adjustments": [0]},
        )
        # A finished game whose lists are short (written by hand, say).
        short_lists = _old_game(
            old, [(alice, 0, "loss"), (bob, 0, "win")], status="finished",
            started_at=timezone.now(),
            result={"termination": "resignation", "winner": 1, "winners": [1], "scores": [0]},
        )
        fine = _old_game(
            old, [(alice, 0, "none"), (bob, 0, "none")], status="aborted",
            started_at=timezone.now(),
            result={"termination": "aborted", "winner": None, "winners": [],
                    "scores": [0, 0], "adjustments": [0, 0]},
        )
        fine_before = old.get_model("games", "Game").objects.get(pk=fine).result
        waiting = _old_game(old, [(bob, 0, None)], status="waiting", result=None)
    finally:
        migrate(latest())

    repaired = Game.objects.get(pk=resigned_waiting)
    assert repaired.status == "aborted"
    assert repaired.result == {"termination": "aborted", "winner": None, "winners": [],
                               "scores": [0, 0], "adjustments": [0, 0]}
    assert list(Seat.objects.filter(game=repaired).values_list("result", flat=True)) == ["none"]
    kept = Game.objects.get(pk=short_lists)
    assert kept.status == "finished"
    assert kept.result == {"termination": "resignation", "winner": 1, "winners": [1],
                           "scores": [0, 0], "adjustments": [0, 0]}
    assert Game.objects.get(pk=fine).result == fine_before
    assert Game.objects.get(pk=waiting).result is None
    assert Game.objects.get(pk=waiting).status == "waiting"

    # Every read of the players' games answers again.
    for user in (alice, bob):
        client = make_client(user)
        assert client.get("/api/v1/games?status=finished").status_code == 200
        for game_id in (resigned_waiting, short_lists):
            if Seat.objects.filter(game_id=game_id, user=user).exists():
                assert client.get(f"/api/v1/games/{game_id}").status_code == 200
    # verify_games finds nothing wrong with the shape of any of them (these made-up games
    # have no moves to replay).
    for game in Game.objects.prefetch_related("seats", "moves"):
        assert not [p for p in verify_game(game) if p.startswith(("result.", "seats "))]

    # From now on the database refuses a result that does not fit.
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=fine).update(result={"termination": "aborted", "scores": [0]})
