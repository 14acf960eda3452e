import pytest

from games import services as game_services
from tests.notifications.conftest_push import (  # noqa: F401  (fixtures)
    dns,
    push_double,
    queued_pushes,
    subscribe_device,
)


@pytest.fixture
def queued_sends(monkeypatch):
    """Record the notification ids queued for sending (instead of publishing a task)."""
    sent: list[int] = []
    monkeypatch.setattr("games.notifications.services._common._enqueue_send", sent.append)
    return sent


@pytest.fixture
def play():
    """``play(game, user, move)`` plays ``move`` at the game's current move number."""

    def run(game, user, move="pass"):
        game.refresh_from_db()
        game_services.submit_move(
            game_id=game.pk, user=user, move=move, expected_move_number=game.move_number
        )
        game.refresh_from_db()
        return game

    return run


@pytest.fixture
def make_game(alice, ai_queue, fixed_seed):
    """``make_game(opponent_user)`` -> active game alice (seat 0, moves first) vs that user."""

    def create(opponent, **options):
        return game_services.create_game(
            user=alice, opponent={"username": opponent.username}, **options
        )

    return create
