"""Table events on the live stream: joined, dealt, left, back, taken over, and the end of a
round (every hand is public then) and of the match."""

from datetime import timedelta

import pytest

from games import dispatch, services
from games.models import Game, Move, Seat
from games.tables import services as tables
from live import game_events
from live.models import LiveEvent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def db_backend(settings, monkeypatch, ai_queue):
    settings.LIVE_BACKEND = "db"
    settings.TABLES_TURN_SECONDS = 30
    monkeypatch.setattr(dispatch, "enqueue_turn_deadline", lambda g, n, d: None)


def types_of(user) -> list[str]:
    return [e.type for e in LiveEvent.objects.filter(user=user).order_by("pk")]


def last_of(user, type_: str) -> dict:
    return LiveEvent.objects.filter(user=user, type=type_).order_by("-pk").first().data


def test_joining_dealing_leaving_and_coming_back_reach_everyone_at_the_table(
    alice, bob, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
    with capture(execute=True):
        tables.join(user=bob, code=table.code)
    for user in (alice, bob):
        assert "table_joined" in types_of(user)
    joined = last_of(alice, "table_joined")
    assert joined == {"table": table.code, "game": None, "event": "joined", "player": "Bob",
                      "status": "open"}

    with capture(execute=True):
        table = tables.deal(user=alice, code=table.code)
    assert last_of(bob, "table_dealt")["game"] == table.game_id

    with capture(execute=True):
        tables.leave(user=bob, code=table.code)
    assert last_of(alice, "table_left")["player"] == "Bob"
    assert "table_left" in types_of(bob)  # the one who left hears it too

    with capture(execute=True):
        tables.back(user=bob, code=table.code)
    assert last_of(alice, "table_back")["player"] == "Bob"


def test_a_missed_deadline_announces_the_takeover(
    alice, bob, ai_queue, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
    tables.join(user=bob, code=table.code)
    with capture(execute=True):
        table = tables.deal(user=alice, code=table.code)
    game = Game.objects.get(pk=table.game_id)
    while ai_queue:  # the computers' turns until a person is to move
        gid, n = ai_queue.pop(0)
        with capture(execute=True):
            services.play_ai_turn(game_id=gid, expected_move_number=n)
    game.refresh_from_db()
    person = Seat.objects.get(game=game, index=game.current_seat)
    assert person.user_id is not None
    LiveEvent.objects.all().delete()
    with capture(execute=True):
        services.play_timeout(game_id=game.pk, expected_move_number=game.move_number,
                              now=game.turn_deadline + timedelta(milliseconds=1))
    for user in (alice, bob):
        event = last_of(user, "taken_over")
        assert event["seat"] == person.index
        assert event["yours"] == (user.pk == person.user_id)


def test_round_and_match_over_carry_the_revealed_hands(alice, bob, ai_queue):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    round_over = {"kind": "round_over", "round": 1, "reason": "out", "winner": 0,
                  "hands": [[], ["7H", "KS"]], "points": [0, 17], "scores": [0, 17]}
    match_over = {"kind": "match_over", "termination": "target_reached", "winners": [0],
                  "ranking": [0, 1], "scores": [0, 17]}
    public = {"seat": 0, "move": "7C", "events": [round_over, match_over]}
    Move.objects.create(game=game, number=1, seat=0, kind="play", notation="7C",
                        public_notation="7C", public=public)
    snapshot = game_events.Snapshot.of(game, list(game.seats.order_by("index")))
    game_events.move_played(snapshot, game_events.MoveFacts(1, 0, "play", "7C", 0, public))
    for user in (alice, bob):
        assert types_of(user)[-3:] == ["move", "round_over", "match_over"]
        shown = last_of(user, "round_over")
        assert shown["hands"] == [[], ["7H", "KS"]] and shown["game"] == game.pk
        assert last_of(user, "match_over")["winners"] == [0]
