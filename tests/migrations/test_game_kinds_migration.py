"""Migration 0003 (kind-neutral games) keeps every game and move: games written in the old
schema (Seat.rack, Move.lines/drawn) read, after migrating, exactly like the same games played
by today's code, through the v1 API."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from games import kinds, services
from games.models import Game, Move, Seat
from tests.migrations.helpers import apps_at, latest, migrate

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BEFORE = [("games", "0002_idempotency_request_fingerprint")]
SEED = 20240602  # seat 0 moves first; racks 0123555 and 1234668
# (seat, notation): an active game and one that ends by resignation.
ACTIVE_MOVES = [(0, "g7=5 h7=5"), (1, "swap 1 2")]
FINISHED_MOVES = [(0, "g7=5 h7=5"), (1, "pass"), (1, "resign")]
VOLATILE = {"id", "created_at", "started_at", "finished_at", "deadline"}


def _old_game(apps, alice, bob, moves) -> int:
    """A game as the old schema stored it, played through the engine."""
    OldGame, OldSeat, OldMove = (apps.get_model("games", n) for n in ("Game", "Seat", "Move"))
    kind = kinds.get("crazy10s")
    options = kind.options(layout="classic")
    state = kind.new_state(seed=SEED, options=options)
    now = timezone.now()
    game = OldGame.objects.create(
        kind="crazy10s", status="active", options=options, layout="classic", seed=SEED,
        state=kind.dump(state), turn_hours=72, started_at=now, current_seat=0,
        turn_started_at=now, turn_deadline=now,
    )
    for number, (seat, notation) in enumerate(moves, start=1):
        move = kind.resign(seat) if notation == "resign" else kind.parse_notation(notation)
        played = kind.play(state, move, seat=seat)
        state, record = played.state, played.record
        OldMove.objects.create(
            game=game, number=number, seat=record.seat, kind=record.kind,
            notation=record.notation, public_notation=record.public_notation,
            score=record.score, lines=record.public["lines"], drawn=record.public["drawn"],
            is_timeout=record.is_timeout,
        )
    summary = kind.summary(state)
    for index, user in enumerate((alice, bob)):
        OldSeat.objects.create(
            game=game, index=index, user_id=user.pk, score=summary.scores[index],
            rack=summary.private[index]["rack"],
        )
    game.state, game.move_number = kind.dump(state), summary.move_number
    if summary.outcome is not None:
        result = summary.outcome.to_json()
        del result["winners"]  # the old schema's result had no list of winners
        game.status, game.result, game.finished_at = "finished", result, now
        game.current_seat = game.turn_started_at = game.turn_deadline = None
    else:
        game.current_seat = summary.to_move
    game.save()
    return game.pk


def _new_game(alice, bob, moves, monkeypatch) -> int:
    """The same game played by today's services."""
    monkeypatch.setattr("games.services.creation._new_seed", lambda: SEED)
    monkeypatch.setattr("games.dispatch.enqueue_ai_turn", lambda *a: True)
    # Games from before ratings existed are casual (migration games 0007 adds rated=False).
    game = services.create_game(user=alice, opponent={"username": bob.username}, rated=False)
    users = {0: alice, 1: bob}
    for number, (seat, notation) in enumerate(moves):
        if notation == "resign":
            services.resign(game_id=game.pk, user=users[seat])
        else:
            services.submit_move(game_id=game.pk, user=users[seat], move=notation,
                                 expected_move_number=number)
    return game.pk


def _v1(client, game_id: int) -> dict:
    view = client.get(f"/api/v1/games/{game_id}").json()
    history = client.get(f"/api/v1/games/{game_id}/moves").json()
    for entry in history:
        entry.pop("created_at")
    return {"view": {k: v for k, v in view.items() if k not in VOLATILE}, "history": history}


def test_old_games_and_moves_survive_and_read_like_new_ones(user_factory, make_client, monkeypatch):
    alice, bob = user_factory("alice"), user_factory("bob")
    migrate(BEFORE)
    try:
        old_apps = apps_at(BEFORE)
        active = _old_game(old_apps, alice, bob, ACTIVE_MOVES)
        finished = _old_game(old_apps, alice, bob, FINISHED_MOVES)
    finally:
        migrate(latest())

    # Every row is there, moved into the kind-neutral fields.
    assert Game.objects.count() == 2 and Move.objects.count() == 5
    swap = Move.objects.get(game_id=active, number=2)
    assert (swap.kind, swap.notation, swap.public_notation) == ("swap", "swap 1 2", "swap 2")
    assert swap.public == {"lines": [], "drawn": 2}
    opening = Move.objects.get(game_id=finished, number=1)
    assert opening.public["drawn"] == 2 and opening.public["lines"][0]["score"] == 20
    assert all(len(s.private["rack"]) == 7 for s in Seat.objects.filter(game_id=active))
    assert [s.result for s in Seat.objects.filter(game_id=active)] == [None, None]
    assert [s.result for s in Seat.objects.filter(game_id=finished)] == ["win", "loss"]
    ended = Game.objects.get(pk=finished)
    assert ended.result["winner"] == 0 and ended.result["winners"] == [0]
    assert ended.seat_count == 2

    # The v1 API reads them exactly like the same games played by today's code.
    twins = {
        active: _new_game(alice, bob, ACTIVE_MOVES, monkeypatch),
        finished: _new_game(alice, bob, FINISHED_MOVES, monkeypatch),
    }
    for user in (alice, bob):
        client = make_client(user)
        for old, new in twins.items():
            assert _v1(client, old) == _v1(client, new)
    assert _v1(make_client(alice), finished)["view"]["result"]["outcome"] == "win"
    assert _v1(make_client(bob), active)["view"]["rack"] != []

    # verify_games finds the migrated games consistent with a replay of their moves.
    from games.moderation.verification import verify_game

    for game_id in twins:
        game = Game.objects.prefetch_related("seats", "moves").get(pk=game_id)
        assert verify_game(game) == []
