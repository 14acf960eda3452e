from django.contrib.auth import get_user_model
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.api.serializers import (
    RegisterInputSerializer,
    RegisterOutputSerializer,
    TokenInputSerializer,
    TokenOutputSerializer,
    UserSerializer,
)
from accounts.api.throttles import AddressThrottle, LoginThrottle
from config.errors import ApiError
from games.api.serializers import ErrorEnvelopeSerializer

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
        user, token = services.register_user(**fields)
        body = RegisterOutputSerializer({"user": user, "token": token.key}).data
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
        token = services.issue_token(user=user)
        return Response(TokenOutputSerializer({"token": token.key}).data)


class LogoutView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, operation_id="auth_logout", tags=["auth"])
    def post(self, request):
        if isinstance(request.auth, Token):
            request.auth.delete()
        else:
            Token.objects.filter(user=request.user).delete()
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
            409: OpenApiResponse(ErrorEnvelopeSerializer, description="email_taken"),
        },
        operation_id="me_update",
        tags=["me"],
    )
    def patch(self, request):
        data = UserSerializer(request.user, data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        data.save()
        return Response(data.data)
