"""Turn times of correspondence play: 1 and 8 hours, and 1, 2, 3, 5, 7, 10, 14 days."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.notifications.models import SentNotification
from games.notifications.services import reminders

DAYS = (1, 2, 3, 5, 7, 10, 14)


@pytest.mark.django_db
@pytest.mark.parametrize("days", DAYS)
def test_every_correspondence_turn_time_sets_the_clock(days, alice, bob, alice_client, ai_queue):
    before = timezone.now()
    response = alice_client.post("/api/v1/games", {
        "kind": "crazy10s", "seats": [{"you": True}, {"username": "bob"}],
        "turn_hours": days * 24,
    }, format="json")
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert game.turn_hours == days * 24
    assert before + timedelta(days=days) <= game.turn_deadline
    assert game.turn_deadline <= timezone.now() + timedelta(days=days)
    assert response.json()["turn_hours"] == days * 24


@pytest.mark.django_db
@pytest.mark.parametrize("hours", [0, 2, 96, 337])
def test_other_turn_times_are_refused_and_nothing_is_created(hours, alice, bob, alice_client):
    response = alice_client.post("/api/v1/games", {
        "kind": "crazy10s", "seats": [{"you": True}, {"username": "bob"}], "turn_hours": hours,
    }, format="json")
    assert response.status_code == 400
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_schema_lists_the_turn_times(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    text = str(schema)
    assert "336" in text and "240" in text and "120" in text and "48" in text


@pytest.mark.django_db
def test_a_fourteen_day_turn_is_reminded_an_hour_before_its_deadline(alice, bob, ai_queue):
    from games import services

    game = services.create_game(user=alice, opponent={"username": "bob"}, turn_hours=336)
    now = timezone.now()
    game.seats.update(last_seen_at=None)  # nobody looked at the game lately
    Game.objects.filter(pk=game.pk).update(turn_deadline=now + timedelta(minutes=90))
    assert reminders.send_due_reminders(now=now) == 0
    Game.objects.filter(pk=game.pk).update(turn_deadline=now + timedelta(minutes=59))
    assert reminders.send_due_reminders(now=now) == 1
    assert SentNotification.objects.filter(game=game, kind="reminder").count() == 1


@pytest.mark.django_db
def test_the_new_game_form_and_the_lists_show_turn_times_in_days(client, alice, bob, ai_queue):
    from games import services

    services.create_game(user=alice, opponent={"username": "bob"}, turn_hours=240)
    client.force_login(alice)
    form = client.get("/games/new").content.decode()
    for label in ("8 hours", "1 day", "2 days", "5 days", "10 days", "14 days"):
        assert f">{label}</option>" in form
    home = client.get("/").content.decode()
    assert "10 days per turn" in home


@pytest.mark.django_db
def test_the_game_page_shows_the_turn_time(client, alice, bob, ai_queue):
    from games import services

    game = services.create_game(user=alice, opponent={"username": "bob"}, turn_hours=48)
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}").content.decode()
    assert "2 days per turn" in page


@pytest.mark.django_db
def test_turn_hours_outside_the_choices_refused_by_the_service(alice, bob):
    from config.errors import ApiError
    from games import services

    with pytest.raises(ApiError):
        services.create_game(user=alice, opponent={"username": "bob"}, turn_hours=4)
    assert not Game.objects.exists()
