"""The social pages through Django's test client: friends, a player's profile, the blocked
list and social settings in Settings, the chat and the rematch on a game's page, the rated
choice of the new-game form."""

import pytest

from games import services
from games.models import Game
from social.models import Block, Friendship, SocialSettings

pytestmark = pytest.mark.django_db


def test_friends_page(client, alice, bob, carol, human_game):
    Friendship.objects.create(low=alice, high=bob, requested_by=alice,
                              accepted_at=human_game.created_at)
    Friendship.objects.create(low=alice, high=carol, requested_by=carol)
    client.force_login(alice)
    html = client.get("/friends").content.decode()
    assert 'data-username="bob"' in html and f"/games/{human_game.pk}" in html
    assert "your turn" in html  # alice moves first in human_game
    assert 'id="incoming"' in html and 'data-username="carol"' in html
    assert client.get("/friends").status_code == 200


def test_friends_page_needs_a_sign_in(client):
    response = client.get("/friends")
    assert response.status_code == 302 and "/signin" in response.url


def test_player_page(client, alice, bob):
    client.force_login(alice)
    html = client.get("/players/bob").content.decode()
    assert "Bob" in html and 'data-block="block"' in html and 'data-friend="add"' in html
    Block.objects.create(blocker=alice, blocked=bob)
    assert 'data-block="unblock"' in client.get("/players/bob").content.decode()
    own = client.get("/players/alice").content.decode()
    assert 'data-block' not in own
    assert client.get("/players/nobody").status_code == 404


def test_a_hidden_profile_is_refused_with_the_message(client, alice, bob):
    SocialSettings.objects.create(user=bob, hide_profile=True)
    client.force_login(alice)
    response = client.get("/players/bob")
    assert response.status_code == 403
    assert "hidden their profile" in response.content.decode()


def test_settings_show_the_blocked_players_and_the_social_choices(client, alice, bob):
    Block.objects.create(blocker=alice, blocked=bob)
    SocialSettings.objects.create(user=alice, mute_all_chat=True)
    client.force_login(alice)
    html = client.get("/settings").content.decode()
    assert 'id="blocked"' in html and 'data-username="bob"' in html
    assert 'id="mute-all-chat" data-social="mute_all_chat" checked' in html


def test_game_page_has_the_chat_and_after_the_end_the_rematch(client, alice, bob, human_game):
    client.force_login(alice)
    html = client.get(f"/games/{human_game.pk}").content.decode()
    assert 'id="chat"' in html and 'id="chat-form"' in html
    assert 'data-rematch' not in html  # the game is on
    services.resign(game_id=human_game.pk, user=bob)
    panel = client.get(f"/games/{human_game.pk}/panel").content.decode()
    assert 'data-rematch="offer"' in panel


def test_new_game_form_casual(client, alice, bob, ai_queue):
    client.force_login(alice)
    response = client.post("/games/new", {"kind": "crazy10s", "seat1": "@friend",
                                          "username1": "bob", "turn_hours": "72"})
    assert response.status_code == 302
    assert Game.objects.get().rated is False  # the box was not ticked
    client.post("/games/new", {"kind": "crazy10s", "seat1": "@friend", "username1": "bob",
                               "turn_hours": "72", "rated": "on"})
    assert Game.objects.filter(rated=True).count() == 1
