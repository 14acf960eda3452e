"""Response bodies of the games API: generic envelopes around each kind's own serializers.

Every output that has a kind-specific part (a game view, a list entry, a played move, a
history entry, a preview, how-to-play) is one class per kind, built here from a generic
envelope and the kind's serializer (``games.kinds.base.GameKind``), so the schema shows each
kind's shape and a response is rendered by the class of its game's kind. Output serializers
are whitelists: a key a selector or an engine might add never reaches a player unless it is
declared here or in the kind's serializer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from config.fast_render import compile_output
from games import kinds
from games.kinds.base import GameKind
from games.models import Game
from games.results import SERVICE_TERMINATIONS

LEVELS = tuple(dict.fromkeys(level for k in kinds.all_kinds() for level in k.levels))
MOVE_KINDS = tuple(dict.fromkeys(m for k in kinds.all_kinds() for m in k.move_kinds))
TERMINATIONS = tuple(
    dict.fromkeys([t for k in kinds.all_kinds() for t in k.terminations] + [*SERVICE_TERMINATIONS])
)
OUTCOMES = ("win", "loss", "draw", "none")
KIND_NAMES = tuple(kinds.names())


def _name(kind: GameKind, suffix: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in kind.name.split("_")) + suffix


def _compose(for_kind: GameKind, suffix: str, *bases: type | None, **fields: Any) -> type:
    """A serializer class named after ``for_kind``: the envelope's fields and the kind's."""
    return type(_name(for_kind, suffix), tuple(b for b in bases if b is not None), fields)


def _union(name: str, factory, of=None, **extra: Any) -> PolymorphicProxySerializer:
    """One schema per kind, told apart by ``kind`` (a discriminator generators read)."""
    return PolymorphicProxySerializer(
        component_name=name,
        serializers={k.name: factory(k) for k in (of or kinds.all_kinds())},
        resource_type_field_name="kind",
        **extra,
    )


# --- the generic parts ----------------------------------------------------------------------
class PlayerSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=("human", "computer"))
    username = serializers.CharField(allow_null=True)
    display_name = serializers.CharField()
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True)
    level_description = serializers.CharField(
        allow_null=True, help_text="What the computer player is like (null for a person)"
    )


class ScoresSerializer(serializers.Serializer):
    you = serializers.IntegerField()
    opponent = serializers.IntegerField()


class ResultSerializer(serializers.Serializer):
    termination = serializers.ChoiceField(choices=TERMINATIONS)
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="winning seats (empty: a draw or none)"
    )
    scores = ScoresSerializer()
    adjustments = ScoresSerializer()


class SeatSummarySerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    username = serializers.CharField(allow_null=True)
    level = serializers.ChoiceField(choices=LEVELS, allow_null=True)
    score = serializers.IntegerField()
    result = serializers.ChoiceField(
        choices=OUTCOMES, allow_null=True, help_text="once it is over"
    )
    is_you = serializers.BooleanField()
    is_computer = serializers.BooleanField()
    away = serializers.BooleanField(help_text="the computer plays this seat meanwhile")
    vacation_until = serializers.DateTimeField(
        allow_null=True,
        help_text="the player is on vacation until then: their correspondence turn clocks "
        "stand still (null: not on vacation)",
    )


class SeatPlayerSerializer(SeatSummarySerializer):
    piece_count = serializers.IntegerField(help_text="tiles on the rack / cards in hand")


class TurnFields(serializers.Serializer):
    """Whose turn it is, in every view and list entry of every kind."""

    your_seat = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True, help_text="seat to move (null: nobody)")
    your_turn = serializers.BooleanField(help_text="the game is active and you are to move")


class GameViewEnvelope(TurnFields):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    seat_count = serializers.IntegerField()
    players = SeatPlayerSerializer(many=True)
    move_number = serializers.IntegerField(help_text="moves played so far")
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="null when over, untimed, or while the player to move is on vacation",
    )
    turn_hours = serializers.IntegerField()
    rated = serializers.BooleanField(help_text="the result changes the players' ratings")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultSerializer(allow_null=True)


class CoachNoteSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class TwoSeatFields(serializers.Serializer):
    """The first API's fields of a two-seat game (kinds with ``v1_view_output``)."""

    opponent = PlayerSerializer(allow_null=True)
    opponent_rack_size = serializers.IntegerField()
    scores = ScoresSerializer()


