from rest_framework import serializers

from games.correspondence import rules


class VacationPeriodSerializer(serializers.Serializer):
    started_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(
        help_text="it ends itself then; your turn clocks resume with the time they had left"
    )


class VacationStateSerializer(serializers.Serializer):
    available_days = serializers.IntegerField(
        help_text="whole days you may still take (a running vacation's are already taken)"
    )
    maximum_days = serializers.IntegerField(
        help_text="the most days you can hold and the longest vacation"
    )
    days_per_week = serializers.IntegerField(help_text="days earned per week since sign-up")
    vacation = VacationPeriodSerializer(allow_null=True, help_text="null: not on vacation")


class VacationInputSerializer(serializers.Serializer):
    days = serializers.IntegerField(min_value=1, max_value=rules.MAXIMUM_DAYS)
