"""Account endpoints of issue 14: email verification, passwords, devices, reports, export and
deletion. Thin: each validates its body and calls one service."""

from __future__ import annotations

from django.contrib.auth import logout, update_session_auth_hash
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import export, services, tokens
from accounts.api.serializers import (
    ChangePasswordSerializer,
    DetailSerializer,
    DeviceSerializer,
    ResetConfirmSerializer,
    ResetRequestSerializer,
    RevokedSerializer,
    TokenOnlySerializer,
    UserSerializer,
)
from accounts.api.throttles import AddressThrottle, PasswordResetThrottle, UserThrottle
from accounts.api.views import current_device
from config.envelope import ErrorEnvelopeSerializer
from config.fields import StrictCharField, StrictChoiceField, StrictIntegerField
from config.schema import CrossFieldRules
from games.moderation import reports
from games.moderation.models import Report


def _errors(description: str, status_code: int = 400) -> dict:
    return {status_code: OpenApiResponse(ErrorEnvelopeSerializer, description=description)}


LINK_ERRORS = "link_invalid (forged or garbled), link_expired, link_used (used or replaced)"


class VerifyEmailView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [AddressThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=TokenOnlySerializer,
        responses={200: UserSerializer, **_errors(LINK_ERRORS)},
        operation_id="auth_email_verify",
        tags=["auth"],
        description="The token of a verification link "
        "(SITE_BASE_URL/account/verify-email?token=...), valid for 3 days.",
    )
    def post(self, request):
        data = TokenOnlySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.verify_email(token=data.validated_data["token"])
        return Response(UserSerializer(user).data)


class ResendVerificationView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [UserThrottle]
    throttle_scope = "email_resend"

    @extend_schema(
        request=None,
        responses={
            202: DetailSerializer,
            **_errors("already_verified, or no_email (the account has no address)", 409),
        },
        operation_id="auth_email_resend",
        tags=["auth"],
    )
    def post(self, request):
        services.resend_verification(user_id=request.user.pk)
        return Response(
            {"detail": _("A new verification email is on its way.")},
            status=status.HTTP_202_ACCEPTED,
        )


class ChangePasswordView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ChangePasswordSerializer,
        responses={
            204: None,
            **_errors("wrong_password (the current one), weak_password, invalid"),
        },
        operation_id="me_password",
        tags=["me"],
        description="Every other device and session is signed out; this one stays.",
    )
    def post(self, request):
        data = ChangePasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.change_password(
            user_id=request.user.pk,
            current_password=data.validated_data["current_password"],
            new_password=data.validated_data["new_password"],
            keep=current_device(request),
        )
        if current_device(request) is None:
            update_session_auth_hash(request._request, user)  # this browser stays signed in
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [PasswordResetThrottle]
    throttle_scope = "password_reset"

    @extend_schema(
        request=ResetRequestSerializer,
        responses={202: DetailSerializer},
        operation_id="auth_password_reset",
        tags=["auth"],
        description="The same answer, after the same work, whether or not an account has the "
        "address; if one has, it gets a link valid for one hour "
        "(SITE_BASE_URL/account/reset-password?token=...).",
    )
    def post(self, request):
        data = ResetRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.request_password_reset(email=data.validated_data["email"])
        return Response(
            {"detail": _("If an account has this address, a link to reset its password is on "
                         "its way.")},
            status=status.HTTP_202_ACCEPTED,
        )


class PasswordResetConfirmView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [AddressThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=ResetConfirmSerializer,
        responses={204: None, **_errors(f"{LINK_ERRORS}, weak_password, invalid")},
        operation_id="auth_password_reset_confirm",
        tags=["auth"],
        description="Sets the new password once; every device and session is signed out.",
    )
    def post(self, request):
        data = ResetConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.reset_password(
            token=data.validated_data["token"], new_password=data.validated_data["new_password"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class DevicesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=DeviceSerializer(many=True), operation_id="me_devices", tags=["me"],
        description="Every signed-in device (one per sign-in), newest first; `current` marks "
        "the one asking. A token unused for 90 days expires.",
    )
    def get(self, request):
        devices = tokens.live().filter(user=request.user).order_by("-created", "-id")
        current = current_device(request)
        context = {"current_id": current.pk if current else None}
        return Response(DeviceSerializer(devices, many=True, context=context).data)

    @extend_schema(
        request=None, responses={200: RevokedSerializer}, operation_id="me_devices_revoke_all",
        tags=["me"], description="Signs out every device, this one included.",
    )
    def delete(self, request):
        revoked = services.revoke_all_devices(user_id=request.user.pk)
        if current_device(request) is None:
            logout(request._request)
        return Response({"revoked": revoked})


class DeviceView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None, **_errors("device_not_found", 404)},
        operation_id="me_device_revoke",
        tags=["me"],
    )
    def delete(self, request, device_id: int):
        services.revoke_device(user_id=request.user.pk, device_id=device_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ReportInputSerializer(serializers.Serializer):
    player = StrictCharField(required=False, max_length=150, help_text="A username.")
    game = StrictIntegerField(required=False, min_value=1)
    reason = StrictChoiceField(choices=Report.Reason.choices)
    text = StrictCharField(required=False, allow_blank=True, max_length=2000, default="")

    def validate(self, attrs):
        if ("player" in attrs) == ("game" in attrs):
            raise serializers.ValidationError(_("Name either a player or a game."))
        return attrs


class ReportTargetRules(CrossFieldRules):
    """The schema states validate()'s rule: a player or a game, not both."""

    target_class = ReportInputSerializer
    rules = {"oneOf": [{"required": ["player"]}, {"required": ["game"]}]}


class ReportOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.SerializerMethodField()
    game = serializers.IntegerField(source="game_id", allow_null=True)
    reason = serializers.CharField()
    text = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()

    def get_player(self, report) -> str | None:
        return report.player.username if report.player_id else None


class ReportsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [UserThrottle]
    throttle_scope = "reports"

    @extend_schema(
        request=ReportInputSerializer,
        responses={
            201: ReportOutputSerializer,
            **_errors("cannot_report_yourself, invalid, unknown_fields"),
            **_errors("not_a_player: you did not play in the game you report", 403),
            **_errors("player_not_found, not_found (no such game)", 404),
            **_errors("already_reported (the same target once a day)", 409),
        },
        operation_id="reports_create",
        tags=["reports"],
    )
    def post(self, request):
        data = ReportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        report = reports.file_report(
            reporter=request.user, reason=v["reason"], text=v["text"],
            username=v.get("player"), game_id=v.get("game"),
        )
        return Response(ReportOutputSerializer(report).data, status=status.HTTP_201_CREATED)


class ExportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=inline_serializer("AccountExport", {
            "exported_at": serializers.DateTimeField(),
            "profile": serializers.DictField(),
            "notification_settings": serializers.DictField(),
            "devices": serializers.ListField(child=serializers.DictField()),
            "games": serializers.ListField(child=serializers.DictField()),
            "puzzle_attempts": serializers.ListField(child=serializers.DictField()),
            "reports": serializers.ListField(child=serializers.DictField()),
        }),
        operation_id="me_export",
        tags=["me"],
    )
    def get(self, request):
        return Response(export.export(request.user))
