"""``me/vacation``: read, start and end a vacation (thin: the service decides)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.envelope import ErrorEnvelopeSerializer
from config.parsers import JSONParser
from games.correspondence import selectors, services
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
