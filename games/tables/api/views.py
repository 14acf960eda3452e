"""Thin HTTP layer of the tables: parse, call ``games.tables.services``, render."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from config.envelope import ErrorEnvelopeSerializer
from config.parsers import JSONParser
from games.api.views import GameWriteThrottle
from games.tables import services
from games.tables.api import serializers as s
from games.tables.guessing import counting_misses


def _errors(*codes: int) -> dict:
    described = {
        400: "Invalid input (invalid, unknown_player)",
        401: "No or bad token",
        403: "not_host (deal) or not_seated",
        404: "table_not_found",
        409: "table_full, already_dealt, not_dealt or table_closed",
        429: "Throttled",
    }
    return {
        code: OpenApiResponse(ErrorEnvelopeSerializer, description=described[code])
        for code in codes
    }


def _render(table, status: int = 200) -> Response:
    return Response(s.TableOutput(services.show(table)).data, status=status)


class TableViewBase(APIView):
    throttle_classes = [GameWriteThrottle]
    parser_classes = [JSONParser]


class TablesView(TableViewBase):
    @extend_schema(
        operation_id="tables_create",
        tags=["tables"],
        request=s.create_table_request(),
        responses={201: s.TableOutput, **_errors(400, 401, 429)},
        description="A new table of a kind that has tables (`kind`, and its `options`) with "
        "you as host in seat 0; share its code or share_url. The first form of this body "
        "(the default table kind's options at the top level, no `kind`) is still accepted.",
    )
    def post(self, request):
        data = s.create_table_input_for(request.data)(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.create_table(user=request.user, **data.creation())
        return _render(table, 201)


class TableDetailView(TableViewBase):
    @extend_schema(
        operation_id="tables_retrieve",
        tags=["tables"],
        responses={200: s.TableOutput, **_errors(401, 404, 429)},
        description="The table as anyone with its code sees it (before joining too).",
    )
    def get(self, request, code: str):
        with counting_misses(request):
            return _render(services.get_table(code=code))


def _action(name: str, description: str, codes: tuple[int, ...], request_serializer=None):
    service = getattr(services, name)

    class ActionView(TableViewBase):
        @extend_schema(
            operation_id=f"tables_{name}",
            tags=["tables"],
            request=request_serializer,
            responses={200: s.TableOutput, **_errors(*codes)},
            description=description,
        )
        def post(self, request, code: str):
            extra = {}
            if request_serializer is not None:
                data = request_serializer(data=request.data)
                data.is_valid(raise_exception=True)
                extra = dict(data.validated_data)
            with counting_misses(request):
                return _render(service(user=request.user, code=code, **extra))

    ActionView.__name__ = ActionView.__qualname__ = f"Table{name.title()}View"
    return ActionView


TableJoinView = _action(
    "join",
    "Take a free seat (joining twice changes nothing); after the deal, take your seat back "
    "from the computer.",
    (401, 404, 409, 429),
)
TableLeaveView = _action(
    "leave",
    "Before the deal: free your seat. During the match: the computer plays your seat until "
    "you join again. When no person is left the table closes and its match is aborted.",
    (401, 403, 404, 409, 429),
)
TableDealView = _action(
    "deal",
    "Host only: start the match, a computer regular in every empty seat; the answer carries "
    "game_id (play through games/{id}).",
    (401, 403, 404, 409, 429),
)
TableBackView = _action(
    "back",
    "Take your seat back after a missed deadline (any move of yours does it too).",
    (401, 403, 404, 409, 429),
)
TableInviteView = _action(
    "invite",
    "Email a player (by username) the table's share link, in their language.",
    (400, 401, 403, 404, 409, 429),
    request_serializer=s.InviteInput,
)
