"""Leaving for good: the export of everything about a player, and the deletion (anonymise,
resign running games, keep finished ones, free the username after 30 days)."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Device, User
from games import services as game_services
from games.models import Game, Seat
from tests.accounts.conftest import login, register
from tests.helpers import PASSWORD, assert_error

pytestmark = pytest.mark.django_db

ME = "/api/v1/me"
EXPORT = "/api/v1/me/export"


def test_export_holds_profile_games_moves_attempts_and_settings(
    alice, alice_client, human_game, bob
):
    from games.crazy10s.puzzles.models import Puzzle, PuzzleAttempt

    game_services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                              expected_move_number=0)
    puzzle = Puzzle.objects.create(
        date=timezone.now().date(), board="x", layout="y", rack="1234567", best_score=30,
        best_move="a1=1", legal_move_count=3, generated_at=timezone.now(),
    )
    PuzzleAttempt.objects.create(puzzle=puzzle, user=alice, move="a1=1", score=20)

    response = alice_client.get(EXPORT)
    assert response.status_code == 200
    data = response.json()
    assert data["profile"]["username"] == "alice"
    assert data["profile"]["email"] == "alice@example.test"
    assert data["notification_settings"] == {
        "turn_emails": "each", "reminder_emails": True, "result_emails": True,
    }
    [game] = data["games"]
    assert game["id"] == human_game.pk and game["your_seat"] == 0
    assert [p["name"] for p in game["players"]] == ["Alice", "Bob"]
    assert game["moves"][0]["notation"] == "g7=5 h7=5" and game["moves"][0]["score"] == 20
    assert data["puzzle_attempts"] == [{
        "date": puzzle.date.isoformat(), "move": "a1=1", "score": 20, "best_score": 30,
        "at": data["puzzle_attempts"][0]["at"],
    }]
    assert [d["name"] for d in data["devices"]] == ["tests"]
    # Nothing hidden: no rack, hand, bag or seed, and no key.
    text = json.dumps(data)
    bob_rack = Seat.objects.get(game=human_game, index=1).private
    for hidden in ('"seed"', '"state"', '"rack"', '"private"', alice_client.token):
        assert hidden not in text
    assert str(human_game.seed) not in text and json.dumps(bob_rack) not in text


def _delete(client, body):
    return client.delete(ME, body, format="json")


def test_delete_needs_the_password_and_refusals_change_nothing(alice, alice_client, human_game):
    assert_error(_delete(alice_client, {}), 400, "invalid")
    assert_error(_delete(alice_client, {"password": "wrong"}), 400, "wrong_password")
    alice.refresh_from_db()
    assert alice.is_active and alice.email and alice.check_password(PASSWORD)
    assert alice_client.get(ME).status_code == 200
    human_game.refresh_from_db()
    assert human_game.status == "active"


def test_delete_anonymises_resigns_running_games_and_keeps_finished_ones(
    alice, alice_client, bob, carol, human_game, ai_queue
):
    finished = game_services.create_game(user=alice, opponent={"username": "carol"})
    game_services.resign(game_id=finished.pk, user=carol)
    waiting = game_services.create_game(user=alice, opponent={"random": True},
                                        turn_hours=24)
    assert waiting.status == "waiting"
    other_device = APIClient()
    other_device.credentials(HTTP_AUTHORIZATION=f"Token {login(APIClient(), 'alice')}")

    assert _delete(alice_client, {"password": PASSWORD}).status_code == 204

    user = User.objects.get(pk=alice.pk)
    assert user.display_name == f"deleted player {alice.pk}"
    assert user.email == "" and not user.has_usable_password() and not user.is_active
    assert user.deleted_at is not None and user.username == "alice"  # held for 30 days
    assert not Device.objects.filter(user=user).exists()
    for client in (alice_client, other_device):
        assert_error(client.get(ME), 401, "authentication_failed")
    assert_error(APIClient().post("/api/v1/auth/token",
                 {"username": "alice", "password": PASSWORD}, format="json"),
                 401, "invalid_credentials")

    running = Game.objects.get(pk=human_game.pk)
    assert running.status == "finished"
    assert Seat.objects.get(game=running, index=1).result == "win"  # bob
    kept = Game.objects.get(pk=finished.pk)
    assert kept.status == "finished" and Seat.objects.get(game=kept, index=0).user_id == alice.pk
    assert Game.objects.get(pk=waiting.pk).status == "aborted"  # the request is withdrawn
    # The opponent sees the anonymised name in the finished game.
    bob_view = APIClient()
    bob_view.credentials(HTTP_AUTHORIZATION=f"Token {login(APIClient(), 'bob')}")
    body = bob_view.get(f"/api/v1/games/{human_game.pk}").json()
    assert f"deleted player {alice.pk}" in json.dumps(body)
    assert "alice@example.test" not in json.dumps(body)
    # ... in the reader's language (the stored English name is the admin's)
    for language, name in (("de", "gelöschter Spieler"), ("fr", "joueur supprimé"),
                           ("pt-br", "jogador excluído")):
        body = bob_view.get(f"/api/v1/games/{human_game.pk}",
                            HTTP_ACCEPT_LANGUAGE=language).json()
        assert f"{name} {alice.pk}" in json.dumps(body, ensure_ascii=False), language


def test_the_username_is_freed_after_30_days(alice, alice_client, api_client):
    assert _delete(alice_client, {"password": PASSWORD}).status_code == 204
    assert_error(register(api_client, username="alice", email="new@example.test"), 409,
                 "username_taken")
    assert services.free_usernames(now=timezone.now() + timedelta(days=29)) == 0
    assert services.free_usernames(now=timezone.now() + timedelta(days=31)) == 1
    assert User.objects.get(pk=alice.pk).username == f"deleted:{alice.pk}"
    api_client.credentials()
    response = register(api_client, username="alice", email="alice@example.test")
    assert response.status_code == 201, response.content
    assert services.free_usernames(now=timezone.now() + timedelta(days=62)) == 0


def test_a_deleted_account_cannot_be_deleted_twice_or_reset(alice, alice_client):
    assert _delete(alice_client, {"password": PASSWORD}).status_code == 204
    with pytest.raises(Exception) as refused:
        services.delete_account(user_id=alice.pk, password=PASSWORD)
    assert getattr(refused.value, "code", None) == "wrong_password"
    assert services.send_password_reset(email="alice@example.test") is False
