import pytest


@pytest.fixture
def c8_seed(monkeypatch):
    """New games get seed 5: in a four-seat match seat 0 moves first and may play 10H."""
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 5)
    return 5


@pytest.fixture
def solo(alice, ai_queue, c8_seed):
    """alice (seat 0, to move) against three regulars."""
    from games import services

    return services.create_game(
        user=alice, kind="crazy_eights", opponents=["cautious", "aggressive", "strong"]
    )


def run_computers(ai_queue, capture) -> None:
    """Play the queued computer turns (as the worker would) until it is a person's turn;
    ``capture`` is pytest-django's ``django_capture_on_commit_callbacks``."""
    from games import services

    while ai_queue:
        game_id, number = ai_queue.pop(0)
        with capture(execute=True):
            services.play_ai_turn(game_id=game_id, expected_move_number=number)
