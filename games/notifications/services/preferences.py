"""Email preferences changed from outside the account settings (the unsubscribe link)."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def unsubscribe(*, user_id: int, preference: str) -> None:
    value = "off" if preference == "turn_emails" else False
    get_user_model().objects.filter(pk=user_id).update(**{preference: value})
