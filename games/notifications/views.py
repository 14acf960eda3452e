"""One-click unsubscribe (no login, signed link) and the nudge endpoint."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.notifications import emails, services
from games.notifications.texts import text


def _page(language: str, message: str, *, token_ok: bool, show_form: bool, code: int):
    html = render_to_string(
        "notifications/unsubscribe.html",
        {
            "language": language,
            "title": text(language, "unsub_confirm_title"),
            "message": message,
            "button": text(language, "unsub_button"),
            "show_form": show_form and token_ok,
        },
    )
    return HttpResponse(html, status=code)


@csrf_exempt  # RFC 8058: mail providers POST "List-Unsubscribe=One-Click" with no cookies
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a confirmation with a button (link scanners must not unsubscribe anyone);
    POST (the button, or a mail client's one-click) turns the preference off."""
    if request.method not in ("GET", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    try:
        key, preference = emails.read_unsubscribe_token(token)
    except signing.SignatureExpired:
        language = (translation.get_language() or "en").lower()
        message = text(language, "unsub_expired")
        return _page(language, message, token_ok=False, show_form=False, code=410)
    except signing.BadSignature:
        return _page("en", text("en", "unsub_bad"), token_ok=False, show_form=False, code=400)
    user = get_user_model().objects.filter(unsubscribe_key=key).first()
    if user is None:
        return _page("en", text("en", "unsub_bad"), token_ok=False, show_form=False, code=400)
    language = (user.language or "en").lower()
    what = text(language, f"what_{preference}")
    if request.method == "GET":
        message = text(language, "unsub_confirm", what=what)
        return _page(language, message, token_ok=True, show_form=True, code=200)
    services.unsubscribe(user_id=user.pk, preference=preference)
    message = text(language, "unsub_done", what=what)
    return _page(language, message, token_ok=True, show_form=False, code=200)


class NudgeAcceptedSerializer(serializers.Serializer):
    status = serializers.CharField()
    retry_after = serializers.IntegerField(help_text="Seconds until you may nudge again")


class NudgeView(APIView):
    @extend_schema(
        operation_id="games_nudge",
        tags=["games"],
        request=None,
        responses={
            202: NudgeAcceptedSerializer,
            401: OpenApiResponse(description="No or bad token"),
            403: OpenApiResponse(description="not_a_player"),
            404: OpenApiResponse(description="No such game"),
            409: OpenApiResponse(description="not_opponents_turn"),
            429: OpenApiResponse(description="nudge_too_soon (details.retry_after)"),
        },
        description="Remind your (human) opponent that it is their turn; once per 24 h per game.",
    )
    def post(self, request, game_id: int):
        services.nudge(game_id=game_id, user=request.user)
        body = {
            "status": "queued",
            "retry_after": int(services.nudge_interval().total_seconds()),
        }
        return Response(NudgeAcceptedSerializer(body).data, status=status.HTTP_202_ACCEPTED)
