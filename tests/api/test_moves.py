"""GET/POST games/{id}/moves: playing, every error code, idempotency and hidden information."""

import json

import pytest

from games.models import Game, Move
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


def moves_url(game) -> str:
    return f"/api/v1/games/{game.pk}/moves"


def play(client, game, move, expected, **extra):
    return client.post(
        moves_url(game), {"move": move, "expected_move_number": expected}, format="json", **extra
    )


def test_play_a_placement(human_game, alice_client):
    response = play(alice_client, human_game, "g7=5 h7=5", 0)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["score"] == 20 and len(body["drawn"]) == 2
    assert body["lines"] == [
        {"direction": "across", "start": "g7", "end": "h7", "values": [5, 5], "score": 20}
    ]
    assert body["game"]["board"][6] == "......55....."
    assert body["game"]["scores"] == {"you": 20, "opponent": 0}
    assert body["game"]["your_turn"] is False and body["game"]["move_number"] == 1


def test_structured_tiles(alice, bob, bob_client, ai_queue, monkeypatch):
    from games import services

    # bob first, rack 0144458
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)
    game = services.create_game(user=alice, opponent={"username": "bob"})
    response = bob_client.post(
        moves_url(game),
        {"tiles": [{"square": "g7", "digit": 4}, {"square": "g8", "digit": 6, "wild": False}],
         "expected_move_number": 0},
        format="json",
    )
    assert_error(response, 400, "not_in_rack")  # bob holds no 6
    response = bob_client.post(
        moves_url(game),
        {"tiles": [{"square": "g7", "digit": 5}, {"square": "g8", "digit": 5}],
         "expected_move_number": 0},
        format="json",
    )
    assert_error(response, 400, "not_in_rack")  # only one 5
    response = bob_client.post(
        moves_url(game),
        {"tiles": [{"square": "g7", "digit": 8}, {"square": "g8", "digit": 1}],
         "expected_move_number": 0},
        format="json",
    )
    assert_error(response, 400, "bad_sum")
    ok = bob_client.post(
        moves_url(game), {"move": "g7=4 g8=1 g9=5", "expected_move_number": 0}, format="json"
    )
    assert ok.status_code == 201, ok.content


@pytest.mark.parametrize(
    ("client_name", "move", "expected", "status", "code"),
    [
        ("carol_client", "pass", 0, 403, "not_a_player"),
        ("bob_client", "pass", 0, 409, "not_your_turn"),
        ("alice_client", "pass", 1, 409, "stale_move_number"),
        ("alice_client", "g7=5", 0, 400, "first_move_too_short"),
        ("alice_client", "g7=5 h8=5", 0, 400, "not_in_line"),
        ("alice_client", "z99=1 z98=9", 0, 400, "off_board"),
        ("alice_client", "swap", 0, 400, "bad_notation"),
    ],
)
def test_errors(request, human_game, client_name, move, expected, status, code):
    client = request.getfixturevalue(client_name)
    assert_error(play(client, human_game, move, expected), status, code)
    assert Move.objects.count() == 0


def test_malformed_bodies_are_400_invalid(human_game, alice_client):
    for body in [
        {},
        {"move": "pass"},
        {"expected_move_number": 0},
        {"move": "pass", "tiles": [], "expected_move_number": 0},
        {"tiles": [], "expected_move_number": 0},
        {"tiles": [{"digit": 3}], "expected_move_number": 0},
        {"move": "pass", "expected_move_number": -1},
    ]:
        assert_error(alice_client.post(moves_url(human_game), body, format="json"), 400, "invalid")


@pytest.mark.parametrize("tile", [{"square": "g7"}, {"square": "g7", "wild": False}])
def test_plain_tile_without_a_digit_is_400_invalid(human_game, alice_client, tile):
    preview = {"tiles": [tile, {"square": "h7", "digit": 5}]}
    for url, body in ((moves_url(human_game), {**preview, "expected_move_number": 0}),
                      (f"/api/v1/games/{human_game.pk}/preview", preview)):
        error = assert_error(alice_client.post(url, body, format="json"), 400, "invalid")
        assert "digit" in json.dumps(error["details"]), error
    assert Move.objects.count() == 0


