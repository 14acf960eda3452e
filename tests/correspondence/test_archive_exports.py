"""The archive (filters, pages, a fixed number of queries per page however many games) and the
exports (text in the rules' notation, JSON, the whole history as JSON Lines); a running game's
export never shows a rack, a hand or a swap's tiles."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Game, Move, Seat
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _creator_moves_first(fixed_seed):
    """Seat 0 moves first; its rack is 0123555, the opponent's 1234668."""


def _finished(alice, opponent, *, loser, when=None) -> Game:
    game = services.create_game(user=alice, opponent={"username": opponent.username})
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    services.resign(game_id=game.pk, user=loser)
    if when is not None:
        Game.objects.filter(pk=game.pk).update(finished_at=when)
        Seat.objects.filter(game_id=game.pk).update(finished_at=when)  # as the ending wrote
    return Game.objects.get(pk=game.pk)


def test_the_archive_filters_by_opponent_kind_result_and_month(
    alice, bob, carol, alice_client, ai_queue
):
    won = _finished(alice, bob, loser=bob, when=datetime(2026, 3, 5, tzinfo=UTC))
    lost = _finished(alice, carol, loser=alice, when=datetime(2026, 4, 9, tzinfo=UTC))
    services.create_game(user=alice, opponent={"username": "bob"})  # running: not listed

    def ids(query: str) -> list[int]:
        response = alice_client.get(f"/api/v1/me/archive{query}")
        assert response.status_code == 200, response.content
        return [g["id"] for g in response.json()["results"]]

    assert ids("") == [lost.pk, won.pk]
    assert ids("?opponent=BOB") == [won.pk]
    assert ids("?result=loss") == [lost.pk]
    assert ids("?month=2026-03") == [won.pk]
    assert ids("?kind=crazy10s&result=win&opponent=bob&month=2026-03") == [won.pk]
    assert ids("?kind=crazy_eights") == []
    assert ids("?opponent=alice") == []  # yourself is nobody's opponent
    assert_error(alice_client.get("/api/v1/me/archive?month=2026-13"), 400, "invalid")
    assert_error(alice_client.get("/api/v1/me/archive?result=maybe"), 400, "invalid")
    assert_error(alice_client.get("/api/v1/me/archive?page=9"), 404, "not_found")


def _many_finished(alice, bob, count: int) -> None:
    """``count`` finished games alice vs bob, written in bulk (no play: the list reads none)."""
    now = timezone.now()
    games = Game.objects.bulk_create([
        Game(kind="crazy10s", status=Game.Status.FINISHED, seed=i, state={}, move_number=0,
             started_at=now, finished_at=now - timedelta(minutes=i),
             result={"termination": "resigned", "winner": 0, "winners": [0],
                     "scores": [10, 0], "adjustments": [0, 0]})
        for i in range(count)
    ])
    Seat.objects.bulk_create([
        Seat(game=g, index=i, user=u, result="win" if i == 0 else "loss",
             finished_at=g.finished_at)
        for g in games for i, u in enumerate((alice, bob))
    ])


def test_an_archive_page_costs_the_same_queries_with_thousands_of_games(
    alice, bob, alice_client
):
    _many_finished(alice, bob, 25)
    with CaptureQueriesContext(connection) as few:
        first = alice_client.get("/api/v1/me/archive?opponent=bob&result=win")
    assert first.json()["count"] == 25
    _many_finished(alice, bob, 2500)
    with CaptureQueriesContext(connection) as many:
        second = alice_client.get("/api/v1/me/archive?opponent=bob&result=win&page=50")
    assert second.json()["count"] == 2525 and len(second.json()["results"]) == 20
    assert len(many.captured_queries) == len(few.captured_queries) <= 6


def test_a_finished_games_export_is_its_full_record(alice, bob, alice_client, bob_client,
                                                     ai_queue):
    game = _finished(alice, bob, loser=bob)
    text = bob_client.get(f"/api/v1/games/{game.pk}/export.txt")
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    lines = text.content.decode().splitlines()
    assert lines[0] == f'[Game "Crazy10s #{game.pk}"]'
    assert '[Seat0 "Alice" @alice]' in lines and '[Seat1 "Bob" @bob]' in lines
    assert any(line.startswith('[Result "resignation; winners 0;') for line in lines)
    assert "1. Alice [0123555] g7=5 h7=5 +20 (20 : 0)" in lines
    assert "2. Bob [1234668] resign +0 (20 : 0)" in lines
    record = alice_client.get(f"/api/v1/games/{game.pk}/export").json()
    assert record["full"] is True and record["status"] == "finished"
    assert [m["pieces_before"] for m in record["moves"]] == ["0123555", "1234668"]
    assert [m["scores_after"] for m in record["moves"]] == [[20, 0], [20, 0]]


def test_a_running_games_export_shows_nothing_hidden(alice, bob, alice_client, bob_client,
                                                      ai_queue):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    services.submit_move(game_id=game.pk, user=alice, move="swap 0 1", expected_move_number=0)
    assert Move.objects.get(game=game).notation == "swap 0 1"
    for client in (alice_client, bob_client):
        record = client.get(f"/api/v1/games/{game.pk}/export").json()
        assert record["full"] is False
        (move,) = record["moves"]
        assert move["notation"] == Move.objects.get(game=game).public_notation != "swap 0 1"
        assert "pieces_before" not in move and move["best_notation"] is None
        body = json.dumps(record)
        for hidden in ("seed", "state", "rack", "private", "bag", "0123555", "1234668"):
            assert hidden not in body
        text = client.get(f"/api/v1/games/{game.pk}/export.txt").content.decode()
        assert "[" not in text.split("\n\n", 1)[1] and "swap 0 1" not in text
        assert "1234668" not in text and "0123555" not in text


def test_a_running_crazy_eights_export_never_shows_a_hand(alice, alice_client, ai_queue,
                                                          monkeypatch):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 5)
    game = services.create_game(user=alice, kind="crazy_eights", opponents=["cautious"])
    record = alice_client.get(f"/api/v1/games/{game.pk}/export").json()
    text = alice_client.get(f"/api/v1/games/{game.pk}/export.txt").content.decode()
    hands = [card for seat in Seat.objects.filter(game=game)
             for card in seat.private.get("hand", [])]
    assert hands
    for card in hands:
        assert f" {card} " not in f" {text} " and card not in json.dumps(record)


def test_only_the_players_export_a_game(alice, bob, carol_client, ai_queue):
    game = _finished(alice, bob, loser=bob)
    assert_error(carol_client.get(f"/api/v1/games/{game.pk}/export"), 403, "not_a_player")
    assert carol_client.get(f"/api/v1/games/{game.pk}/export.txt").status_code == 403
    assert carol_client.get("/api/v1/games/999999/export").status_code == 404


def test_the_whole_history_as_json_lines(alice, bob, carol, alice_client, ai_queue):
    games = [_finished(alice, bob, loser=bob), _finished(alice, carol, loser=alice)]
    services.create_game(user=alice, opponent={"username": "bob"})  # running: left out
    response = alice_client.get("/api/v1/me/archive/export")
    assert response.status_code == 200 and response["Content-Type"] == "application/jsonl"
    lines = b"".join(response.streaming_content).decode().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["id"] for r in records] == [g.pk for g in reversed(games)]
    assert all(r["full"] and r["moves"][0]["pieces_before"] == "0123555" for r in records)
