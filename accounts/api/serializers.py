from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from rest_framework import serializers

from accounts import services
from accounts.models import Language, normalize_language
from accounts.validators import (
    DISPLAY_NAME_MAX_LENGTH,
    refuse_control_characters,
    refuse_invisible_tricks,
)
from config.errors import ApiError
from config.fields import (
    NewPasswordField,
    StrictCharField,
    StrictEmailField,
    StrictModelSerializer,
)

User = get_user_model()


def profile_extras(user) -> dict:
    """What other apps add to the account (``ACCOUNT_PROFILE_EXTRAS``: the Daily Puzzle's
    streaks), so accounts imports none of them."""
    found: dict = {}
    for path in settings.ACCOUNT_PROFILE_EXTRAS:
        found.update(import_string(path)(user))
    return found


class LanguageField(serializers.ChoiceField):
    """A language code in any case, with '-' or '_' (pt-BR, pt_br), stored as "pt-br"."""

    def __init__(self, **kwargs):
        super().__init__(choices=Language.choices, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str):
            data = normalize_language(data)
        return super().to_internal_value(data)


class UserSerializer(StrictModelSerializer):
    email = StrictEmailField(
        required=False, allow_blank=True, max_length=254, validators=[refuse_control_characters]
    )
    language = LanguageField(required=False, allow_blank=True)
    puzzle_streak = serializers.SerializerMethodField()
    best_puzzle_streak = serializers.SerializerMethodField()

    def _extras(self, user) -> dict:
        """``profile_extras``, asked once for both fields."""
        cache = self.__dict__.setdefault("_extras_cache", {})
        if user.pk not in cache:
            cache[user.pk] = profile_extras(user)
        return cache[user.pk]

    def validate_email(self, value: str) -> str:
        exclude = self.instance.pk if self.instance is not None else None
        if services.email_taken(value, exclude_pk=exclude):
            raise services.taken("email")
        return value

    def get_puzzle_streak(self, user) -> int:
        return int(self._extras(user).get("puzzle_streak", 0))

    def get_best_puzzle_streak(self, user) -> int:
        return int(self._extras(user).get("best_puzzle_streak", 0))

    class Meta:
        model = User
        fields = (
            "id",
            "username",
            "email",
            "display_name",
            "language",
            "turn_emails",
            "reminder_emails",
            "result_emails",
            "email_verified",
            "puzzle_streak",
            "best_puzzle_streak",
        )
        read_only_fields = ("id", "username", "email_verified")
        # Emoji joined by a zero-width joiner are names too (the model's column is longer
        # and keeps its stricter validator for old rows and staff forms).
        extra_kwargs = {"display_name": {
            "max_length": DISPLAY_NAME_MAX_LENGTH, "validators": [refuse_invisible_tricks],
        }}

    def to_internal_value(self, data):
        # PATCH me used to answer 200 to {"password": ...} and change nothing: say where to go.
        if isinstance(data, dict) and "password" in data:
            raise ApiError(
                "password_not_here",
                _("Change your password with POST /api/v1/me/password (with the current one)."),
                details={"password": [_("Not changed here.")]},
            )
        return super().to_internal_value(data)


class RegisterInputSerializer(StrictModelSerializer):
    email = StrictEmailField(
        required=True, allow_blank=False, max_length=254, validators=[refuse_control_characters]
    )
    password = NewPasswordField()  # checked in validate(); the schema states the rules it can
    # Not given: the view saves the language the registration request was answered in.
    language = LanguageField(required=False)
    device = StrictCharField(required=False, allow_blank=True, max_length=100, write_only=True,
                             help_text="A name for this sign-in (else the User-Agent's).")

    class Meta:
        model = User
        fields = ("username", "email", "password", "language", "device")
        # New names are ASCII (letters, digits, @.+-_: exactly the schema's pattern, and no
        # room for look-alikes from other scripts); older accounts may keep theirs. The model's
        # UniqueValidator would answer 400 for an exact duplicate only: validate_username
        # answers 409 username_taken for any case or look-alike.
        extra_kwargs = {"username": {"validators": [ASCIIUsernameValidator()]}}

    def validate_username(self, value: str) -> str:
        # The model's username validator refuses controls already; this keeps it so if the
        # allowed characters ever widen (usernames reach email headers).
        try:
            refuse_control_characters(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(list(exc.messages)) from exc
        # Any case, and look-alikes (Cyrillic "р22" for "p22"), count as the same name.
        if services.username_taken(value):
            raise services.taken("username")
        return value

    def validate_email(self, value: str) -> str:
        if services.email_taken(value):
            raise services.taken("email")
        return value

    def validate(self, attrs):
        candidate = User(username=attrs.get("username", ""), email=attrs.get("email", ""))
        try:
            validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as exc:
            # A well-formed password refused by a rule the schema cannot state (too common,
            # too like the username): its own code, so clients can tell it from a bad request.
            raise ApiError(
                "weak_password", _("Choose another password."),
                details={"password": list(exc.messages)},
            ) from exc
        return attrs


class RegisterOutputSerializer(serializers.Serializer):
    user = UserSerializer()
    token = serializers.CharField()


class TokenInputSerializer(serializers.Serializer):
    username = StrictCharField()
    password = StrictCharField(trim_whitespace=False, style={"input_type": "password"})
    device = StrictCharField(required=False, allow_blank=True, max_length=100,
                             help_text="A name for this sign-in (else the User-Agent's).")


def _password(**kwargs) -> StrictCharField:
    return StrictCharField(trim_whitespace=False, style={"input_type": "password"},
                           max_length=4096, **kwargs)


class TokenOnlySerializer(serializers.Serializer):
    token = StrictCharField(max_length=1000)


class ChangePasswordSerializer(serializers.Serializer):
    current_password = _password()
    new_password = NewPasswordField()


class ResetRequestSerializer(serializers.Serializer):
    email = StrictEmailField(max_length=254)


class ResetConfirmSerializer(serializers.Serializer):
    token = StrictCharField(max_length=1000)
    new_password = NewPasswordField()


class DeleteAccountSerializer(serializers.Serializer):
    password = _password()


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class DeviceSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)
    expires = serializers.DateTimeField(source="expiry", allow_null=True)
    current = serializers.SerializerMethodField()

    def get_current(self, device) -> bool:
        return device.pk == self.context.get("current_id")


class RevokedSerializer(serializers.Serializer):
    revoked = serializers.IntegerField()


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()
