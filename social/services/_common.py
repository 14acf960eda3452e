from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model

from social import errors

if TYPE_CHECKING:
    from accounts.models import User


def player_named(username: str) -> User:
    """An active player by exact username, or 404 ``player_not_found``."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise errors.player_not_found(username)
    return user
