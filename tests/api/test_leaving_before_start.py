"""Every way a game can be left before all its seats are filled (issue 30), for both kinds,
through the real API: each answers what it says, stores no result that does not fit the game's
seats, and leaves every player's list and view readable.

Crazy10s: a random-opponent request still waiting (resigned, cancelled, withdrawn by deleting
the account, aborted by a suspension, refused an award, untouched by the clock sweep), a named
opponent (the "friend invitation": the game starts at once), a friend not accepted yet, a
rematch offer declined, withdrawn, expired or accepted and left at once. Crazy Eights: a table
still gathering players (left by a guest, by the host, by everybody), a dealt table everybody
leaves, a solo match resigned before its first move, a random opponent (not offered), a
rematch (not offered).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import Game, Seat
from games.results import result_problems
from games.tables.models import Table
from social.models import RematchOffer
from tests.helpers import PASSWORD, assert_error

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games"


def _random_request(client) -> dict:
    r = client.post(GAMES, {"opponent": {"random": True}}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["status"] == "waiting"
    return r.json()


def assert_readable(client, game_id: int | None = None) -> None:
    """Every list of the player's games and (if given) the game itself answer 200."""
    for query in ("", "?status=finished", "?status=active", "?status=waiting"):
        r = client.get(GAMES + query)
        assert r.status_code == 200, (query, r.content)
    if game_id is not None:
        r = client.get(f"{GAMES}/{game_id}")
        assert r.status_code == 200, r.content


def assert_results_fit() -> None:
    """Every stored game's result fits its seats, and verify_games agrees with the replays."""
    for game in Game.objects.all():
        assert result_problems(game.result, game.seat_count) == [], (game.pk, game.result)
        if game.is_over:
            assert len(game.result["scores"]) == len(game.result["adjustments"]) == game.seat_count
    call_command("verify_games", "--all", stdout=open("/dev/null", "w"))  # noqa: SIM115


def _cancelled(body: dict) -> None:
    assert body["status"] == "aborted"
    assert body["result"] == {
        "termination": "cancelled", "outcome": "none", "winners": [],
        "scores": {"you": 0, "opponent": 0}, "adjustments": {"you": 0, "opponent": 0},
    }


# --- Crazy10s: a random-opponent request nobody joined -----------------------------------------
def test_resigning_a_waiting_request_cancels_it(alice_client):
    game = _random_request(alice_client)
    r = alice_client.post(f"{GAMES}/{game['id']}/resign")
    assert r.status_code == 200, r.content
    _cancelled(r.json())
    stored = Game.objects.get(pk=game["id"])
    assert stored.result["scores"] == [0, 0] and stored.result["adjustments"] == [0, 0]
    assert [s.result for s in stored.seats.all()] == ["none"]
    assert_readable(alice_client, game["id"])
    # A cancelled request is no game of the player's any more: not listed, still viewable.
    assert alice_client.get(GAMES).json()["count"] == 0
    assert alice_client.get(GAMES + "?status=finished").json()["count"] == 0
    assert_results_fit()


def test_cancel_withdraws_a_waiting_request_and_nobody_is_paired_with_it(
    alice_client, bob_client
):
    game = _random_request(alice_client)
    r = alice_client.post(f"{GAMES}/{game['id']}/cancel")
    assert r.status_code == 200, r.content
    _cancelled(r.json())
    # Cancelling again answers the same game; resigning it is too late.
    again = alice_client.post(f"{GAMES}/{game['id']}/cancel")
    assert again.status_code == 200 and again.json() == r.json()
    assert_error(alice_client.post(f"{GAMES}/{game['id']}/resign"), 409, "game_over")
    # bob's random request does not land in alice's cancelled one: he waits himself.
    bobs = _random_request(bob_client)
    assert bobs["id"] != game["id"]
    assert Game.objects.get(pk=game["id"]).seats.count() == 1
    assert_readable(alice_client, game["id"])
    assert_readable(bob_client, bobs["id"])
    assert_results_fit()


def test_cancel_refuses_a_started_game_and_a_stranger(alice_client, bob_client, carol_client,
                                                      ai_queue):
    r = alice_client.post(GAMES, {"opponent": {"username": "bob"}}, format="json")
    game_id = r.json()["id"]
    error = assert_error(alice_client.post(f"{GAMES}/{game_id}/cancel"), 409, "game_started")
    assert "resign" in error["message"]
    assert_error(carol_client.post(f"{GAMES}/{game_id}/cancel"), 403, "not_a_player")
    assert_error(alice_client.post(f"{GAMES}/999999/cancel"), 404, "not_found")
    assert Game.objects.get(pk=game_id).status == "active"


