import pytest
from django.contrib.auth.models import Permission
from django.test import Client

MODERATOR_PERMISSIONS = (
    ("games", "view_game"),
    ("games", "change_game"),
    ("games", "view_move"),
    ("moderation", "view_moderationaction"),
    ("accounts", "view_user"),
    ("accounts", "change_user"),
)


@pytest.fixture
def moderator(user_factory):
    """A staff member with the moderators' permissions (not a superuser)."""
    user = user_factory("mod", is_staff=True)
    for app_label, codename in MODERATOR_PERMISSIONS:
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return user


@pytest.fixture
def moderator_client(moderator) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


@pytest.fixture
def computer_to_move(alice, monkeypatch, ai_queue):
    """alice vs the computer (casual), the computer to move first at move 0."""
    from games import services

    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)
    return services.create_game(user=alice, opponent={"ai": "casual"})
