"""``me/vacation`` (read, start, end), ``me/archive`` (finished games, filtered, paged; the
whole history as JSON Lines) and ``games/{id}/export`` (JSON, text): thin views."""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.envelope import ErrorEnvelopeSerializer
from config.parsers import JSONParser
from games import selectors as game_selectors
from games.api.serializers import GamePageSerializer, render_summary
from games.api.views import _game_id
from games.correspondence import archive, exports, records, selectors, services, spectating
from games.correspondence.api import serializers as s


def _error(text: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorEnvelopeSerializer, description=text)


class VacationView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="me_vacation_retrieve", tags=["me"],
        responses={200: s.VacationStateSerializer},
        description="Your vacation days and your running vacation, if any.",
    )
    def get(self, request):
        return Response(s.VacationStateSerializer(selectors.state(request.user)).data)

    @extend_schema(
        operation_id="me_vacation_start", tags=["me"], request=s.VacationInputSerializer,
        responses={
            201: s.VacationStateSerializer,
            400: _error("invalid (days is not a whole number from 1 to 30)"),
            409: _error("vacation_too_long (details: available_days, requested_days), "
                        "already_on_vacation"),
        },
        description="Start a vacation of `days` days now. While it runs, the deadlines of your "
        "correspondence games stand still (no timeout, no reminder); your opponents see "
        "`vacation_until` on your seat. Tables' 30-second turns are not paused. The days "
        "are taken from your allowance; the part you do not use comes back when you end it "
        "early.",
    )
    def post(self, request):
        data = s.VacationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.start(user=request.user, days=data.validated_data["days"])
        body = s.VacationStateSerializer(selectors.state(request.user)).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="me_vacation_end", tags=["me"], request=None,
        responses={200: s.VacationStateSerializer, 409: _error("not_on_vacation")},
        description="End your vacation now: each of your turns resumes with the time it had "
        "left when the vacation began (or its whole time, for a turn that began during it).",
    )
    def delete(self, request):
        services.end(user=request.user)
        return Response(s.VacationStateSerializer(selectors.state(request.user)).data)


class ArchiveView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_archive_list", tags=["me"],
        parameters=[
            s.ArchiveQuerySerializer,
            OpenApiParameter("page", OpenApiTypes.INT, OpenApiParameter.QUERY, required=False,
                             description="page of 20 games, from 1 (an empty page: 404)"),
        ],
        responses={200: GamePageSerializer, 400: _error("invalid (a filter)"),
                   404: _error("not_found (no such page)")},
        description="Your finished games, newest first, filtered by opponent, kind, your "
        "result and the month they ended.",
    )
    def get(self, request):
        query = s.ArchiveQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = archive.finished_games(user=request.user, **query.validated_data)
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(games, request, view=self)
        summaries = [
            render_summary(game_selectors.game_summary(game=g, user=request.user))
            for g in page or []
        ]
        return paginator.get_paginated_response(summaries)


class ArchiveExportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_archive_export", tags=["me"],
        responses={(200, "application/jsonl"): OpenApiTypes.STR},
        description="Your whole history as one download: JSON Lines, one finished game's "
        "record (as `games/{id}/export` gives it) per line, newest first.",
    )
    def get(self, request):
        response = StreamingHttpResponse(
            exports.history_lines(request.user), content_type="application/jsonl"
        )
        response["Content-Disposition"] = 'attachment; filename="crazy10s-history.jsonl"'
        return response


class GameExportView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_export", tags=["games"],
        responses={200: s.GameRecordSerializer, 403: _error("not_a_player"),
                   404: _error("not_found")},
        description="The game's record. Once the game is over, the full record: every seat's "
        "rack or hand before each move and the full notation. While it runs, only what every "
        "player sees: public notation and scores.",
    )
    def get(self, request, game_id: int):
        game = exports.game_of_player(game_id=_game_id(game_id), user=request.user)
        return Response(s.GameRecordSerializer(records.build(game)).data)


class GameExportTextView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_export_text", tags=["games"],
        responses={(200, "text/plain"): OpenApiTypes.STR, 403: _error("not_a_player"),
                   404: _error("not_found")},
        description="The game's record as text in the rules' notation: a header (players, "
        "dates, result), then one line per move: number, player, [the pieces before it] "
        "(finished games), the move, its score and the scores after it.",
    )
    def get(self, request, game_id: int):
        game = exports.game_of_player(game_id=_game_id(game_id), user=request.user)
        response = HttpResponse(records.as_text(records.build(game)),
                                content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="game-{game.pk}.txt"'
        return response


class WatchView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="games_watch", tags=["games"],
        responses={200: s.SpectatorViewSerializer,
                   403: _error("not_watchable (not a friend's game, not public, or blocked)"),
                   404: _error("not_found")},
        description="Watch a game you do not play in: a friend's game, or one every player "
        "made public. The board, scores and public move list, never a rack, hand, bag or "
        "stock. Asking counts you among its spectators for a minute; poll it for updates. "
        "The chat stays for the players.",
    )
    def get(self, request, game_id: int):
        game = spectating.game_to_watch(game_id=_game_id(game_id), viewer=request.user)
        spectating.note_watching(game=game, user=request.user)
        body = {**spectating.spectator_view(game), "moves": spectating.spectator_history(game)}
        return Response(s.SpectatorViewSerializer(body).data)


class WatchSettingsView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(operation_id="me_watching_retrieve", tags=["me"],
                   responses={200: s.WatchSettingsSerializer},
                   description="Whether your games are public (off by default).")
    def get(self, request):
        return Response({"public_games": spectating.public_games(request.user)})

    @extend_schema(operation_id="me_watching_update", tags=["me"],
                   request=s.WatchSettingsSerializer,
                   responses={200: s.WatchSettingsSerializer, 400: _error("invalid")},
                   description="Make your games public (anyone may watch a game whose every "
                   "player did) or not.")
    def put(self, request):
        data = s.WatchSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        public = spectating.set_public_games(
            user=request.user, public=data.validated_data["public_games"]
        )
        return Response({"public_games": public})