def test_a_paired_request_cannot_be_cancelled_any_more(alice_client, bob_client):
    game = _random_request(alice_client)
    paired = bob_client.post(GAMES, {"opponent": {"random": True}}, format="json").json()
    assert paired["id"] == game["id"] and paired["status"] == "active"
    assert_error(alice_client.post(f"{GAMES}/{game['id']}/cancel"), 409, "game_started")
    assert_readable(alice_client, game["id"])


def test_deleting_the_account_withdraws_its_waiting_request(alice, alice_client):
    game = _random_request(alice_client)
    r = alice_client.delete("/api/v1/me", {"password": PASSWORD}, format="json")
    assert r.status_code == 204, r.content
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "aborted" and stored.result["termination"] == "cancelled"
    assert_results_fit()


def test_a_suspension_aborts_the_waiting_request_with_a_result_per_seat(
    alice, alice_client, user_factory
):
    from games.moderation import services as moderation

    game = _random_request(alice_client)
    moderator = user_factory("mod", is_staff=True)
    moderation.suspend_user(moderator=moderator, user_id=alice.pk, reason="test")
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == "aborted"
    assert stored.result["termination"] == "aborted"
    assert stored.result["scores"] == [0, 0]
    assert_results_fit()


def test_moderation_aborts_but_cannot_award_a_waiting_request(alice_client):
    game = _random_request(alice_client)
    assert_error_code(lambda: services.award_game(game_id=game["id"], seat_index=1),
                      "game_not_started")
    assert Game.objects.get(pk=game["id"]).status == "waiting"
    services.abort_game(game_id=game["id"])
    body = alice_client.get(f"{GAMES}/{game['id']}").json()
    assert body["status"] == "aborted" and body["result"]["termination"] == "aborted"
    assert alice_client.get(GAMES + "?status=finished").json()["count"] == 1
    assert_readable(alice_client, game["id"])
    assert_results_fit()


def assert_error_code(call, code: str) -> None:
    from config.errors import ApiError

    with pytest.raises(ApiError) as caught:
        call()
    assert caught.value.code == code


def test_a_waiting_request_never_times_out(alice_client):
    from games import clocks

    game = _random_request(alice_client)
    with time_machine.travel(timezone.now() + timedelta(days=30)):
        clocks.sweep_expired_turns()
    assert Game.objects.get(pk=game["id"]).status == "waiting"
    assert_readable(alice_client, game["id"])
    assert_results_fit()


# --- Crazy10s: a named opponent, friends, rematches --------------------------------------------
def test_a_game_with_a_named_opponent_starts_at_once_and_is_resigned(alice_client, bob_client,
                                                                    ai_queue):
    """The invitation is the game: it starts when it is made, so leaving it is a resignation
    (the opponent wins), with a score per seat."""
    r = alice_client.post(GAMES, {"opponent": {"username": "bob"}}, format="json")
    assert r.json()["status"] == "active"
    game_id = r.json()["id"]
    r = alice_client.post(f"{GAMES}/{game_id}/resign")
    assert r.status_code == 200, r.content
    assert r.json()["result"]["termination"] == "resignation"
    assert r.json()["result"]["outcome"] == "loss"
    assert bob_client.get(f"{GAMES}/{game_id}").json()["result"]["outcome"] == "win"
    for client in (alice_client, bob_client):
        assert_readable(client, game_id)
    assert_results_fit()


def test_playing_with_a_friend_who_has_not_accepted_stores_nothing(alice_client, bob_client):
    assert alice_client.post("/api/v1/me/friends", {"username": "bob"},
                             format="json").status_code == 201
    assert_error(alice_client.post("/api/v1/me/friends/bob/play"), 404, "not_friends")
    # bob declines: still nothing
    assert bob_client.delete("/api/v1/me/friends/alice").status_code == 204
    assert not Game.objects.exists()
    assert_readable(alice_client)
    assert_readable(bob_client)


@pytest.fixture
def over(alice, bob, ai_queue, fixed_seed):
    """A game alice resigned at once: finished, bob won."""
    game = services.create_game(user=alice, opponent={"username": "bob"})
    services.resign(game_id=game.pk, user=alice)
    return game


