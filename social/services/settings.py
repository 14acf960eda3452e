"""A player's social choices: hide the profile, mute chat everywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from social.models import SocialSettings

if TYPE_CHECKING:
    from accounts.models import User

FIELDS = ("hide_profile", "mute_all_chat")


def settings_of(user_id: int) -> SocialSettings:
    """The player's settings (defaults when they never changed one; not saved then)."""
    return SocialSettings.objects.filter(user_id=user_id).first() or SocialSettings(
        user_id=user_id
    )


def update(*, user: User, **changes: bool) -> SocialSettings:
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown social settings {sorted(unknown)}")
    with transaction.atomic():
        row, _ = SocialSettings.objects.select_for_update().get_or_create(user=user)
        for name, value in changes.items():
            setattr(row, name, value)
        row.save()
        return row
