"""Crazy Eights's part of the API: the rules of a new match, the move input (notation) and the
``position`` of a game view. Output serializers are whitelists."""

from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField, StrictChoiceField
from config.unions import TaggedUnion, tag_field
from games.crazy_eights.engine.options import TARGETS
from games.crazy_eights.event_serializers import event_list

SUITS = ("C", "D", "H", "S")
TABLE_TARGETS = (100, 200)


# --- input ----------------------------------------------------------------------------------
class RulesInputSerializer(serializers.Serializer):
    actions = StrictBooleanField(default=True, help_text="2 draw two, Queen skip, Ace reverse")
    several = StrictBooleanField(default=True, help_text="several cards of one rank at once")
    classic = StrictBooleanField(
        default=False, help_text="the usual rules: no action cards, the goer-out scores"
    )
    target = StrictChoiceField(
        choices=TARGETS, required=False, allow_null=True,
        help_text="points that end the match (null: 50 per seat; classic: 100)",
    )


class CrazyEightsOptionsSerializer(serializers.Serializer):
    rules = RulesInputSerializer(required=False)


class CrazyEightsPlayMoveSerializer(serializers.Serializer):
    type = tag_field("play", '"play": lay one card, or several of one rank')
    cards = serializers.ListField(
        child=StrictCharField(max_length=3), min_length=1, max_length=4,
        help_text='the cards in the order laid, e.g. ["5C", "5D"]; the last one counts',
    )
    suit = StrictChoiceField(
        choices=SUITS, required=False, help_text="the suit an 8 names (when the last card is one)"
    )


class CrazyEightsDrawMoveSerializer(serializers.Serializer):
    type = tag_field("draw", '"draw": take a card from the stock')


class CrazyEightsTakeMoveSerializer(serializers.Serializer):
    type = tag_field("take", '"take": take the cards a Draw 2 left you')


class CrazyEightsPassMoveSerializer(serializers.Serializer):
    type = tag_field("pass", '"pass": keep the card you drew')


class CrazyEightsNotationMoveSerializer(serializers.Serializer):
    """The first API's move: its notation."""

    move = StrictCharField(
        max_length=200, help_text='"7H", "5C 5D 5S", "8S/H", "draw", "take" or "pass"'
    )


class CrazyEightsMoveSerializer(TaggedUnion):
    """A Crazy Eights move: ``{"type": "play", "cards": [...], "suit": ...}``, ``{"type":
    "draw"}``, ``{"type": "take"}`` or ``{"type": "pass"}``; the first API's ``{"move":
    notation}`` is still taken."""

    variants = {
        "play": CrazyEightsPlayMoveSerializer,
        "draw": CrazyEightsDrawMoveSerializer,
        "take": CrazyEightsTakeMoveSerializer,
        "pass": CrazyEightsPassMoveSerializer,
    }
    untagged = (CrazyEightsNotationMoveSerializer,)


class TableRulesInputSerializer(serializers.Serializer):
    actions = StrictBooleanField(default=True, help_text="2 draw two, Queen skip, Ace reverse")
    several = StrictBooleanField(default=True, help_text="several cards of one rank at once")
    classic = StrictBooleanField(default=False, help_text="the usual rules, no action cards")


class CrazyEightsTableOptionsSerializer(serializers.Serializer):
    """What a table's host chooses: the match's target and the house rules."""

    target = StrictChoiceField(choices=TABLE_TARGETS, help_text="points that end the match")
    rules = TableRulesInputSerializer(
        default=lambda: {"actions": True, "several": True, "classic": False}
    )


# --- output ---------------------------------------------------------------------------------
class CrazyEightsMoveFactsSerializer(serializers.Serializer):
    """What every player sees of a played move beside its notation and score."""

    events = event_list("what the move did, in order")


class CrazyEightsOwnMoveSerializer(CrazyEightsMoveFactsSerializer):
    """The mover's own answer to a played move."""

    cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="the cards you drew"
    )


class RulesSerializer(serializers.Serializer):
    actions = serializers.BooleanField()
    several = serializers.BooleanField()
    classic = serializers.BooleanField()
    target = serializers.IntegerField(allow_null=True)


class CardCountSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    card_count = serializers.IntegerField()
    score = serializers.IntegerField()


class RevealedHandsSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=("out", "blocked"))
    winner = serializers.IntegerField(allow_null=True)
    hands = serializers.ListField(child=serializers.CharField(), help_text="every hand, by seat")
    points = serializers.ListField(child=serializers.IntegerField())


class CrazyEightsPositionSerializer(serializers.Serializer):
    """The Crazy Eights ``position`` of a game view: your hand, the pile, and card counts."""

    rules = RulesSerializer()
    goal = serializers.IntegerField(help_text="the score that ends the match")
    round = serializers.IntegerField()
    dealer = serializers.IntegerField()
    hand = serializers.ListField(child=serializers.CharField(), help_text='your cards, e.g. "8S"')
    drawn = serializers.CharField(allow_null=True, help_text="the card you drew this turn")
    top = serializers.CharField(help_text="the top card of the discard pile")
    suit = serializers.ChoiceField(choices=SUITS, help_text="the suit to follow")
    penalty = serializers.IntegerField(help_text="cards a pending draw-two makes you take")
    draws_this_turn = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=(1, -1))
    stock_size = serializers.IntegerField()
    discard_size = serializers.IntegerField()
    last_stock = serializers.BooleanField(
        help_text="the stock was rebuilt for the last time this round: once empty, nobody draws"
    )
    players = CardCountSerializer(many=True)
    revealed_hands = RevealedHandsSerializer(
        allow_null=True, help_text="the last finished round, with every hand"
    )
    ranking = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="seats best first, once over"
    )
