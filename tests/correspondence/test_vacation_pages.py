"""The settings page's vacation form, and "on vacation until" on the game page and lists."""

import pytest

from games import services
from games.correspondence.models import Vacation

pytestmark = pytest.mark.django_db


def test_start_refuse_and_end_from_the_settings_page(client, alice):
    client.force_login(alice)
    page = client.get("/settings").content.decode()
    assert "You have 7 vacation days." in page and 'id="start-vacation"' in page
    refused = client.post("/settings/vacation", {"action": "start", "days": "12"}, follow=True)
    text = refused.content.decode()
    assert "You have 7 vacation days; you asked for 12." in text
    assert not Vacation.objects.exists()
    started = client.post("/settings/vacation", {"action": "start", "days": "3"}, follow=True)
    text = started.content.decode()
    assert "Your vacation has begun" in text and 'id="vacation-running"' in text
    assert Vacation.objects.get(user=alice, ended_at__isnull=True)
    ended = client.post("/settings/vacation", {"action": "end"}, follow=True)
    assert "Your vacation has ended" in ended.content.decode()
    assert not Vacation.objects.filter(ended_at__isnull=True).exists()


def test_the_form_answers_in_the_players_language(client, user_factory):
    hans = user_factory("hans", language="de")
    client.force_login(hans)
    refused = client.post("/settings/vacation", {"action": "start", "days": "20"}, follow=True)
    assert "Urlaubstage" in refused.content.decode()


def test_opponents_see_until_when_on_the_game_page_and_the_list(client, alice, bob, ai_queue):
    game = services.create_game(user=alice, opponent={"username": "bob"})
    client.force_login(bob)
    client.post("/settings/vacation", {"action": "start", "days": "2"})
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}").content.decode()
    assert "Bob is on vacation until" in page and "their turn clocks are paused" in page
    assert "Bob is on vacation until" in client.get("/").content.decode()
    client.force_login(bob)
    assert "You are on vacation until" in client.get(f"/games/{game.pk}").content.decode()


def test_a_get_does_not_start_anything(client, alice):
    client.force_login(alice)
    assert client.get("/settings/vacation").status_code == 405
    assert not Vacation.objects.exists()
