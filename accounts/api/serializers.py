from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from accounts.models import Language

User = get_user_model()


class UserSerializer(serializers.ModelSerializer):
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
        )
        read_only_fields = ("id", "username")


class RegisterInputSerializer(serializers.ModelSerializer):
    email = serializers.EmailField(required=True, allow_blank=False)
    password = serializers.CharField(
        write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )
    language = serializers.ChoiceField(
        choices=Language.choices, required=False, default=Language.EN
    )

    class Meta:
        model = User
        fields = ("username", "email", "password", "language")

    def validate(self, attrs):
        candidate = User(username=attrs.get("username", ""), email=attrs.get("email", ""))
        try:
            validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class RegisterOutputSerializer(serializers.Serializer):
    user = UserSerializer()
    token = serializers.CharField()


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()
