"""The analysis events (issue 16): ``move_analysed`` to the mover only, ``analysis_ready`` to
every player once a game over is analysed; a computer's analysed move goes to nobody."""

import pytest

from games import services
from games.models import Move
from live.models import LiveEvent


@pytest.fixture
def db_backend(settings):
    settings.LIVE_BACKEND = "db"


def events_of(user, type_: str) -> list[dict]:
    return [e.data for e in LiveEvent.objects.filter(user=user, type=type_).order_by("pk")]


def test_move_analysed_goes_to_the_mover_only(
    db, db_backend, human_game, alice, bob, django_capture_on_commit_callbacks
):
    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0)
    with django_capture_on_commit_callbacks(execute=True):
        services.analyse_moves(game_id=human_game.pk)
    move = Move.objects.get(game=human_game, number=1)
    assert events_of(alice, "move_analysed") == [{
        "game": human_game.pk, "move_number": 1, "seat": 0, "kind": "placement",
        "notation": "g7=5 h7=5", "score": 20, "best_score": move.best_score,
        "best_notation": move.best_notation,
        "percent_of_best": round(100 * 20 / move.best_score, 1),
    }]
    assert not LiveEvent.objects.filter(user=bob).exists()  # bob never learns alice's best
    # A second run (a duplicate message) sends nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        services.analyse_moves(game_id=human_game.pk)
    assert len(events_of(alice, "move_analysed")) == 1


def test_analysis_ready_reaches_both_players_of_a_game_over(
    db, db_backend, human_game, alice, bob, django_capture_on_commit_callbacks
):
    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0)
    services.resign(game_id=human_game.pk, user=bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.analyse_moves(game_id=human_game.pk, up_to=1)  # a move's task: not the game's
    assert events_of(alice, "analysis_ready") == []
    with django_capture_on_commit_callbacks(execute=True):
        services.analyse_moves(game_id=human_game.pk)
    for user in (alice, bob):
        assert events_of(user, "analysis_ready") == [{"game": human_game.pk}]


def test_a_computers_analysed_move_goes_to_nobody(
    db, db_backend, alice, ai_queue, fixed_seed, django_capture_on_commit_callbacks
):
    game = services.create_game(user=alice, opponent={"ai": "beginner"})
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    services.play_ai_turn(game_id=game.pk, expected_move_number=1)
    services.resign(game_id=game.pk, user=alice)
    LiveEvent.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        services.analyse_moves(game_id=game.pk)
    assert Move.objects.get(game=game, number=2).best_score is not None
    assert [e["move_number"] for e in events_of(alice, "move_analysed")] == [1]
    assert events_of(alice, "analysis_ready") == [{"game": game.pk}]
