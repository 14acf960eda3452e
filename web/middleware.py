"""The signed-in player's saved language for every page (and session API call).

``LocaleMiddleware`` has already chosen from the language cookie or ``Accept-Language``; a
player who saved a language in their settings sees that one on every device instead.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.authentication import language_of


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = language_of(user)
            if language is not None and language != request.LANGUAGE_CODE:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if user is not None and user.is_authenticated and language_of(user):
            response.headers["Content-Language"] = request.LANGUAGE_CODE
        return response
