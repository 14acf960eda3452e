"""The player's language: their saved ``User.language``, else ``Accept-Language``, else English.

Django's ``LocaleMiddleware`` picks the language from ``Accept-Language`` before the view runs,
but a token-authenticated user is only known inside DRF (authentication is lazy, in the view's
``initial()``). The authentication classes below therefore switch to the user's saved language
the moment DRF authenticates them, before any validation message or error envelope is built;
``LocaleMiddleware`` then reports the active language in ``Content-Language``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import translation
from rest_framework.authentication import BaseAuthentication, SessionAuthentication

if TYPE_CHECKING:
    from django.http import HttpRequest
    from rest_framework.request import Request

    from accounts.models import User

SUPPORTED = {code for code, _name in settings.LANGUAGES}


def language_of(user: User) -> str | None:
    """The user's saved language when it is one we serve (else None: keep the request's)."""
    language = (getattr(user, "language", "") or "").lower()
    return language if language in SUPPORTED else None


def activate_for_user(request: HttpRequest | Request, user: User) -> None:
    language = language_of(user)
    if language is None:
        return
    translation.activate(language)
    # DRF's Request proxies attribute reads to the Django request; set it on the real one.
    django_request = getattr(request, "_request", request)
    django_request.LANGUAGE_CODE = language


class LanguageTokenAuthentication(BaseAuthentication):
    """``Authorization: Token <key>``: a device token (``accounts.tokens``, django-rest-knox).

    DRF imports its authentication classes while Django is still loading (a Celery app, a
    management command), before models may be imported; knox's module imports its models. So
    the knox-based class is looked up at the first request instead of at import."""

    keyword = "Token"

    def authenticate(self, request):
        from accounts.tokens import DeviceTokenAuthentication

        result = DeviceTokenAuthentication().authenticate(request)
        if result is not None:
            activate_for_user(request, result[0])
        return result

    def authenticate_header(self, request) -> str:
        return self.keyword


class LanguageSessionAuthentication(SessionAuthentication):
    def authenticate(self, request):
        result = super().authenticate(request)
        if result is not None:
            activate_for_user(request, result[0])
        return result
