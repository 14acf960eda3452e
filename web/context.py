"""Template context for every page: the languages and the "waiting for you" badge."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from games import selectors


def site(request: HttpRequest) -> dict[str, Any]:
    if not request.path.startswith("/api/") and not request.path.startswith("/admin/"):
        user = getattr(request, "user", None)
        waiting = (
            selectors.waiting_for_you_count(user=user)
            if user is not None and user.is_authenticated
            else 0
        )
        return {"languages": settings.LANGUAGES, "waiting_count": waiting}
    return {}