class SummaryEnvelope(TurnFields):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    seat_count = serializers.IntegerField()
    players = SeatSummarySerializer(many=True)
    opponent = PlayerSerializer(
        allow_null=True, help_text="the seat after yours (in a two-seat game: your opponent)"
    )
    scores = ScoresSerializer()
    move_number = serializers.IntegerField()
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="null when over, untimed, or while the player to move is on vacation",
    )
    turn_hours = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    result = ResultSerializer(allow_null=True)


class HistoryEnvelope(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    mine = serializers.BooleanField()
    player = serializers.CharField(allow_null=True)
    kind = serializers.ChoiceField(choices=MOVE_KINDS, help_text="the move's kind")
    notation = serializers.CharField(help_text="an opponent's swap shows only the count")
    score = serializers.IntegerField()
    best_score = serializers.IntegerField(
        allow_null=True,
        help_text="the best score the mover could have made (null: not analysed yet, not a "
        "move that gets one, or another player's move while the game runs)",
    )
    best_notation = serializers.CharField(
        allow_null=True, allow_blank=True,
        help_text='that best move ("" when nothing could be placed)',
    )
    percent_of_best = serializers.FloatField(
        allow_null=True, help_text="score / best_score in percent (100 when best_score is 0)"
    )
    is_timeout = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class MoveErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


class PreviewEnvelope(serializers.Serializer):
    legal = serializers.BooleanField()
    score = serializers.IntegerField(allow_null=True)
    error = MoveErrorSerializer(allow_null=True)


class HowToSectionSerializer(serializers.Serializer):
    heading = serializers.CharField()
    text = serializers.CharField()


class HowToPlayEnvelope(serializers.Serializer):
    language = serializers.CharField()
    title = serializers.CharField()
    sections = HowToSectionSerializer(many=True)


# --- one class per kind -----------------------------------------------------------------------
def _kind_field(kind: GameKind) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=(kind.name,))


@cache
def game_view(kind: GameKind) -> type[serializers.Serializer]:
    """A game view: the envelope, the kind's ``position``, coach notes, and for a kind with
    v1 fields its top-level fields (two-seat games)."""
    v1 = kind.v1_view_output
    return _compose(
        kind, "GameViewSerializer", GameViewEnvelope, v1, TwoSeatFields if v1 else None,
        kind=_kind_field(kind),
        position=kind.position_output(),
        coach=CoachNoteSerializer(
            many=True, required=False,
            help_text="during your first game of the kind: notes on what just happened",
        ),
    )


@cache
def summary(kind: GameKind) -> type[serializers.Serializer]:
    return _compose(
        kind, "GameSummarySerializer", SummaryEnvelope, kind.summary_output, kind=_kind_field(kind)
    )


@cache
def move_played(kind: GameKind) -> type[serializers.Serializer]:
    return _compose(
        kind, "MovePlayedSerializer", kind.move_output,
        kind=_kind_field(kind),
        score=serializers.IntegerField(help_text="points the move scored"),
        game=game_view(kind)(),
    )


@cache
def history_entry(kind: GameKind) -> type[serializers.Serializer]:
    return _compose(kind, "MoveHistorySerializer", HistoryEnvelope, kind.history_output)


@cache
def preview(kind: GameKind) -> type[serializers.Serializer]:
    return _compose(
        kind, "PreviewSerializer", PreviewEnvelope, kind.preview_output, kind=_kind_field(kind)
    )


@cache
def how_to_play(kind: GameKind) -> type[serializers.Serializer]:
    return _compose(
        kind, "HowToPlaySerializer", HowToPlayEnvelope, kind.howto_output, kind=_kind_field(kind)
    )


_renderers = threading.local()


