from django.contrib.auth import get_user_model, logout
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services, tokens
from accounts.api.serializers import (
    DeleteAccountSerializer,
    RegisterInputSerializer,
    RegisterOutputSerializer,
    TokenInputSerializer,
    TokenOutputSerializer,
    UserSerializer,
)
from accounts.api.throttles import AddressThrottle, LoginThrottle
from accounts.models import Device
from config.envelope import ErrorEnvelopeSerializer
from config.errors import ApiError
from games.notifications.services import push

User = get_user_model()


class RegisterView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [AddressThrottle]
    throttle_scope = "register"

    @extend_schema(
        request=RegisterInputSerializer,
        responses={
            201: RegisterOutputSerializer,
            409: OpenApiResponse(
                ErrorEnvelopeSerializer,
                description="username_taken (in any case or a look-alike spelling) or email_taken",
            ),
        },
        operation_id="auth_register",
        tags=["auth"],
    )
    def post(self, request):
        data = RegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        # No explicit choice: keep the Accept-Language this request was answered in (emails
        # need a saved language); PATCH me changes it, or clears it with "".
        fields.setdefault("language", get_language() or "en")
        fields["device"] = device_name(request, fields.get("device"))
        user, key = services.register_user(**fields)
        body = RegisterOutputSerializer({"user": user, "token": key}).data
        return Response(body, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [LoginThrottle]
    throttle_scope = "login"

    @extend_schema(
        request=TokenInputSerializer,
        responses={
            200: TokenOutputSerializer,
            401: OpenApiResponse(
                ErrorEnvelopeSerializer, description="invalid_credentials: no such user or password"
            ),
            403: OpenApiResponse(
                ErrorEnvelopeSerializer,
                description="account_suspended (only after the right password)",
            ),
        },
        operation_id="auth_token",
        tags=["auth"],
    )
    def post(self, request):
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.check_credentials(
            username=data.validated_data["username"], password=data.validated_data["password"]
        )
        if user is None:
            raise ApiError(
                "invalid_credentials", _("Unable to log in with these credentials."), status=401
            )
        # Only after the right password, so the answer tells nothing to someone guessing.
        if not user.is_active:
            raise ApiError("account_suspended", _("This account is suspended."), status=403)
        key = services.issue_token(
            user=user, device=device_name(request, data.validated_data.get("device"))
        )
        return Response(TokenOutputSerializer({"token": key}).data)


def device_name(request, given: str | None) -> str:
    return tokens.device_name(given, request.headers.get("User-Agent", ""))


def current_device(request) -> Device | None:
    return request.auth if isinstance(request.auth, Device) else None


class LogoutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None},
        operation_id="auth_logout",
        tags=["auth"],
        description="Ends this sign-in only: its token (or the browser's session). The other "
        "devices stay signed in (DELETE me/devices signs out everywhere).",
    )
    def post(self, request):
        device = current_device(request)
        if device is not None:
            services.sign_out(device=device)  # its push subscriptions go with it
        else:
            push.forget_session(request._request.session.session_key)
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=UserSerializer, operation_id="me_retrieve", tags=["me"])
    def get(self, request):
        return Response(UserSerializer(request.user).data)

    @extend_schema(
        request=UserSerializer,
        responses={
            200: UserSerializer,
            400: OpenApiResponse(
                ErrorEnvelopeSerializer,
                description="password_not_here (change it with POST me/password), invalid",
            ),
            409: OpenApiResponse(ErrorEnvelopeSerializer, description="email_taken"),
        },
        operation_id="me_update",
        tags=["me"],
        description="A new email address starts unverified and gets a verification email.",
    )
    def patch(self, request):
        data = UserSerializer(request.user, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        user = services.update_profile(user=request.user, **data.validated_data)
        return Response(UserSerializer(user).data)

    @extend_schema(
        request=DeleteAccountSerializer,
        responses={
            204: None,
            400: OpenApiResponse(
                ErrorEnvelopeSerializer, description="wrong_password, invalid (no password)"
            ),
        },
        operation_id="me_delete",
        tags=["me"],
        description="Anonymises the account (\"deleted player N\", no email, no password, "
        "every device signed out), resigns its running games and leaves its tables; finished "
        "games stay for the opponents. The username is free again after 30 days.",
    )
    def delete(self, request):
        data = DeleteAccountSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.delete_account(user_id=request.user.pk, password=data.validated_data["password"])
        if current_device(request) is None:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)
