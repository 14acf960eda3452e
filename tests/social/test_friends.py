"""Friends: request by username, accept, list (online, whose turn), play again, remove; a
request from a blocked player is never delivered; bad input changes nothing."""

from django.utils import timezone

from games import services
from games.models import Game, Seat
from social.models import Block, Friendship
from tests.helpers import assert_error
from tests.social.conftest import events_of

URL = "/api/v1/me/friends"


def _befriend(a_client, b_client, b_name: str, a_name: str) -> None:
    assert a_client.post(URL, {"username": b_name}, format="json").status_code == 201
    assert b_client.post(f"{URL}/{a_name}/accept").status_code == 200


def test_request_accept_list(db_backend, alice, bob, alice_client, bob_client,
                             django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(URL, {"username": "bob"}, format="json")
    assert response.status_code == 201 and response.json() == {"status": "requested"}
    assert [e["username"] for e in events_of(bob, "friend_request")] == ["alice"]
    assert alice_client.post(URL, {"username": "bob"}, format="json").status_code == 200
    listed = bob_client.get(URL).json()
    assert [p["username"] for p in listed["incoming"]] == ["alice"]
    assert alice_client.get(URL).json()["outgoing"][0]["username"] == "bob"
    with django_capture_on_commit_callbacks(execute=True):
        assert bob_client.post(f"{URL}/alice/accept").json() == {"status": "friends"}
    assert events_of(alice, "friend_accepted")
    (friend,) = alice_client.get(URL).json()["friends"]
    assert friend["username"] == "bob" and friend["name"] == "Bob"
    assert friend["online"] is False and friend["games"] == []


def test_asking_back_accepts(alice_client, bob_client):
    alice_client.post(URL, {"username": "bob"}, format="json")
    assert bob_client.post(URL, {"username": "alice"}, format="json").json() == {
        "status": "friends"
    }
    assert Friendship.objects.get().accepted_at is not None


def test_online_and_whose_turn_in_games_together(alice, bob, alice_client, bob_client,
                                                 human_game):
    _befriend(alice_client, bob_client, "bob", "alice")
    Seat.objects.filter(user=bob).update(last_seen_at=timezone.now())
    (friend,) = alice_client.get(URL).json()["friends"]
    assert friend["online"] is True
    (together,) = friend["games"]
    assert together["game"] == human_game.pk
    assert (together["your_turn"], together["their_turn"]) == (True, False)
    (mirror,) = bob_client.get(URL).json()["friends"][0]["games"]
    assert (mirror["your_turn"], mirror["their_turn"]) == (False, True)


def test_play_again_from_the_list(alice, bob, alice_client, bob_client, ai_queue):
    _befriend(alice_client, bob_client, "bob", "alice")
    last = services.create_game(user=bob, opponent={"username": "alice"}, turn_hours=24,
                                rated=False)
    services.resign(game_id=last.pk, user=bob)
    response = alice_client.post(f"{URL}/bob/play")
    assert response.status_code == 201, response.content
    new = Game.objects.get(pk=response.json()["id"])
    assert (new.turn_hours, new.rated, new.status) == (24, False, "active")
    assert_error(alice_client.post(f"{URL}/carol/play"), 404, "player_not_found")


def test_remove_and_decline(alice, bob, alice_client, bob_client):
    _befriend(alice_client, bob_client, "bob", "alice")
    assert alice_client.delete(f"{URL}/bob").status_code == 204
    assert not Friendship.objects.exists()
    assert_error(alice_client.delete(f"{URL}/bob"), 404, "not_friends")
    assert_error(alice_client.post(f"{URL}/bob/play"), 404, "not_friends")
    alice_client.post(URL, {"username": "bob"}, format="json")
    assert bob_client.delete(f"{URL}/alice").status_code == 204  # declined


def test_bad_input_changes_nothing(alice, alice_client, bob_client, bob):
    assert_error(alice_client.post(URL, {"username": "alice"}, format="json"), 400,
                 "cannot_befriend_yourself")
    assert_error(alice_client.post(URL, {"username": "nobody"}, format="json"), 404,
                 "player_not_found")
    assert_error(alice_client.post(URL, {"username": 7}, format="json"), 400, "invalid")
    assert_error(alice_client.post(URL, {}, format="json"), 400, "invalid")
    assert_error(alice_client.post(f"{URL}/bob/accept"), 404, "no_friend_request")
    alice_client.post(URL, {"username": "bob"}, format="json")
    # Accepting your own request is not possible.
    assert_error(alice_client.post(f"{URL}/bob/accept"), 404, "no_friend_request")
    assert Friendship.objects.get().accepted_at is None


def test_a_request_from_a_blocked_player_is_never_delivered(
    db_backend, alice, bob, alice_client, bob_client, django_capture_on_commit_callbacks
):
    Block.objects.create(blocker=bob, blocked=alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(URL, {"username": "bob"}, format="json")
    assert response.status_code == 201 and response.json() == {"status": "requested"}
    assert events_of(bob, "friend_request") == []
    assert bob_client.get(URL).json()["incoming"] == []
    assert_error(bob_client.post(f"{URL}/alice/accept"), 404, "no_friend_request")


def test_friends_need_a_sign_in(api_client):
    assert_error(api_client.get(URL), 401, "not_authenticated")
