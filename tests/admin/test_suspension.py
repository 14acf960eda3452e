"""A suspended player's games end at once: nobody waits for a player who cannot move."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import Game
from games.moderation import services as moderation
from games.moderation.models import ModerationAction
from games.notifications import emails
from games.notifications import services as notifications
from games.notifications.models import Kind

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_announced(game_effects):
    """The games whose end was announced after commit, in order."""
    return lambda: [game for name, game, _ in game_effects if name == "game_finished"]


def test_suspension_ends_the_players_active_games(
    moderator, alice, bob, carol, ai_queue, fixed_seed, finished_announced,
    django_capture_on_commit_callbacks, monkeypatch,
):
    monkeypatch.setattr("games.notifications.services._common._enqueue_send", lambda n: None)
    started = game_services.create_game(user=alice, opponent={"username": "bob"})
    game_services.submit_move(
        game_id=started.pk, user=alice, move="g7=5 h7=5", expected_move_number=0
    )  # now bob's turn: bob waits for nothing, alice waits for bob
    untouched = game_services.create_game(user=bob, opponent={"username": "carol"})
    fresh = game_services.create_game(user=carol, opponent={"username": "bob"})
    others = game_services.create_game(user=alice, opponent={"username": "carol"})

    with django_capture_on_commit_callbacks(execute=True):
        action = moderation.suspend_user(moderator=moderator, user_id=bob.pk, reason="abuse")

    started.refresh_from_db()
    untouched.refresh_from_db()
    fresh.refresh_from_db()
    others.refresh_from_db()
    # A move was played: the opponent wins, as if bob had resigned.
    assert started.status == Game.Status.FINISHED
    assert started.result["winner"] == 0 and started.result["termination"] == "awarded"
    # No move yet: nobody won or lost anything.
    assert untouched.status == fresh.status == Game.Status.ABORTED
    assert others.status == Game.Status.ACTIVE  # not bob's
    assert sorted(finished_announced()) == sorted([started.pk, untouched.pk, fresh.pk])
    assert action.details["active_games_awarded"] == [started.pk]
    assert action.details["active_games_aborted"] == sorted([untouched.pk, fresh.pk])
    assert ModerationAction.objects.filter(action="suspend_user", target_user=bob).count() == 1

    # alice gets the usual result email: she won.
    claimed = notifications.notify_finished(game_id=started.pk)
    mine = next(n for n in claimed if n.user_id == alice.pk)
    assert mine.kind == Kind.FINISHED
    assert "You won" in " ".join(emails.content(mine)["paragraphs"])


def test_suspension_ends_a_game_against_the_computer(moderator, alice, computer_to_move):
    moderation.suspend_user(moderator=moderator, user_id=alice.pk)
    computer_to_move.refresh_from_db()
    assert computer_to_move.is_over
