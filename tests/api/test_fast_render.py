"""The move's answer and the live ``move`` event's facts rendered by the compiled serializers
(config/fast_render.py) are what DRF's serializers render, key for key, for both kinds (and
when a Crazy10s game ends)."""

from __future__ import annotations

import json

import pytest

from config import fast_render
from games import kinds, services
from games.api import outputs
from games.crazy_eights import engine as c8
from games.models import Game, Move

pytestmark = pytest.mark.django_db


def _both(bodies: list):
    def render(body):
        fast = outputs.render_move_played(body)
        drf = outputs._render(outputs.move_played, body)
        bodies.append((fast, drf))
        return fast

    return render


def _same(bodies: list, game: Game | None = None) -> None:
    assert bodies
    if game is not None:  # the live event's facts of each move
        output = kinds.get(game.kind).history_output
        for move in Move.objects.filter(game=game):
            fast = fast_render.render(output, move.public)
            drf = dict(output(move.public).data)
            assert json.dumps(fast) == json.dumps(drf)
    for fast, drf in bodies:
        # The same keys in the same order, the same values (and the same JSON).
        assert list(fast) == list(drf)
        assert json.dumps(fast) == json.dumps(drf)


def test_a_crazy10s_game_renders_the_same(human_game, alice, bob):
    bodies: list = []
    users = [alice, bob]
    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0, render=_both(bodies))
    game = Game.objects.get(pk=human_game.pk)
    while game.status == Game.Status.ACTIVE:  # passes until the game ends
        services.submit_move(game_id=game.pk, user=users[game.current_seat], move="pass",
                             expected_move_number=game.move_number, render=_both(bodies))
        game.refresh_from_db()
    assert any(fast["game"]["status"] == "finished" for fast, _ in bodies)
    assert any("drawn" in fast for fast, _ in bodies)
    _same(bodies, game)


def test_a_crazy_eights_game_renders_the_same(alice, bob, ai_queue):
    game = services.create_game(
        user=alice, kind="crazy_eights", seats=[{"you": True}, {"username": bob.username}]
    )
    bodies: list = []
    users = [alice, bob]
    for _ in range(60):
        if game.status != Game.Status.ACTIVE:
            break
        state = kinds.get(game.kind).load(game.state).engine
        move = c8.format_move(sorted(c8.legal_moves(state), key=c8.format_move)[0])
        services.submit_move(game_id=game.pk, user=users[game.current_seat], move=move,
                             expected_move_number=game.move_number, render=_both(bodies))
        game.refresh_from_db()
    assert len(bodies) >= 10  # the game may end sooner (a random deal)
    _same(bodies, game)


def test_list_entries_render_the_same(human_game, alice, bob, carol, ai_queue):
    """``GET games`` renders its entries compiled: the same as DRF's walk for every kind, a
    waiting game (no opponent), a game over (a result) and a player on vacation."""
    from games import selectors
    from games.correspondence import services as vacations

    services.create_game(
        user=alice, kind="crazy_eights",
        seats=[{"you": True}, {"username": carol.username}, {"computer": "strong"}],
    )
    services.create_game(user=alice, seats=[{"you": True}, {"random": True}])
    over = services.create_game(user=alice, opponent={"computer": "casual"})
    services.resign(game_id=over.pk, user=alice)
    vacations.start(user=bob, days=3)
    entries = [selectors.game_summary(game=g, user=alice)
               for g in selectors.player_games(user=alice)]
    assert {e["kind"] for e in entries} == {"crazy10s", "crazy_eights"}
    assert {e["status"] for e in entries} == {"active", "waiting", "finished"}
    assert any(p["vacation_until"] for e in entries for p in e["players"])
    fast = outputs.render_summaries(entries)
    drf = [outputs._render(outputs.summary, dict(e)) for e in entries]
    assert [list(f) for f in fast] == [list(d) for d in drf]
    assert json.dumps(fast, default=str) == json.dumps(drf, default=str)
