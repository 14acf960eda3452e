"""Blocking (issue 14): list, block, unblock; no random pairing, game requests, table
invitations or nudges from a blocked player; running games go on; bad input changes nothing."""

from games import services
from games.models import Game
from games.notifications.models import Kind, SentNotification, Status
from social.models import Block, Friendship
from tests.helpers import assert_error
from tests.social.conftest import events_of


def test_block_list_unblock(alice, bob, alice_client):
    response = alice_client.post("/api/v1/players/bob/block")
    assert response.status_code == 201
    assert response.json()["username"] == "bob" and response.json()["name"] == "Bob"
    assert alice_client.post("/api/v1/players/bob/block").status_code == 200  # twice: same
    listed = alice_client.get("/api/v1/me/blocked").json()
    assert [b["username"] for b in listed] == ["bob"]
    assert alice_client.delete("/api/v1/players/bob/block").status_code == 204
    assert alice_client.get("/api/v1/me/blocked").json() == []
    assert_error(alice_client.delete("/api/v1/players/bob/block"), 404, "not_blocked")


def test_bad_input_changes_nothing(alice, alice_client):
    assert_error(alice_client.post("/api/v1/players/alice/block"), 400, "cannot_block_yourself")
    assert_error(alice_client.post("/api/v1/players/nobody/block"), 404, "player_not_found")
    assert not Block.objects.exists()


def test_blocking_ends_a_friendship(alice, bob, alice_client, bob_client):
    alice_client.post("/api/v1/me/friends", {"username": "bob"}, format="json")
    bob_client.post("/api/v1/me/friends/alice/accept")
    alice_client.post("/api/v1/players/bob/block")
    assert not Friendship.objects.exists()


def test_no_random_pairing_either_way(alice, bob, carol, ai_queue):
    Block.objects.create(blocker=alice, blocked=bob)
    waiting = services.create_game(user=alice, opponent={"random": True})
    other = services.create_game(user=bob, opponent={"random": True})
    assert other.pk != waiting.pk and other.status == Game.Status.WAITING
    paired = services.create_game(user=carol, opponent={"random": True})
    assert paired.pk in (waiting.pk, other.pk) and paired.status == Game.Status.ACTIVE


def test_no_game_requests_from_a_blocked_player(alice, bob, bob_client, ai_queue):
    Block.objects.create(blocker=alice, blocked=bob)
    response = bob_client.post("/api/v1/games", {"opponent": {"username": "alice"}},
                               format="json")
    error = assert_error(response, 403, "player_unavailable")
    assert "block" not in error["message"].lower()
    assert not Game.objects.exists()


def test_the_blocker_may_still_start_a_game(alice, bob, alice_client, ai_queue):
    Block.objects.create(blocker=alice, blocked=bob)
    assert alice_client.post("/api/v1/games", {"opponent": {"username": "bob"}},
                             format="json").status_code == 201


def test_running_games_go_on(human_game, alice, bob, alice_client):
    Block.objects.create(blocker=bob, blocked=alice)
    response = alice_client.post(f"/api/v1/games/{human_game.pk}/moves",
                                 {"move": "g7=5 h7=5", "expected_move_number": 0}, format="json")
    assert response.status_code == 201


def test_no_nudges_from_a_blocked_player(db_backend, human_game, alice, bob, alice_client,
                                         django_capture_on_commit_callbacks):
    Block.objects.create(blocker=bob, blocked=alice)
    alice_client.post(f"/api/v1/games/{human_game.pk}/moves",
                      {"move": "g7=5 h7=5", "expected_move_number": 0}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(f"/api/v1/games/{human_game.pk}/nudge")
    assert response.status_code == 202  # the sender cannot tell
    nudge = SentNotification.objects.get(kind=Kind.NUDGE)
    assert nudge.status == Status.DROPPED
    assert events_of(bob, "nudge") == []


def test_no_table_invitations_from_a_blocked_player(alice, bob, alice_client):
    Block.objects.create(blocker=bob, blocked=alice)
    code = alice_client.post("/api/v1/tables", {"target": 100}, format="json").json()["code"]
    response = alice_client.post(f"/api/v1/tables/{code}/invite", {"username": "bob"},
                                 format="json")
    assert response.status_code == 200, response.content
    assert not SentNotification.objects.filter(user=bob).exists()


def test_table_invitations_still_reach_others(alice, carol, alice_client):
    code = alice_client.post("/api/v1/tables", {"target": 100}, format="json").json()["code"]
    alice_client.post(f"/api/v1/tables/{code}/invite", {"username": "carol"}, format="json")
    assert SentNotification.objects.filter(user=carol).exists()
