"""The admin lists vacations (running ones filterable) and a moderator with the change
permission ends one: the player's clocks resume and the moderator is recorded."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.correspondence import services as vacations
from games.correspondence.models import Vacation
from games.models import Game

pytestmark = pytest.mark.django_db
VACATIONS = reverse("admin:correspondence_vacation_changelist")


def _staff(user_factory, *codenames: str) -> tuple[Client, object]:
    user = user_factory(is_staff=True)
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label="correspondence", codename=codename)
        )
    client = Client()
    client.force_login(user)
    return client, user


def test_a_moderator_sees_and_ends_a_vacation(user_factory, alice, bob, ai_queue, fixed_seed):
    game = services.create_game(user=alice, opponent={"username": "bob"}, turn_hours=24)
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(turn_deadline=now + timedelta(hours=5))
    vacations.start(user=alice, days=4, now=now)
    client, moderator = _staff(user_factory, "view_vacation", "change_vacation")
    listing = client.get(VACATIONS + "?running=yes").content.decode()
    assert "alice" in listing
    response = client.post(VACATIONS, {
        "action": "end_now", "_selected_action": [str(Vacation.objects.get().pk)],
    })
    assert response.status_code == 302
    vacation = Vacation.objects.get()
    assert vacation.ended_by == moderator and vacation.ended_at is not None
    game.refresh_from_db()
    assert game.turn_deadline >= now + timedelta(hours=5)  # resumed, not shortened


def test_viewing_alone_cannot_end_one(user_factory, alice):
    vacations.start(user=alice, days=2)
    client, _ = _staff(user_factory, "view_vacation")
    assert client.get(VACATIONS).status_code == 200
    client.post(VACATIONS, {
        "action": "end_now", "_selected_action": [str(Vacation.objects.get().pk)],
    })
    assert Vacation.objects.get().ended_at is None