def _renderer(factory, kind: GameKind) -> serializers.Serializer:
    """One bound instance per output class and thread, reused: a serializer deep-copies its
    declared fields (and its nested serializers') for every new instance, which was a fifth
    of a move request. Rendering reads the bound fields only; none of these uses a context."""
    cached = getattr(_renderers, "by_class", None)
    if cached is None:
        cached = _renderers.by_class = {}
    output = factory(kind)
    renderer = cached.get(output)
    if renderer is None:
        renderer = cached[output] = output()
    return renderer


def _render(factory, body: dict[str, Any], kind_key: str = "kind") -> dict[str, Any]:
    return dict(_renderer(factory, kinds.get(body[kind_key])).to_representation(body))


def render_view(view: dict[str, Any]) -> dict[str, Any]:
    return _render(game_view, view)


def render_summary(entry: dict[str, Any]) -> dict[str, Any]:
    return dict(_compiled(summary, kinds.get(entry["kind"]))(entry))


def render_summaries(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """List entries in their order, each rendered by its kind's compiled serializer
    (``_compiled``: DRF's per-field walk was a third of a list request's CPU; building a
    serializer per entry cost ~4 ms each)."""
    return [render_summary(entry) for entry in entries]


def _compiled(factory, kind: GameKind) -> Callable[[Any], Any]:
    """The thread's reused serializer (``_renderer``) compiled into plain functions
    (config/fast_render.py), once per output class and thread."""
    cached = getattr(_renderers, "compiled", None)
    if cached is None:
        cached = _renderers.compiled = {}
    output = factory(kind)
    render = cached.get(output)
    if render is None:
        render = cached[output] = compile_output(_renderer(factory, kind))
    return render


def render_move_played(body: dict[str, Any]) -> dict[str, Any]:
    """The move's answer, on every move request: the compiled serializer."""
    return dict(_compiled(move_played, kinds.get(body["kind"]))(body))


def render_history(kind: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(history_entry(kinds.get(kind))(entries, many=True).data)


def render_preview(body: dict[str, Any]) -> dict[str, Any]:
    return _render(preview, body)


def render_how_to_play(body: dict[str, Any]) -> dict[str, Any]:
    return _render(how_to_play, body)


AnyGameView = _union("AnyGameView", game_view)
AnyGameSummary = _union("AnyGameSummary", summary)
AnyMovePlayed = _union("AnyMovePlayed", move_played)
AnyPreview = _union(
    "AnyPreview", preview, [k for k in kinds.all_kinds() if k.preview_output is not None]
)
AnyHowToPlay = _union("AnyHowToPlay", how_to_play)
# A game's history is all of one kind (the game's), which the client knows already.
AnyMoveHistory = PolymorphicProxySerializer(
    component_name="AnyMoveHistoryEntry",
    serializers=[history_entry(k) for k in kinds.all_kinds()],
    resource_type_field_name=None,
    many=True,
)


class GamePageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = _union("AnyGameSummary", summary, many=True)


# --- analysis, hints, levels --------------------------------------------------------------------
class AnalysedMoveSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    mine = serializers.BooleanField()
    player = serializers.CharField(allow_null=True)
    kind = serializers.ChoiceField(choices=MOVE_KINDS)
    notation = serializers.CharField(help_text="an opponent's swap shows only the count")
    score = serializers.IntegerField()
    best_score = serializers.IntegerField(
        allow_null=True,
        help_text="null: a move without analysis (a resignation), not analysed yet, or "
        "another seat's move in a game that ended without play (aborted, awarded)",
    )
    best_notation = serializers.CharField(allow_null=True, allow_blank=True)
    percent_of_best = serializers.FloatField(allow_null=True)


class SeatAnalysisSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    is_you = serializers.BooleanField()
    moves_analysed = serializers.IntegerField()
    average_percent_of_best = serializers.FloatField(allow_null=True)


class GameAnalysisSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    complete = serializers.BooleanField(
        help_text="false while a worker is still analysing moves (ask again shortly)"
    )
    seats = SeatAnalysisSerializer(many=True)
    moves = AnalysedMoveSerializer(many=True)


class HintReasonSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class HintSerializer(serializers.Serializer):
    move = serializers.CharField(allow_null=True, help_text="null: it is not your turn")
    reason = HintReasonSerializer()


class ComputerLevelSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=LEVELS)
    name = serializers.CharField()
    description = serializers.CharField()
