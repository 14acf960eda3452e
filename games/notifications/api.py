"""Web push in the API: the device's subscription (``me/push/subscriptions``) and the person's
choices (``me/push``). Thin: the rules are in ``services.push``."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Device
from config.envelope import ErrorEnvelopeSerializer
from config.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from config.parsers import JSONParser
from games.notifications.services import push

SUBSCRIBE_ERRORS = (
    "push_endpoint_insecure (not https://), push_endpoint_private (a loopback, private or "
    "local address, or a name resolving to one), push_endpoint_invalid (also a host name "
    "that does not resolve), push_endpoint_too_long (over 1000 characters), "
    "push_key_invalid (keys.p256dh is not an uncompressed P-256 point), push_auth_invalid "
    "(keys.auth is not 16 bytes); invalid for a missing or oversize field. Nothing is stored."
)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorEnvelopeSerializer, description=description)


class PushKeysInput(serializers.Serializer):
    p256dh = StrictCharField(max_length=100, help_text="The browser's ECDH public key "
                             "(base64url, from PushSubscription.toJSON()).")
    auth = StrictCharField(max_length=40, help_text="The browser's auth secret (base64url).")


class PushSubscriptionInput(serializers.Serializer):
    """What ``PushSubscription.toJSON()`` gives in a browser, as it is."""

    endpoint = StrictCharField(max_length=1000, help_text="The push service's URL (https).")
    expirationTime = StrictIntegerField(  # noqa: N815 (the browser's name)
        required=False, allow_null=True, help_text="Ignored (the browsers send it)."
    )
    keys = PushKeysInput()


class PushSubscriptionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    endpoint_host = serializers.CharField(source="host")
    created_at = serializers.DateTimeField()
    last_success_at = serializers.DateTimeField(allow_null=True)
    failures = serializers.IntegerField()


class PushSettingsSerializer(serializers.Serializer):
    public_key = serializers.CharField(
        read_only=True, allow_null=True,
        help_text="The server's VAPID public key (base64url): the applicationServerKey to "
        "subscribe with; null when push is not configured.",
    )
    turn = StrictBooleanField(required=False, help_text="It is your turn")
    nudge = StrictBooleanField(required=False, help_text="Your opponent nudged you")
    invite = StrictBooleanField(required=False, help_text="A table invitation; the host dealt")
    chat = StrictBooleanField(required=False, help_text="A chat message in your game")
    result = StrictBooleanField(required=False, help_text="A game's result")
    reminder = StrictBooleanField(required=False, help_text="Your turn's deadline is near")
    email_too = StrictBooleanField(
        required=False, help_text="Email a turn at once even when it was pushed (otherwise "
        "only if it is still waiting PUSH_EMAIL_DELAY_MINUTES later)",
    )


def _settings_body(user_id: int) -> dict:
    row = push.settings_of(user_id)
    body = {name: getattr(row, name) for name in push.SETTINGS_FIELDS}
    body["public_key"] = push.public_key()
    return body


class _Base(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]


class PushSettingsView(_Base):
    @extend_schema(operation_id="me_push_retrieve", tags=["me"],
                   responses={200: PushSettingsSerializer},
                   description="Your push choices (one per kind of message) and the server's "
                   "VAPID public key to subscribe with.")
    def get(self, request):
        return Response(PushSettingsSerializer(_settings_body(request.user.pk)).data)

    @extend_schema(operation_id="me_push_update", tags=["me"],
                   request=PushSettingsSerializer,
                   responses={200: PushSettingsSerializer},
                   description="Switch kinds of push on or off (the fields you send).")
    def patch(self, request):
        data = PushSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        push.update_settings(user_id=request.user.pk, **data.validated_data)
        return Response(PushSettingsSerializer(_settings_body(request.user.pk)).data)


class PushSubscriptionsView(_Base):
    @extend_schema(operation_id="me_push_subscriptions", tags=["me"],
                   responses={200: PushSubscriptionOutput(many=True)},
                   description="Your devices' push subscriptions, newest first (no keys).")
    def get(self, request):
        rows = push.subscriptions_of(request.user.pk)
        return Response(PushSubscriptionOutput(rows, many=True).data)

    @extend_schema(
        operation_id="me_push_subscribe", tags=["me"], request=PushSubscriptionInput,
        responses={201: PushSubscriptionOutput, 200: PushSubscriptionOutput,
                   400: _error(SUBSCRIBE_ERRORS)},
        description="Store this device's push subscription (the body of "
        "`PushSubscription.toJSON()`), tied to this sign-in: signing out or revoking the "
        "device deletes it. 201 when new; 200 when this endpoint was known (it now belongs to "
        "you and this sign-in).",
    )
    def post(self, request):
        data = PushSubscriptionInput(data=request.data)
        data.is_valid(raise_exception=True)
        body = data.validated_data
        device = request.auth if isinstance(request.auth, Device) else None
        session_key = "" if device else (request.session.session_key or "")
        row, created = push.subscribe(
            user=request.user, endpoint=body["endpoint"], p256dh=body["keys"]["p256dh"],
            auth=body["keys"]["auth"], device=device, session_key=session_key,
        )
        return Response(PushSubscriptionOutput(row).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class PushSubscriptionView(_Base):
    @extend_schema(operation_id="me_push_unsubscribe", tags=["me"], request=None,
                   responses={204: None, 404: _error("push_subscription_not_found")},
                   description="Delete one of your push subscriptions.")
    def delete(self, request, subscription_id: int):
        push.unsubscribe(user_id=request.user.pk, subscription_id=subscription_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
