"""Redis or the broker unreachable (down, or hung past the socket timeouts) is an outage of a
dependency, not a bug: answer 503 with ``Retry-After`` and the error envelope, never a 500.

A middleware rather than a branch of the exception handler: the error may come from a DRF
throttle, a view, or plain Django code, and the handler leaves unknown exceptions to Django,
which hands them to ``process_exception`` here.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    BrokerError,
)
RETRY_AFTER_SECONDS = 5


def is_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, UNAVAILABLE_ERRORS)


def unavailable_response() -> JsonResponse:
    body = {
        "error": {
            "code": "service_unavailable",
            "message": _("The service is briefly unavailable. Please try again shortly."),
            "details": {"retry_after": RETRY_AFTER_SECONDS},
        }
    }
    response = JsonResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class ServiceUnavailableMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not is_unavailable(exception):
            return None
        log.warning(
            "%s %s: a dependency is unavailable (%s: %s)",
            request.method, request.path, type(exception).__name__, exception,
        )
        return unavailable_response()
