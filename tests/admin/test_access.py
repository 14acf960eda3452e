"""The admin is for staff only."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAGES = (
    "admin:games_game_changelist",
    "admin:moderation_moderationaction_changelist",
    "admin:accounts_user_changelist",
)


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_is_sent_to_the_login_page(page):
    response = Client().get(reverse(page))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


@pytest.mark.parametrize("page", PAGES)
def test_a_player_who_is_not_staff_is_refused(alice, page):
    client = Client()
    client.force_login(alice)
    response = client.get(reverse(page))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_a_player_cannot_open_a_game_page(alice, human_game):
    client = Client()
    client.force_login(alice)
    response = client.get(reverse("admin:games_game_change", args=[human_game.pk]))
    assert response.status_code == 302
    assert b"bag" not in response.content


@pytest.mark.parametrize("page", PAGES)
def test_moderators_get_in(moderator_client, page):
    assert moderator_client.get(reverse(page)).status_code == 200


def test_the_moderation_log_is_read_only(moderator_client, user_factory):
    admin_user = user_factory("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin_user)
    assert client.get(reverse("admin:moderation_moderationaction_add")).status_code == 403
    assert moderator_client.get(reverse("admin:games_game_add")).status_code == 403