def test_game_over_and_404(human_game, alice_client, bob_client):
    bob_client.post(f"/api/v1/games/{human_game.pk}/resign")
    assert_error(play(alice_client, human_game, "pass", 1), 409, "game_over")
    assert_error(
        alice_client.post("/api/v1/games/424242/moves", {"move": "pass", "expected_move_number": 0},
                          format="json"),
        404, "not_found",
    )


def test_idempotency_key_plays_once(human_game, alice_client):
    first = play(alice_client, human_game, "g7=5 h7=5", 0, HTTP_IDEMPOTENCY_KEY="retry-1")
    again = play(alice_client, human_game, "g7=5 h7=5", 0, HTTP_IDEMPOTENCY_KEY="retry-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Move.objects.filter(game=human_game).count() == 1
    # without the key the same request is a stale retry
    assert_error(play(alice_client, human_game, "g7=5 h7=5", 0), 409, "stale_move_number")



def test_idempotency_key_with_a_different_body_is_refused(human_game, alice_client):
    first = play(alice_client, human_game, "g7=5 h7=5", 0, HTTP_IDEMPOTENCY_KEY="retry-2")
    assert first.status_code == 201, first.content
    for move, expected in (("pass", 0), ("g7=5 h7=5", 1)):
        response = play(alice_client, human_game, move, expected, HTTP_IDEMPOTENCY_KEY="retry-2")
        assert_error(response, 422, "idempotency_key_mismatch")
    again = play(alice_client, human_game, "g7=5 h7=5", 0, HTTP_IDEMPOTENCY_KEY="retry-2")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Move.objects.filter(game=human_game).count() == 1

def test_history_hides_the_opponents_swap(human_game, alice_client, bob_client):
    play(alice_client, human_game, "swap 0 1", 0)
    play(bob_client, human_game, "pass", 1)
    mine = alice_client.get(moves_url(human_game)).json()
    theirs = bob_client.get(moves_url(human_game)).json()
    assert [m["notation"] for m in mine] == ["swap 0 1", "pass"]
    assert [m["notation"] for m in theirs] == ["swap 2", "pass"]
    assert theirs[0]["player"] == "Alice" and theirs[0]["mine"] is False
    assert theirs[1] | {"created_at": None} == {
        "number": 2, "seat": 1, "mine": True, "player": "Bob", "kind": "pass",
        "notation": "pass", "score": 0, "lines": [], "drawn": 0, "is_timeout": False,
        "created_at": None,
        # not analysed yet (no worker here): tests/services/test_analysis.py fills them in
        "best_score": None, "best_notation": None, "percent_of_best": None,
    }


def _lists(node):
    if isinstance(node, list):
        yield node
        for item in node:
            yield from _lists(item)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _lists(value)


def test_no_response_carries_hidden_information(human_game, alice_client, bob_client):
    """Everything bob is shown during a game: never alice's rack, the bag or the seed."""
    bodies = []
    gid = human_game.pk
    bodies.append(play(alice_client, human_game, "swap 0 1 2", 0).json())  # alice's private swap
    for url in [f"/api/v1/games/{gid}", f"/api/v1/games/{gid}/moves", "/api/v1/games",
                f"/api/v1/games/{gid}/how-to-play"]:
        bodies.append(bob_client.get(url).json())
    bodies.append(bob_client.post(
        f"/api/v1/games/{gid}/preview", {"move": "g7=4 h7=6"}, format="json"
    ).json())
    bob_move = play(bob_client, human_game, "g7=4 h7=6", 1)
    assert bob_move.status_code == 201
    bob_body = bob_move.json()
    game = Game.objects.get(pk=gid)
    alice_rack = [("*" if t == 10 else str(t)) for t in game.state["racks"][0]]
    bag = game.state["bag"]
    for body in [*bodies[1:], bob_body]:
        text = json.dumps(body)
        assert str(game.seed) not in text
        for forbidden in ("seed", "bag", "racks", "state"):
            assert f'"{forbidden}"' not in text
        for found in _lists(body):
            assert found != alice_rack, body
            assert found != bag and found != bag[:20]
        assert "swap 0 1 2" not in text
    assert bob_body["game"]["opponent_rack_size"] == 7
