"""Migration 0012 (issue 28): a Crazy Eights game stored with its whole match's records gets
them cut as a move now keeps them, so ``verify_games`` finds its stored state again; games
whose records are already what a move keeps are left as they are."""

from __future__ import annotations

import importlib
import random

import pytest
from django.apps import apps

from games import kinds, services
from games.crazy_eights import engine as c8
from games.crazy_eights import kind as c8_kind
from games.models import Game, Seat
from games.moderation.verification import verify_game

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0012_crazy_eights_keep_records_still_read")


def _play_out(game: Game, users: dict[int, object], moves: int) -> Game:
    kind = kinds.get("crazy_eights")
    rng = random.Random(3)
    for _ in range(moves):
        game.refresh_from_db()
        if game.is_over:
            break
        state = kind.load(game.state).engine
        move = rng.choice(sorted(c8.legal_moves(state), key=c8.format_move))
        services.submit_move(game_id=game.pk, user=users[state.turn],
                             move=c8.format_move(move), expected_move_number=game.move_number)
    game.refresh_from_db()
    return game


@pytest.fixture
def seeded(monkeypatch):
    """Seed 5: the match below reaches a later round within 100 moves, and goes on."""
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 5)


def test_a_game_stored_with_the_whole_match_is_cut_and_verifies(
    alice, bob, ai_queue, monkeypatch, seeded
):
    game = services.create_game(
        user=alice, kind="crazy_eights", seats=[{"you": True}, {"username": bob.username}]
    )
    users = {s.index: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    with monkeypatch.context() as before:  # the code before the change kept every record
        before.setattr(c8_kind, "_still_read", lambda history, seats: history)
        game = _play_out(game, users, 100)
    full = game.state["history"]
    assert len(full) == game.move_number + 1  # the deal's record and one per move
    assert len(c8_kind._still_read(tuple(full), 2)) < len(full)  # a later round is under way
    assert verify_game(game)  # the replay keeps fewer records than were stored

    migration.cut_histories(apps, None)

    game.refresh_from_db()
    assert len(game.state["history"]) < len(full)
    assert game.state["history"] == full[-len(game.state["history"]):]
    assert verify_game(game) == []
    # The next moves go on from the cut records as from the whole ones.
    assert not game.is_over  # seed 5: the match is still on after 100 moves
    game = _play_out(game, users, 5)
    assert verify_game(game) == []


def test_records_already_cut_are_left_alone(alice, bob, ai_queue, seeded):
    game = services.create_game(
        user=alice, kind="crazy_eights", seats=[{"you": True}, {"username": bob.username}]
    )
    users = {s.index: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    game = _play_out(game, users, 60)
    stored = game.state
    assert len(stored["history"]) < game.move_number + 1  # the moves cut it already
    migration.cut_histories(apps, None)
    game.refresh_from_db()
    assert game.state == stored
    assert verify_game(game) == []
