"""The public events of a Crazy Eights move (``engine.events``), each its own schema, told
apart by ``kind``: a move's answer, its history entry and its live event carry a list of them.
Cards are in notation ("8S"), suits one letter ("H"), seats by index. A private event (the
cards a draw brought) never reaches this list."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from config.fast_render import render

SUITS = ("C", "D", "H", "S")


def _kind(value: str) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=(value,))


def _cards(help_text: str = "") -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text)


def _seats(help_text: str = "") -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text=help_text)


class CardsPlayedEvent(serializers.Serializer):
    kind = _kind("cards_played")
    seat = serializers.IntegerField()
    cards = _cards("in the order laid; the last one is on top")


class SuitNamedEvent(serializers.Serializer):
    kind = _kind("suit_named")
    seat = serializers.IntegerField()
    suit = serializers.ChoiceField(choices=SUITS)


class PenaltyRaisedEvent(serializers.Serializer):
    kind = _kind("penalty_raised")
    seat = serializers.IntegerField()
    added = serializers.IntegerField()
    total = serializers.IntegerField(help_text="cards the next player must take")


class SeatsSkippedEvent(serializers.Serializer):
    kind = _kind("seats_skipped")
    seat = serializers.IntegerField()
    skipped = _seats(
        "the seat of each turn skipped, in order, one per Queen; with as many Queens as seats "
        "the skips come round to the player who laid them, whose own next turn is skipped too"
    )


class DirectionReversedEvent(serializers.Serializer):
    kind = _kind("direction_reversed")
    seat = serializers.IntegerField()
    times = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=(1, -1), help_text="1 clockwise, -1 the other way")


class ExtraTurnEvent(serializers.Serializer):
    kind = _kind("extra_turn")
    seat = serializers.IntegerField()


class CardDrawnEvent(serializers.Serializer):
    kind = _kind("card_drawn")
    seat = serializers.IntegerField()


class PenaltyTakenEvent(serializers.Serializer):
    kind = _kind("penalty_taken")
    seat = serializers.IntegerField()
    size = serializers.IntegerField()
    drawn = serializers.IntegerField(help_text="fewer than size only when the stock ran out")


class StockRebuiltEvent(serializers.Serializer):
    kind = _kind("stock_rebuilt")
    size = serializers.IntegerField()


class PassedEvent(serializers.Serializer):
    kind = _kind("passed")
    seat = serializers.IntegerField()


class RoundOverEvent(serializers.Serializer):
    kind = _kind("round_over")
    round = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=("out", "blocked"))
    winner = serializers.IntegerField(allow_null=True)
    hands = serializers.ListField(child=_cards(), help_text="every hand, by seat (now public)")
    points = _seats("what each seat's total changed by")
    scores = _seats("each seat's total")


class RoundStartedEvent(serializers.Serializer):
    kind = _kind("round_started")
    round = serializers.IntegerField()
    dealer = serializers.IntegerField()
    starter = serializers.CharField(help_text="the first card of the discard pile")
    returned = _cards("action cards put back into the stock before the starter")
    hand_size = serializers.IntegerField()


class ResignedEvent(serializers.Serializer):
    kind = _kind("resigned")
    seat = serializers.IntegerField()


class MatchOverEvent(serializers.Serializer):
    kind = _kind("match_over")
    termination = serializers.CharField()
    winners = _seats()
    ranking = _seats("seats best first")
    scores = _seats()


def _kind_of(serializer: type[serializers.Serializer[Any]]) -> str:
    field = serializer._declared_fields["kind"]
    assert isinstance(field, serializers.ChoiceField)
    return str(next(iter(field.choices)))


EVENTS: dict[str, type[serializers.Serializer[Any]]] = {
    _kind_of(serializer): serializer
    for serializer in (
        CardsPlayedEvent, SuitNamedEvent, PenaltyRaisedEvent, SeatsSkippedEvent,
        DirectionReversedEvent, ExtraTurnEvent, CardDrawnEvent, PenaltyTakenEvent,
        StockRebuiltEvent, PassedEvent, RoundOverEvent, RoundStartedEvent, ResignedEvent,
        MatchOverEvent,
    )
}


_SCHEMAS: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {
    **EVENTS
}


@extend_schema_field(PolymorphicProxySerializer(
    component_name="CrazyEightsEvent", serializers=_SCHEMAS, resource_type_field_name="kind",
))
class EventField(serializers.Field):
    """One event, rendered by the serializer of its ``kind`` (a whitelist like every output),
    compiled once per thread (``config.fast_render``: a new serializer per event deep-copied
    its fields, a tenth of a Crazy Eights move request's CPU)."""

    def to_representation(self, event: dict[str, Any]) -> dict[str, Any]:
        return render(EVENTS[event["kind"]], event)


def event_list(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=EventField(), default=list, help_text=help_text)
