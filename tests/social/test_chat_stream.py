"""A chat message reaches the other player's open event stream (in process, through the
project's ASGI application, both live backends), and never the stream of a player who blocked
the author."""

import pytest
from asgiref.sync import sync_to_async
from rest_framework.test import APIClient

from accounts import tokens
from games import services
from social.models import Block
from tests.live.asgi import open_stream
from tests.live.conftest import run

pytestmark = pytest.mark.django_db(transaction=True)


def _key(user) -> str:
    _, key = tokens.issue(user=user, name="tests")
    return key


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {_key(user)}")
    return client


def _say(user, game_id: int, text: str) -> int:
    from django.db import connection

    try:
        return _client(user).post(f"/api/v1/games/{game_id}/chat", {"text": text},
                                  format="json").status_code
    finally:
        connection.close()


def test_chat_reaches_the_other_players_stream(live_backend, alice, bob, carol, ai_queue):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    other = services.create_game(user=carol, opponent={"username": "bob"})
    Block.objects.create(blocker=bob, blocked=carol)
    key = _key(bob)

    async def go():
        stream = await open_stream("/api/v1/events", {"Authorization": f"Token {key}"})
        assert await sync_to_async(_say, thread_sensitive=False)(carol, other.pk, "psst") == 201
        assert await sync_to_async(_say, thread_sensitive=False)(alice, game.pk, "hi bob") == 201
        await stream.wait_until(lambda s: any(e.type == "chat" for e in s.events))
        await stream.close()
        return stream

    stream = run(go())
    chats = [e.data for e in stream.events if e.type == "chat"]
    assert [(c["text"], c["username"], c["game"]) for c in chats] == [
        ("hi bob", "alice", game.pk)
    ]
