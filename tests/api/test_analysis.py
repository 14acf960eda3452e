"""GET games/{id}/analysis and the best move in GET games/{id}/moves (issue 16): 409 while the
game runs, each move's score / best / notation once it is over, and never an opponent's best
move before that."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games import dispatch, services
from games.models import Game, Move
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysis_queue(monkeypatch):
    queued: list[tuple[int, int | None]] = []
    monkeypatch.setattr(dispatch, "enqueue_analysis", lambda g, n: queued.append((g, n)) or True)
    return queued


def url(game) -> str:
    return f"/api/v1/games/{game.pk}/analysis"


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("number").values_list(
        "number", "best_score", "best_notation"
    ))
    return (game.status, game.move_number, game.state, moves)


def two_moves(game, alice, bob) -> None:
    """alice opens (5+5 for 20, not her best), bob passes; both analysed by the worker."""
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    services.submit_move(game_id=game.pk, user=bob, move="pass", expected_move_number=1)
    services.analyse_moves(game_id=game.pk)


def test_409_while_the_game_runs_and_nothing_changes(
    human_game, alice, bob, alice_client, bob_client, analysis_queue
):
    two_moves(human_game, alice, bob)
    before = snapshot(human_game)
    for client in (alice_client, bob_client):
        error = assert_error(client.get(url(human_game)), 409, "game_not_over")
        assert "over" in error["message"]
    assert snapshot(human_game) == before
    assert analysis_queue == []


def test_the_analysis_of_a_game_over(human_game, alice, bob, bob_client, analysis_queue):
    two_moves(human_game, alice, bob)
    services.resign(game_id=human_game.pk, user=alice)
    response = bob_client.get(url(human_game))
    assert response.status_code == 200, response.content
    body = response.json()
    stored = {m.number: m for m in Move.objects.filter(game=human_game)}
    assert body["game"] == human_game.pk and body["complete"] is True
    assert [m["number"] for m in body["moves"]] == [1, 2, 3]
    opening, passed, resigned = body["moves"]
    assert opening == {
        "number": 1, "seat": 0, "mine": False, "player": "Alice", "kind": "placement",
        "notation": "g7=5 h7=5", "score": 20, "best_score": stored[1].best_score,
        "best_notation": stored[1].best_notation,
        "percent_of_best": round(100 * 20 / stored[1].best_score, 1),
    }
    assert stored[1].best_score > 20
    assert passed["mine"] is True and passed["best_score"] == stored[2].best_score
    assert passed["percent_of_best"] == (0.0 if stored[2].best_score else 100.0)
    assert resigned["kind"] == "resign" and resigned["best_score"] is None
    assert body["seats"] == [
        {"seat": 0, "is_you": False, "moves_analysed": 1,
         "average_percent_of_best": opening["percent_of_best"]},
        {"seat": 1, "is_you": True, "moves_analysed": 1,
         "average_percent_of_best": passed["percent_of_best"]},
    ]
    assert analysis_queue == []  # a complete analysis queues nothing


def test_an_incomplete_analysis_is_queued_once_and_answered_meanwhile(
    human_game, alice, bob, alice_client, analysis_queue
):
    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0)
    services.resign(game_id=human_game.pk, user=bob)  # no commit here: no message was sent
    assert analysis_queue == []
    body = alice_client.get(url(human_game)).json()
    assert body["complete"] is False and body["moves"][0]["best_score"] is None
    assert analysis_queue == [(human_game.pk, None)]
    alice_client.get(url(human_game))
    assert analysis_queue == [(human_game.pk, None)]  # within GAMES_ANALYSIS_STALE_SECONDS
    services.analyse_moves(game_id=human_game.pk)
    cache.clear()
    body = alice_client.get(url(human_game)).json()
    assert body["complete"] is True and body["moves"][0]["best_score"] is not None
    assert analysis_queue == [(human_game.pk, None)]


def test_an_aborted_game_shows_only_your_own_best_moves(
    human_game, alice, bob, alice_client, bob_client
):
    two_moves(human_game, alice, bob)
    services.abort_game(game_id=human_game.pk)
    mine = alice_client.get(url(human_game)).json()["moves"]
    theirs = bob_client.get(url(human_game)).json()["moves"]
    assert mine[0]["best_score"] is not None and mine[1]["best_score"] is None
    assert theirs[0]["best_score"] is None and theirs[1]["best_score"] is not None


def test_history_shows_only_your_own_best_moves_while_the_game_runs(
    human_game, alice, bob, alice_client, bob_client
):
    two_moves(human_game, alice, bob)
    best = Move.objects.get(game=human_game, number=1)
    mine = alice_client.get(f"/api/v1/games/{human_game.pk}/moves").json()
    theirs = bob_client.get(f"/api/v1/games/{human_game.pk}/moves").json()
    assert mine[0]["best_score"] == best.best_score
    assert mine[0]["best_notation"] == best.best_notation
    assert mine[0]["percent_of_best"] == round(100 * 20 / best.best_score, 1)
    assert (theirs[0]["best_score"], theirs[0]["best_notation"]) == (None, None)
    assert theirs[0]["percent_of_best"] is None
    assert best.best_notation not in json_text(theirs)
    assert mine[1]["best_score"] is None  # bob's pass: bob's rack


def json_text(data) -> str:
    import json

    return json.dumps(data)


def test_errors(human_game, carol_client, alice, alice_client):
    assert_error(carol_client.get(url(human_game)), 403, "not_a_player")
    assert_error(alice_client.get("/api/v1/games/999999999/analysis"), 404, "not_found")
    eights = services.create_game(user=alice, kind="crazy_eights", opponents=["cautious"])
    assert_error(alice_client.get(url(eights)), 400, "no_analysis")