def test_a_declined_withdrawn_or_expired_rematch_stores_no_game(over, alice_client, bob_client):
    url = f"{GAMES}/{over.pk}/rematch"
    assert alice_client.post(url).status_code == 201
    assert bob_client.delete(url).json()["status"] == "declined"
    assert bob_client.post(url).status_code == 201
    assert bob_client.delete(url).json()["status"] == "withdrawn"
    assert alice_client.post(url).status_code == 201
    with time_machine.travel(timezone.now() + timedelta(hours=25)):
        assert_error(bob_client.delete(url), 404, "no_rematch_offer")
    assert Game.objects.count() == 1
    for client in (alice_client, bob_client):
        assert_readable(client, over.pk)
    assert_results_fit()


def test_an_accepted_rematch_left_at_once_is_a_resignation(over, alice_client, bob_client):
    url = f"{GAMES}/{over.pk}/rematch"
    alice_client.post(url)
    new_id = bob_client.post(url).json()["new_game"]
    assert_error(alice_client.post(f"{GAMES}/{new_id}/cancel"), 409, "game_started")
    r = alice_client.post(f"{GAMES}/{new_id}/resign")
    assert r.status_code == 200 and r.json()["result"]["outcome"] == "loss"
    assert RematchOffer.objects.get(game=over).status == "accepted"
    for client in (alice_client, bob_client):
        assert_readable(client, new_id)
    assert_results_fit()


# --- Crazy Eights ------------------------------------------------------------------------------
@pytest.fixture
def table(alice_client) -> str:
    r = alice_client.post("/api/v1/tables", {"target": 100}, format="json")
    assert r.status_code == 201, r.content
    return r.json()["code"]


def test_leaving_a_gathering_table_stores_no_game(table, alice_client, bob_client, carol_client):
    for client in (bob_client, carol_client):
        assert client.post(f"/api/v1/tables/{table}/join").status_code == 200
    assert carol_client.post(f"/api/v1/tables/{table}/leave").status_code == 200  # a guest
    assert alice_client.post(f"/api/v1/tables/{table}/leave").json()["host"] == "bob"  # host
    assert bob_client.post(f"/api/v1/tables/{table}/leave").status_code == 200  # the last
    assert Table.objects.get(code=table).status == "closed"
    assert not Game.objects.exists()
    for client in (alice_client, bob_client, carol_client):
        assert_readable(client)


def test_a_dealt_table_everybody_leaves_is_aborted_with_four_scores(
    table, alice_client, bob_client, ai_queue
):
    bob_client.post(f"/api/v1/tables/{table}/join")
    game_id = alice_client.post(f"/api/v1/tables/{table}/deal").json()["game_id"]
    alice_client.post(f"/api/v1/tables/{table}/leave")
    bob_client.post(f"/api/v1/tables/{table}/leave")
    game = Game.objects.get(pk=game_id)
    assert game.status == "aborted" and game.seat_count == 4
    assert len(game.result["scores"]) == 4 and len(game.result["adjustments"]) == 4
    for client in (alice_client, bob_client):
        assert_readable(client, game_id)
        assert client.get(f"{GAMES}/{game_id}").json()["result"]["outcome"] == "none"
    assert_results_fit()


def test_a_solo_match_resigned_before_its_first_move(alice_client, ai_queue, monkeypatch):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 5)  # alice moves first
    r = alice_client.post(GAMES, {"kind": "crazy_eights", "opponents": ["cautious", "strong"]},
                          format="json")
    assert r.status_code == 201 and r.json()["status"] == "active", r.content
    game_id = r.json()["id"]
    assert_error(alice_client.post(f"{GAMES}/{game_id}/cancel"), 409, "game_started")
    r = alice_client.post(f"{GAMES}/{game_id}/resign")
    assert r.status_code == 200, r.content
    assert r.json()["result"]["outcome"] == "loss" and len(r.json()["players"]) == 3
    assert len(Game.objects.get(pk=game_id).result["scores"]) == 3
    assert_readable(alice_client, game_id)
    # No rematch for a match against the computer: nothing stored.
    assert_error(alice_client.post(f"{GAMES}/{game_id}/rematch"), 409, "rematch_unavailable")
    assert Game.objects.count() == 1
    assert_results_fit()


def test_crazy_eights_has_no_random_opponent_request(alice_client):
    r = alice_client.post(GAMES, {"kind": "crazy_eights", "opponent": {"random": True}},
                          format="json")
    assert r.status_code == 400, r.content
    assert not Game.objects.exists()
    assert_readable(alice_client)


def test_every_seat_of_a_game_over_has_a_result(alice, ai_queue):
    """The service sets a result on every seat row and keeps the game's seats whole."""
    game = services.create_game(user=alice, opponent={"random": True})
    services.cancel(game_id=game.pk, user=alice)
    assert list(Seat.objects.filter(game=game).values_list("result", flat=True)) == ["none"]
