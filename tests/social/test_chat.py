"""Chat in a game: stored, streamed, rate-limited, blocked authors silently dropped, mutes,
moderation (remove a message, mute a player), and bad input that changes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from social.models import Block, ChatMessage, SocialSettings
from social.services import chat
from tests.helpers import assert_error
from tests.social.conftest import events_of


def _url(game) -> str:
    return f"/api/v1/games/{game.pk}/chat"


def _say(client, game, text):
    return client.post(_url(game), {"text": text}, format="json")


def test_message_is_stored_listed_and_streamed(
    db_backend, human_game, alice_client, bob_client, alice, bob,
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _say(alice_client, human_game, "  good luck! https://example.com <b>x</b> ")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["text"] == "good luck! https://example.com <b>x</b>"  # as text, not HTML
    assert (body["seat"], body["by_you"], body["username"]) == (0, True, "alice")
    assert body["move_number"] == 0
    (event,) = events_of(bob, "chat")
    assert event["text"] == body["text"] and event["by_you"] is False
    assert event["game"] == human_game.pk
    assert [e["by_you"] for e in events_of(alice, "chat")] == [True]
    listed = bob_client.get(_url(human_game)).json()
    assert listed["muted"] is False
    assert [m["text"] for m in listed["messages"]] == [body["text"]]


def test_chat_in_a_game_you_are_not_in_is_403_and_changes_nothing(human_game, carol_client):
    assert_error(_say(carol_client, human_game, "hi"), 403, "not_a_player")
    assert_error(carol_client.get(_url(human_game)), 403, "not_a_player")
    assert_error(carol_client.post("/api/v1/games/999999/chat", {"text": "x"}, format="json"),
                 404, "not_found")
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("body", [{"text": ""}, {"text": "   \n "}, {"text": "x" * 501},
                                  {"text": 5}, {}, {"text": None}])
def test_bad_messages_are_refused_and_store_nothing(human_game, alice_client, body):
    assert_error(alice_client.post(_url(human_game), body, format="json"), 400, "invalid")
    assert not ChatMessage.objects.exists()


def test_500_characters_are_fine(human_game, alice_client):
    assert _say(alice_client, human_game, "é" * 500).status_code == 201


def test_ten_messages_a_minute(human_game, alice_client):
    for i in range(10):
        assert _say(alice_client, human_game, f"m{i}").status_code == 201
    error = assert_error(_say(alice_client, human_game, "one too many"), 429, "throttled")
    assert error["details"]["wait"] > 0
    assert ChatMessage.objects.count() == 10
    # Reading is not limited.
    assert alice_client.get(_url(human_game)).status_code == 200


def test_a_blocked_players_messages_are_never_delivered_and_he_is_not_told(
    db_backend, human_game, alice_client, bob_client, alice, bob,
    django_capture_on_commit_callbacks,
):
    Block.objects.create(blocker=alice, blocked=bob)
    with django_capture_on_commit_callbacks(execute=True):
        response = _say(bob_client, human_game, "you will not read this")
    assert response.status_code == 201  # same answer as any message
    assert events_of(alice, "chat") == []
    assert alice_client.get(_url(human_game)).json()["messages"] == []
    assert [m["text"] for m in bob_client.get(_url(human_game)).json()["messages"]] == [
        "you will not read this"
    ]
    # The blocker's own messages still reach the blocked player (the choice is hers).
    with django_capture_on_commit_callbacks(execute=True):
        _say(alice_client, human_game, "bye")
    assert [e["text"] for e in events_of(bob, "chat") if not e["by_you"]] == ["bye"]


def test_mute_one_game(db_backend, human_game, alice_client, bob_client, alice,
                       django_capture_on_commit_callbacks):
    assert alice_client.post(_url(human_game) + "/mute").status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        _say(bob_client, human_game, "hello?")
    assert events_of(alice, "chat") == []
    view = alice_client.get(_url(human_game)).json()
    assert view["muted"] is True and view["messages"] == []
    assert alice_client.delete(_url(human_game) + "/mute").status_code == 204
    assert [m["text"] for m in alice_client.get(_url(human_game)).json()["messages"]] == [
        "hello?"
    ]


def test_mute_everywhere(db_backend, human_game, alice_client, bob_client, alice,
                         django_capture_on_commit_callbacks):
    response = alice_client.patch("/api/v1/me/social", {"mute_all_chat": True}, format="json")
    assert response.json() == {"hide_profile": False, "mute_all_chat": True}
    with django_capture_on_commit_callbacks(execute=True):
        _say(bob_client, human_game, "hello?")
    assert events_of(alice, "chat") == []
    assert alice_client.get(_url(human_game)).json()["muted_everywhere"] is True
    assert_error(alice_client.patch("/api/v1/me/social", {"mute_all_chat": "y"},
                                     format="json"), 400, "invalid")
    assert SocialSettings.objects.get(user=alice).mute_all_chat is True


def test_moderator_removes_a_message_recorded(human_game, bob_client, alice_client, user_factory):
    message_id = _say(bob_client, human_game, "rude words").json()["id"]
    moderator = user_factory("mod", is_staff=True)
    action = chat.remove_message(moderator=moderator, message_id=message_id, reason="rude")
    assert action.action == "remove_chat_message"
    assert action.details == {"message_id": message_id, "text": "rude words"}
    assert action.target_user.username == "bob" and action.game_id == human_game.pk
    assert alice_client.get(_url(human_game)).json()["messages"] == []
    assert ChatMessage.objects.get(pk=message_id).removed_by == moderator  # kept, hidden


def test_moderator_mutes_a_player_from_chat_for_a_period(human_game, bob_client, bob,
                                                         user_factory):
    moderator = user_factory("mod", is_staff=True)
    action = chat.ban_from_chat(moderator=moderator, user_id=bob.pk,
                                duration=timedelta(hours=24))
    assert action.action == "mute_chat" and action.target_user == bob
    error = assert_error(_say(bob_client, human_game, "hi"), 403, "chat_banned")
    assert "until" in error["details"]
    assert not ChatMessage.objects.exists()
    SocialSettings.objects.filter(user=bob).update(
        chat_banned_until=timezone.now() - timedelta(seconds=1)
    )
    assert _say(bob_client, human_game, "hi again").status_code == 201


def test_chat_at_a_crazy_eights_table(alice, bob, alice_client, bob_client, ai_queue):
    from games.tables import services as tables

    table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
    tables.join(user=bob, code=table.code)
    table = tables.deal(user=alice, code=table.code)
    response = _say(bob_client, table.game, "gl hf")
    assert response.status_code == 201
    assert [m["text"] for m in alice_client.get(_url(table.game)).json()["messages"]] == [
        "gl hf"
    ]

