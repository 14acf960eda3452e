"""The chat's moderation path in the admin, step by step: a moderator opens a game's chat,
removes a message (players no longer see it; recorded), and mutes its author from chat for a
period (recorded; the author's next message is refused)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.moderation.models import ModerationAction
from social.models import ChatMessage
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db

CHAT = reverse("admin:social_chatmessage_changelist")


def test_a_moderator_reads_removes_and_mutes(moderator_client, moderator, human_game,
                                            alice_client, bob_client):
    chat = f"/api/v1/games/{human_game.pk}/chat"
    bob_client.post(chat, {"text": "nice move"}, format="json")
    rude = bob_client.post(chat, {"text": "<script>rude</script>"}, format="json").json()["id"]

    # 1. The game's page links to its chat; the chat page lists it.
    game_page = moderator_client.get(reverse("admin:games_game_change", args=[human_game.pk]))
    assert f"{CHAT}?game__id__exact={human_game.pk}" in game_page.content.decode()
    page = moderator_client.get(f"{CHAT}?game__id__exact={human_game.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "nice move" in html and "&lt;script&gt;rude&lt;/script&gt;" in html  # as text

    # 2. Remove the message: hidden from the players, kept and recorded.
    response = moderator_client.post(
        CHAT, {"action": "remove_messages", "_selected_action": [str(rude)]}
    )
    assert response.status_code == 302
    texts = [m["text"] for m in alice_client.get(chat).json()["messages"]]
    assert texts == ["nice move"]
    removed = ModerationAction.objects.get(action="remove_chat_message")
    assert (removed.moderator, removed.game_id, removed.target_user.username) == (
        moderator, human_game.pk, "bob"
    )
    assert removed.details["text"] == "<script>rude</script>"
    assert ChatMessage.objects.get(pk=rude).removed_at is not None

    # 3. Mute the author from chat for 24 hours: recorded, and his next message refused.
    response = moderator_client.post(
        CHAT, {"action": "mute_authors_24h", "_selected_action": [str(rude)]}
    )
    assert response.status_code == 302
    muted = ModerationAction.objects.get(action="mute_chat")
    assert muted.target_user.username == "bob" and muted.details["hours"] == 24
    assert_error(bob_client.post(chat, {"text": "again"}, format="json"), 403, "chat_banned")


def test_players_cannot_open_the_chat_admin(alice, human_game):
    client = Client()
    client.force_login(alice)
    assert client.get(CHAT).status_code == 302  # to the admin login
