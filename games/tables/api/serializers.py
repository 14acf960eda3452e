"""Input and output of the tables API (output serializers are whitelists)."""

from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictChoiceField
from games.tables.models import TARGETS


class TableRulesInput(serializers.Serializer):
    actions = StrictBooleanField(default=True, help_text="2 draw two, Queen skip, Ace reverse")
    several = StrictBooleanField(default=True, help_text="several cards of one rank at once")
    classic = StrictBooleanField(default=False, help_text="the usual rules, no action cards")


class CreateTableInput(serializers.Serializer):
    target = StrictChoiceField(choices=TARGETS, help_text="points that end the match")
    rules = TableRulesInput(required=False)


class InviteInput(serializers.Serializer):
    username = StrictCharField(max_length=150)


class TableRulesOutput(serializers.Serializer):
    actions = serializers.BooleanField()
    several = serializers.BooleanField()
    classic = serializers.BooleanField()
    target = serializers.IntegerField()


class TableSeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True, help_text="null: a free seat")
    username = serializers.CharField(allow_null=True)
    is_computer = serializers.BooleanField()
    away = serializers.BooleanField(help_text="the computer plays this seat meanwhile")
    left = serializers.BooleanField(help_text="the person left; joining again takes it back")


class TableOutput(serializers.Serializer):
    code = serializers.CharField()
    share_url = serializers.CharField()
    status = serializers.CharField(help_text="open, dealt or closed")
    host = serializers.CharField(help_text="the host's username")
    target = serializers.IntegerField()
    rules = TableRulesOutput()
    seats = TableSeatOutput(many=True)
    turn_seconds = serializers.IntegerField()
    game_id = serializers.IntegerField(allow_null=True, help_text="set once the cards are dealt")
    game_status = serializers.CharField(allow_null=True)
