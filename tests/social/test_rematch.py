"""Rematch: offer, accept (one new game, same settings, the other player starts), decline,
withdraw, expiry, streak, rate limit, and bad input that changes nothing."""

from datetime import timedelta

import time_machine
from django.utils import timezone

from games import services
from games.models import Game, Move
from social.models import Block, RematchOffer
from tests.helpers import assert_error
from tests.social.conftest import events_of


def _url(game) -> str:
    return f"/api/v1/games/{game.pk}/rematch"


def test_offer_then_accept_makes_one_game_with_the_same_settings(
    db_backend, alice, bob, ai_queue, fixed_seed, alice_client, bob_client,
    django_capture_on_commit_callbacks,
):
    game = services.create_game(user=alice, opponent={"username": "bob"}, turn_hours=8,
                                options={"layout": "random"}, rated=False)
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    services.resign(game_id=game.pk, user=bob)
    first_mover = Move.objects.get(game=game, number=1).seat  # alice's seat 0
    with django_capture_on_commit_callbacks(execute=True):
        offered = alice_client.post(_url(game))
    assert offered.status_code == 201, offered.content
    assert offered.json()["status"] == "open" and offered.json()["offered_by_you"] is True
    (event,) = events_of(bob, "rematch_offered")
    assert event["game"] == game.pk
    # Offering again changes nothing.
    assert alice_client.post(_url(game)).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        accepted = bob_client.post(_url(game))
    assert accepted.status_code == 200
    body = accepted.json()
    assert body["status"] == "accepted" and body["streak"] == 1
    new = Game.objects.get(pk=body["new_game"])
    assert (new.kind, new.turn_hours, new.rated, new.options) == (
        game.kind, 8, False, game.options
    )
    assert new.options["layout"] == "random"
    assert new.status == Game.Status.ACTIVE
    starter = new.seats.get(index=new.current_seat).user
    assert starter == bob  # alice made the first move last time
    assert first_mover == 0
    assert [e["new_game"] for e in events_of(alice, "rematch_accepted")] == [new.pk]
    # A second accept (a double click) answers the same game.
    again = bob_client.post(_url(game))
    assert again.json()["new_game"] == new.pk
    assert Game.objects.count() == 2


def test_rematch_streak_counts_games_in_a_row(alice, bob, ai_queue, fixed_seed, alice_client,
                                              bob_client):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    for expected in (1, 2, 3):
        services.resign(game_id=game.pk, user=alice)
        alice_client.post(_url(game))
        body = bob_client.post(_url(game)).json()
        assert body["streak"] == expected
        game = Game.objects.get(pk=body["new_game"])


def test_rematch_on_an_unfinished_game_is_409(human_game, alice_client):
    assert_error(alice_client.post(_url(human_game)), 409, "game_not_over")
    assert_error(alice_client.delete(_url(human_game)), 409, "game_not_over")
    assert not RematchOffer.objects.exists()


def test_not_a_player_and_unknown_game(finished_game, carol_client):
    assert_error(carol_client.post(_url(finished_game)), 403, "not_a_player")
    assert_error(carol_client.post("/api/v1/games/999999/rematch"), 404, "not_found")
    assert not RematchOffer.objects.exists()


def test_no_rematch_against_the_computer(alice, alice_client, ai_queue):
    game = services.create_game(user=alice, opponent={"ai": "strong"})
    services.resign(game_id=game.pk, user=alice)
    assert_error(alice_client.post(_url(game)), 409, "rematch_unavailable")


def test_decline_and_withdraw(db_backend, finished_game, alice_client, bob_client, alice,
                              django_capture_on_commit_callbacks):
    alice_client.post(_url(finished_game))
    with django_capture_on_commit_callbacks(execute=True):
        declined = bob_client.delete(_url(finished_game))
    assert declined.json()["status"] == "declined"
    assert events_of(alice, "rematch_declined")
    assert_error(bob_client.delete(_url(finished_game)), 404, "no_rematch_offer")
    # A new offer after a decline; its author withdraws it.
    assert bob_client.post(_url(finished_game)).status_code == 201
    assert bob_client.delete(_url(finished_game)).json()["status"] == "withdrawn"
    # Nothing open: accepting is a new offer, not a game.
    assert alice_client.post(_url(finished_game)).status_code == 201
    assert Game.objects.count() == 1


def test_an_offer_expires_after_24_hours(finished_game, alice_client, bob_client):
    alice_client.post(_url(finished_game))
    with time_machine.travel(timezone.now() + timedelta(hours=24, seconds=1)):
        assert_error(bob_client.delete(_url(finished_game)), 404, "no_rematch_offer")
        # Bob's POST is now his own new offer, not an accept.
        response = bob_client.post(_url(finished_game))
        assert response.status_code == 201 and response.json()["offered_by_you"] is True
    assert Game.objects.count() == 1


def test_offers_are_rate_limited(finished_game, alice_client, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                   "rematch": "2/hour"},
    }
    from rest_framework.settings import api_settings

    api_settings.reload()
    try:
        alice_client.post(_url(finished_game))
        alice_client.delete(_url(finished_game))
        alice_client.post(_url(finished_game))
        alice_client.delete(_url(finished_game))
        assert_error(alice_client.post(_url(finished_game)), 429, "throttled")
        assert RematchOffer.objects.get().status == "withdrawn"
    finally:
        api_settings.reload()


def test_an_offer_from_a_blocked_player_is_never_delivered(
    db_backend, finished_game, alice, bob, alice_client, django_capture_on_commit_callbacks
):
    Block.objects.create(blocker=bob, blocked=alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert alice_client.post(_url(finished_game)).status_code == 201
    assert events_of(bob, "rematch_offered") == []


def test_no_game_with_a_player_who_blocked_you_after_offering(finished_game, alice, bob,
                                                              alice_client, bob_client):
    alice_client.post(_url(finished_game))
    Block.objects.create(blocker=alice, blocked=bob)
    assert_error(bob_client.post(_url(finished_game)), 403, "player_unavailable")
    assert Game.objects.count() == 1
    assert RematchOffer.objects.get().status == "open"
