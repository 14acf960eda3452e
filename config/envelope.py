"""The error envelope every refusal of the API has: ``{"error": {"code", "message",
"details"}}`` (rendered by ``config.exceptions.exception_handler``), as a serializer that
operations name in their documented responses."""

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable: what went wrong, for programs")
    message = serializers.CharField(help_text="the same in the player's language")
    details = serializers.DictField(help_text="more about it (e.g. the fields concerned)")


class ErrorEnvelopeSerializer(serializers.Serializer):
    error = ErrorSerializer()
