"""The games' events, from the games app's signals: what each player receives, and that no
event ever carries another player's tiles."""

import random

import pytest

from games import services
from games.models import Move, Seat
from live.models import LiveEvent


@pytest.fixture
def db_backend(settings):
    settings.LIVE_BACKEND = "db"


def events_of(user) -> list[tuple[str, dict]]:
    return [(e.type, e.data) for e in LiveEvent.objects.filter(user=user).order_by("pk")]


def test_move_reaches_both_players_with_whose_turn(
    db, db_backend, alice, bob, ai_queue, fixed_seed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(user=alice, opponent={"username": "bob"})
    assert [t for t, _ in events_of(bob)] == ["deadline", "game_started"]
    assert [t for t, _ in events_of(alice)] == ["deadline", "your_turn", "game_started"]
    LiveEvent.objects.all().delete()

    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5",
                             expected_move_number=0)
    (move_type, move), *rest = events_of(bob)
    assert move_type == "move"
    assert move["game"] == game.pk and move["move_number"] == 1 and move["score"] == 20
    assert move["notation"] == Move.objects.get(game=game, number=1).public_notation
    assert (move["turn"], move["your_turn"], move["by_you"]) == (1, True, False)
    assert "own" not in move
    assert [t for t, _ in rest] == ["deadline", "your_turn"]
    (_, mine), *_ = events_of(alice)
    assert mine["own"]["rack"] == Seat.objects.get(game=game, index=0).private["rack"]
    assert mine["your_turn"] is False


def test_resignation_sends_game_finished(
    db, db_backend, human_game, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game_id=human_game.pk, user=alice)
    finished = [d for t, d in events_of(bob) if t == "game_finished"]
    assert finished and finished[0]["status"] == "finished"
    assert finished[0]["result"]["winner"] == 1


def test_nudge_event(db, db_backend, human_game, alice, bob, django_capture_on_commit_callbacks):
    from games.notifications import services as notifications

    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                             expected_move_number=0)
    LiveEvent.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        notifications.nudge(game_id=human_game.pk, user=alice)
    assert events_of(bob) == [("nudge", {"game": human_game.pk, "move_number": 1,
                                         "from_seat": 0})]
    assert events_of(alice) == []


@pytest.mark.parametrize("seed", range(3))
def test_no_event_carries_another_players_tiles(
    db, db_backend, alice, ai_queue, seed, django_capture_on_commit_callbacks
):
    """A whole game against the computer (alice swaps or passes at random, the computer plays
    for real): every event alice gets holds only her own rack, never the computer's."""
    rng = random.Random(seed)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(user=alice, opponent={"ai": "beginner"})
    computer_racks: list[list] = []
    for _ in range(60):
        game.refresh_from_db()
        if game.status != "active":
            break
        seats = {s.index: s for s in Seat.objects.filter(game=game)}
        with django_capture_on_commit_callbacks(execute=True):
            if seats[game.current_seat].user_id is None:
                services.play_ai_turn(game_id=game.pk, expected_move_number=game.move_number)
            else:
                rack = seats[game.current_seat].private["rack"]
                move = "pass" if rng.random() < 0.3 or not rack else (
                    "swap " + " ".join(str(t) for t in rng.sample(rack, 1)))
                try:
                    services.submit_move(game_id=game.pk, user=alice, move=move,
                                         expected_move_number=game.move_number)
                except Exception:
                    services.submit_move(game_id=game.pk, user=alice, move="pass",
                                         expected_move_number=game.move_number)
        computer = Seat.objects.get(game=game, user__isnull=True)
        computer_racks.append(list(computer.private["rack"]))
    events = events_of(alice)
    assert any(t == "move" and not d["by_you"] for t, d in events)  # the computer moved
    for event_type, data in events:
        text = repr(data)
        assert "seed" not in data and "bag" not in data, text
        if "own" in data:
            assert event_type == "move" and data["by_you"], text
        for key, value in data.items():
            if key != "own" and isinstance(value, list) and len(value) >= 3:
                assert value not in computer_racks, f"{event_type}: {text}"
