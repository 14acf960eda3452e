"""Moderation actions from the admin: each changes the game or user and is recorded."""

import pytest
from django.urls import reverse

from games.models import Game
from games.moderation.models import ModerationAction

pytestmark = pytest.mark.django_db

GAMES = reverse("admin:games_game_changelist")
USERS = reverse("admin:accounts_user_changelist")


@pytest.fixture
def finished_announced(game_effects):
    """The games whose end was announced after commit, in order."""
    return lambda: [game for name, game, _ in game_effects if name == "game_finished"]


def _act(client, url, action: str, *ids: int):
    response = client.post(url, {"action": action, "_selected_action": [str(i) for i in ids]})
    assert response.status_code == 302, response.content
    return response


def test_abort(moderator_client, moderator, human_game, finished_announced,
               django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator_client, GAMES, "abort_games", human_game.pk)
    game = Game.objects.get(pk=human_game.pk)
    assert game.status == Game.Status.ABORTED
    assert game.result["termination"] == "aborted" and game.result["winner"] is None
    action = ModerationAction.objects.get()
    assert (action.moderator, action.action, action.game_id) == (
        moderator, "abort_game", human_game.pk
    )
    assert action.details["status"] == "active" and action.created_at is not None
    assert finished_announced() == [human_game.pk]


@pytest.mark.parametrize("seat_index", [0, 1])
def test_award_to_a_seat(moderator_client, human_game, finished_announced, seat_index,
                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator_client, GAMES, f"award_to_seat_{seat_index}", human_game.pk)
    game = Game.objects.get(pk=human_game.pk)
    assert game.status == Game.Status.FINISHED
    assert game.result == {**game.result, "termination": "awarded", "winner": seat_index}
    action = ModerationAction.objects.get()
    assert action.action == "award_game" and action.details["seat_index"] == seat_index
    assert action.target_user.username == ("alice", "bob")[seat_index]
    assert finished_announced() == [human_game.pk]


def test_a_finished_game_is_refused_and_nothing_recorded(moderator_client, human_game):
    _act(moderator_client, GAMES, "abort_games", human_game.pk)
    response = moderator_client.post(
        GAMES, {"action": "award_to_seat_0", "_selected_action": [str(human_game.pk)]},
        follow=True,
    )
    assert "refused" in response.content.decode()
    assert Game.objects.get(pk=human_game.pk).status == Game.Status.ABORTED
    assert list(ModerationAction.objects.values_list("action", flat=True)) == ["abort_game"]


def test_requeue_a_computer_turn_on_commit(moderator_client, computer_to_move, ai_queue,
                                           django_capture_on_commit_callbacks):
    ai_queue.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _act(moderator_client, GAMES, "requeue_computer_turns", computer_to_move.pk)
    assert ai_queue == []  # not before the commit
    for callback in callbacks:
        callback()
    assert ai_queue == [(computer_to_move.pk, 0)]
    action = ModerationAction.objects.get()
    assert action.action == "requeue_ai_turn" and action.details["move_number"] == 0


def test_requeue_on_a_human_turn_is_refused(moderator_client, human_game, ai_queue,
                                            django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator_client, GAMES, "requeue_computer_turns", human_game.pk)
    assert ai_queue == []
    assert not ModerationAction.objects.exists()


def test_suspend_user_revokes_tokens(moderator_client, moderator, alice, alice_client):
    assert alice_client.get("/api/v1/me").status_code == 200
    _act(moderator_client, USERS, "suspend_users", alice.pk)
    alice.refresh_from_db()
    assert alice.is_active is False
    assert alice_client.get("/api/v1/me").status_code == 401
    action = ModerationAction.objects.get()
    assert (action.action, action.target_user, action.moderator) == (
        "suspend_user", alice, moderator
    )
    assert action.details["tokens_deleted"] == 1


def test_actions_are_listed_in_the_log(moderator_client, human_game):
    _act(moderator_client, GAMES, "abort_games", human_game.pk)
    page = moderator_client.get(reverse("admin:moderation_moderationaction_changelist"))
    assert page.status_code == 200
    assert "Abort game" in page.content.decode()


def test_suspend_user_withdraws_their_random_requests(moderator_client, alice, bob):
    from games import services

    waiting = services.create_game(user=alice, opponent={"random": True})
    bobs = services.create_game(user=bob, opponent={"random": True}, turn_hours=24)
    _act(moderator_client, USERS, "suspend_users", alice.pk)
    waiting.refresh_from_db()
    bobs.refresh_from_db()
    assert waiting.status == Game.Status.ABORTED
    assert bobs.status == Game.Status.WAITING
    action = ModerationAction.objects.get()
    assert action.details["waiting_games_aborted"] == [waiting.pk]
