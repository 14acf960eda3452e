"""Thin HTTP layer: parse input, call a service or selector, render through a serializer."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from config.errors import ApiError
from config.pagination import CountedPageNumberPagination
from config.parsers import JSONParser
from config.throttling import AtomicThrottle
from config.unions import UnionSchema
from games import kinds, selectors, services
from games.api import serializers as s

MAX_ID = 2**63 - 1

# The request bodies, as the schema shows them. A move is any kind's move (``anyOf``: a pass
# is a pass in more than one game; the game's kind decides); a new game is one kind's form,
# told apart by ``kind``, or one of the older bodies.
CREATE_GAME_REQUEST = UnionSchema(
    component_name="CreateGame",
    untagged=[
        UnionSchema(component_name="CreateGameOfKind", tag="kind",
                    tagged={k.name: s.create_input(k) for k in kinds.all_kinds()}),
        *s.older_create_inputs(),
    ],
)
SUBMIT_MOVE_REQUEST = UnionSchema(
    component_name="SubmitMove",
    untagged=[s.submit_move_input(k) for k in kinds.all_kinds()],
    any_of=True,
)
MOVE_REQUEST = UnionSchema(
    component_name="Move",
    untagged=[k.move_input for k in kinds.all_kinds() if k.preview_output is not None],
    any_of=True,
)


class GameWriteThrottle(AtomicThrottle):
    """Per-user rate of game writes (reads such as polling the detail are not throttled),
    counted atomically like every other limit (config.throttling)."""

    def identities(self, request, view) -> Iterable[tuple[str, str]]:
        if request.method not in SAFE_METHODS:
            yield "game_writes", str(request.user.pk)


def _errors(*codes: int) -> dict:
    described = {
        400: "`invalid` input, or a refusal with its own code: an illegal move (the engine's "
        "code, e.g. `bad_sum`, `must_play`), `not_this_kind` (a move of another game), "
        "`no_preview` / `no_hints` / `no_analysis` (not offered by this game), "
        "`unknown_player`, `cannot_play_yourself` or `invalid_seats` (starting a game)",
        401: "`not_authenticated` or `authentication_failed`",
        403: "`not_a_player` (not your game), or `player_unavailable` (starting a game with "
        "someone who blocked you)",
        404: "`not_found`: no such game",
        409: "`not_your_turn`, `stale_move_number` (error.details.move_number: reload), "
        "`game_over`, `idempotency_key_reused`, or `idempotency_key_in_use` (a request with "
        "this Idempotency-Key is in flight: retry after error.details.retry_after seconds)",
        422: "`idempotency_key_mismatch`: the Idempotency-Key was used for a different request",
        429: "`throttled` (error.details.wait, Retry-After)",
    }
    return {
        code: OpenApiResponse(s.ErrorEnvelopeSerializer, description=described[code])
        for code in codes
    }


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "A retry with the same key and the same body returns the first response (header "
        "Idempotent-Replayed: true) and changes nothing; the same key with a different body "
        "is refused (422 idempotency_key_mismatch); while a request with the key is in flight "
        "another one is refused (409 idempotency_key_in_use)."
    ),
)


def _idempotency_key(request) -> str | None:
    return (request.headers.get("Idempotency-Key") or "").strip()[:255] or None


def _game_id(game_id: int) -> int:
    if not 0 < game_id <= MAX_ID:
        raise NotFound(_("No such game."))
    return game_id


class GameViewBase(APIView):
    throttle_classes = [GameWriteThrottle]
    # Game requests nest objects and lists (opponent, tiles), which a form cannot carry.
    parser_classes = [JSONParser]


class GamesView(GameViewBase):
    @extend_schema(
        operation_id="games_list",
        tags=["games"],
        parameters=[
            s.GameListQuerySerializer,
            OpenApiParameter("page", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False,
                             description="page of 20 games, from 1 (an empty page: 404)"),
        ],
        responses={200: s.GamePageSerializer, **_errors(400, 401, 404)},
        description="Your games. Active: your turn first, then by deadline. "
        "Finished: newest first.",
    )
    def get(self, request):
        query = s.GameListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = selectors.PlayerGamesPages(request.user, query.validated_data.get("status"))
        paginator = CountedPageNumberPagination()  # the page and the total in one query
        page = paginator.paginate_queryset(games, request, view=self)
        summaries = s.render_summaries(
            [selectors.game_summary(game=g, user=request.user) for g in page or ()]
        )
        return paginator.get_paginated_response(summaries)

    @extend_schema(
        operation_id="games_create",
        tags=["games"],
        request=CREATE_GAME_REQUEST,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.AnyGameView, **_errors(400, 401, 403, 422, 429)},
        description="A new game of any kind: `kind`, its `seats` in order (one of them "
        '`{"you": true}`; the others `{"computer": LEVEL}`, `{"username": NAME}` or '
        '`{"random": true}`), `turn_hours`, `rated` and the kind\'s own `options`. A request '
        "with random seats joins a waiting game of the same kind, options, turn time and "
        "rating choice, or waits for others (status waiting). Older bodies still accepted: "
        "the first API's (no `seats`: a game of the default kind against one `opponent`, its "
        "options at the top level) and a kind's `opponents` list of computer levels.",
    )
    def post(self, request):
        data = s.create_input_for(request.data)(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = services.create_game_request(
            user=request.user,
            creation=data.creation(),
            idempotency_key=_idempotency_key(request),
            render=s.render_view,
        )
        headers = {"Idempotent-Replayed": "true"} if receipt.replayed else {}
        return Response(receipt.body, status=receipt.status, headers=headers)


class GameDetailView(GameViewBase):
    @extend_schema(
        operation_id="games_retrieve",
        tags=["games"],
        parameters=[
            OpenApiParameter(
                "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False
            )
        ],
        responses={
            200: s.AnyGameView,
            304: OpenApiResponse(description="Not modified since the ETag you sent"),
            **_errors(401, 403, 404),
        },
    )
    def get(self, request, game_id: int):
        game, seat = selectors.game_for_player(game_id=_game_id(game_id), user=request.user)
        services.note_seen(seat=seat)
        view = selectors.player_view(game=game, seat_index=seat.index, with_coach=True)
        body = s.render_view(view)
        digest = hashlib.sha256(json.dumps(body, sort_keys=True, cls=JSONEncoder).encode())
        etag = f'"{digest.hexdigest()[:32]}"'
        if _matches(request.headers.get("If-None-Match"), etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(body, headers={"ETag": etag})


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


class GameMovesView(GameViewBase):
    @extend_schema(
        operation_id="games_moves_list",
        tags=["games"],
        responses={200: s.AnyMoveHistory, **_errors(401, 403, 404)},
    )
    def get(self, request, game_id: int):
        game, seat = selectors.game_for_player(
            game_id=_game_id(game_id), user=request.user, defer_state=True
        )
        services.note_seen(seat=seat)  # the player is looking: no email about this game
        history = selectors.move_history(game=game, seat_index=seat.index)
        return Response(s.render_history(game.kind, history))

    @extend_schema(
        operation_id="games_moves_create",
        tags=["games"],
        request=SUBMIT_MOVE_REQUEST,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.AnyMovePlayed, **_errors(400, 401, 403, 404, 409, 422, 429)},
        description="Play your move: the body is the game's kind's move (see each kind's "
        "form) and `expected_move_number`.",
    )
    def post(self, request, game_id: int):
        def read(kind):
            plain = s.read_notation_body(kind, request.data)  # the common body, read fast
            if plain is not None:
                return plain
            data = _valid_for(kind, s.submit_move_input, request.data).validated_data
            return s.move_of(data), data["expected_move_number"]

        receipt = services.submit_move(
            game_id=_game_id(game_id),
            user=request.user,
            read=read,
            idempotency_key=_idempotency_key(request),
            render=s.render_move_played,
        )
        headers = {"Idempotent-Replayed": "true"} if receipt.replayed else {}
        return Response(receipt.body, status=receipt.status, headers=headers)


def _valid_for(kind, form_of, data):
    """The body read with the game's kind's form. A body that another kind's form takes is
    a move of the wrong game, not a malformed one: ``not_this_kind`` says so."""
    form, refusal = _read(form_of(kind), data)
    if refusal is None:
        return form
    for other in kinds.all_kinds():
        if other is not kind and _read(form_of(other), data)[1] is None:
            raise ApiError(
                "not_this_kind",
                _("This is a move of another game: this game is %(title)s.")
                % {"title": kind.title},
                details={"kind": kind.name},
            )
    raise refusal


def _read(form_class, data):
    """The form and why it refuses ``data`` (None: it takes it)."""
    form = form_class(data=data)
    try:
        return form, None if form.is_valid() else ValidationError(form.errors)
    except ApiError as exc:  # a field the form does not take (config.unknown_fields)
        return form, exc


class GamePreviewView(GameViewBase):
    @extend_schema(
        operation_id="games_preview",
        tags=["games"],
        request=MOVE_REQUEST,
        responses={200: s.AnyPreview, **_errors(400, 401, 403, 404, 409, 429)},
        description="Check a tentative move against your own pieces without playing it (the "
        "game's kind's move body): legal or not, its score and what it would do. Kinds "
        "without previews answer 400 no_preview.",
    )
    def post(self, request, game_id: int):
        def read(kind):
            return s.move_of(_valid_for(kind, lambda k: k.move_input, request.data).validated_data)

        preview = services.preview_move(game_id=_game_id(game_id), user=request.user, read=read)
        return Response(s.render_preview(preview))


def _game_view(request, game_id: int) -> Response:
    game, seat = selectors.game_for_player(game_id=game_id, user=request.user)
    view = selectors.player_view(game=game, seat_index=seat.index)
    return Response(s.render_view(view))


class GameResignView(GameViewBase):
    @extend_schema(
        operation_id="games_resign",
        tags=["games"],
        request=None,
        responses={
            200: s.AnyGameView,
            **_errors(401, 403, 404, 429),
            409: OpenApiResponse(
                s.ErrorEnvelopeSerializer, description="game_over: the game has ended already"
            ),
        },
        description="Give up the game: the kind decides who wins. A game that has not started "
        "(status waiting: nobody joined your random-opponent request yet) cannot be lost to "
        "anybody: it is cancelled instead, exactly like POST games/{id}/cancel (status "
        'aborted, result.termination "cancelled").',
    )
    def post(self, request, game_id: int):
        services.resign(game_id=_game_id(game_id), user=request.user)
        return _game_view(request, game_id)


class GameCancelView(GameViewBase):
    @extend_schema(
        operation_id="games_cancel",
        tags=["games"],
        request=None,
        responses={
            200: s.AnyGameView,
            **_errors(401, 403, 404, 429),
            409: OpenApiResponse(
                s.ErrorEnvelopeSerializer,
                description="game_started: the game has started (resign it instead); "
                "game_over: it ended otherwise",
            ),
        },
        description="Withdraw a game that has not started (status waiting: a random-opponent "
        'request nobody joined yet). It ends with status aborted, result.termination '
        '"cancelled", nobody wins or loses, and it is no longer listed in GET games. '
        "Cancelling it again answers the same game.",
    )
    def post(self, request, game_id: int):
        services.cancel(game_id=_game_id(game_id), user=request.user)
        return _game_view(request, game_id)


class GameAnalysisView(GameViewBase):
    @extend_schema(
        operation_id="games_analysis",
        tags=["games"],
        responses={
            200: s.GameAnalysisSerializer,
            **_errors(400, 401, 403, 404),
            409: OpenApiResponse(
                s.ErrorEnvelopeSerializer, description="game_not_over: the game is running"
            ),
        },
        description="A game that is over, move by move: each move's score, the best score the "
        "mover could have made and that move, and each seat's average percent of best. Both "
        "players' moves once the game ended by play; after an abort or an award only your own. "
        "While the game runs: 409 game_not_over. Kinds without analysis: 400 no_analysis.",
    )
    def get(self, request, game_id: int):
        game, seat = selectors.game_for_player(
            game_id=_game_id(game_id), user=request.user, defer_state=True
        )
        analysis = selectors.game_analysis(game=game, seat_index=seat.index)
        if not analysis["complete"]:
            services.request_analysis(game=game)  # a lost message, or a game from before
        return Response(s.GameAnalysisSerializer(analysis).data)


class GameHintView(GameViewBase):
    @extend_schema(
        operation_id="games_hint",
        tags=["games"],
        responses={200: s.HintSerializer, **_errors(400, 401, 403, 404)},
        description="A suggested move for your turn and why (unlimited), for kinds that "
        "offer hints; the others answer 400 no_hints.",
    )
    def get(self, request, game_id: int):
        game, seat = selectors.game_for_player(game_id=_game_id(game_id), user=request.user)
        return Response(s.HintSerializer(selectors.hint(game=game, seat_index=seat.index)).data)


class HowToPlayView(GameViewBase):
    @extend_schema(
        operation_id="games_how_to_play",
        tags=["games"],
        responses={200: s.AnyHowToPlay, **_errors(401, 403, 404)},
    )
    def get(self, request, game_id: int):
        game, _seat = selectors.game_for_player(game_id=_game_id(game_id), user=request.user)
        return Response(s.render_how_to_play(selectors.how_to_play(game=game)))


class ComputerLevelsView(APIView):
    @extend_schema(
        operation_id="games_computer_levels",
        tags=["games"],
        parameters=[s.KindQuerySerializer],
        responses={200: s.ComputerLevelSerializer(many=True), **_errors(400, 401)},
        description="The computer players to choose from, named and described in your language "
        "(?kind=NAME for a kind's; the default kind's without it).",
    )
    def get(self, request):
        query = s.KindQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        kind = kinds.get(query.validated_data.get("kind") or kinds.default().name)
        levels = [
            {"level": info.level, "name": info.name, "description": info.description}
            for info in kind.computer_levels()
        ]
        return Response(s.ComputerLevelSerializer(levels, many=True).data)
