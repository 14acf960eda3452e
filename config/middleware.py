"""Outermost middleware: request id, one log line per request, and API errors that happen
before or outside a DRF view (a body too large, an unhandled exception) in the JSON envelope.

It is first in ``MIDDLEWARE`` so that its log line and ``X-Request-ID`` cover every answer,
including redirects and refusals made by Django's own middleware.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from config import ratelimit, unavailable
from config.exceptions import TOO_LARGE, server_error_envelope, too_large_envelope
from config.logs import request_id_var

API_PREFIX = "/api/"
REQUEST_ID_HEADER = "X-Request-ID"
# An incoming id is kept when it looks like one (uuid, hex, a proxy's trace id); anything else,
# e.g. one carrying spaces or CR/LF that would forge log lines, is replaced by a fresh id.
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$")
# Path segments after these are secrets (signed tokens) and never reach the logs.
_SECRET_PATH = re.compile(r"(/unsubscribe/)[^/]+")

request_log = logging.getLogger("crazy10s.requests")
error_log = logging.getLogger("crazy10s.errors")


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def loggable_path(path: str) -> str:
    return _SECRET_PATH.sub(r"\1<redacted>", path)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _user_id(request: HttpRequest) -> int | None:
    # DRF sets request.user on the Django request when it authenticates a token.
    try:
        user = getattr(request, "user", None)
        return user.pk if user is not None and user.is_authenticated else None
    except Exception:  # the log line must never turn an answer into a crash
        return None


class RequestMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        request_id = incoming if _SANE_REQUEST_ID.match(incoming) else uuid.uuid4().hex
        # Our own attribute on Django's request (django-stubs declare only Django's).
        request.request_id = request_id  # type: ignore[attr-defined]
        token = request_id_var.set(request_id)
        started = time.monotonic()
        try:
            response = self._refuse_too_large(request) or self.get_response(request)
            if response.status_code == 500:
                # An outage raised in a middleware, which Django turned into a 500 itself.
                response = unavailable.outage_response(request) or response
            response[REQUEST_ID_HEADER] = request_id
            ratelimit.add_headers(request, response)
            # This line replaces Django's "Not Found: /path" warnings (django.request).
            # Django's own flag (django.utils.log.log_response), missing from django-stubs.
            response._has_been_logged = True  # type: ignore[attr-defined]
            self._log(request, response, started)
            return response
        finally:
            request_id_var.reset(token)

    def _refuse_too_large(self, request: HttpRequest) -> HttpResponse | None:
        """Refuse an API body over the limit before anything reads it (Django would only
        notice once a parser reads it, and answer with an HTML 400)."""
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and is_api(request) and _declared_length(request) > limit:
            return JsonResponse(too_large_envelope(), status=413)
        return None

    def _log(self, request: HttpRequest, response: HttpResponse, started: float) -> None:
        duration_ms = round((time.monotonic() - started) * 1000, 1)
        path = loggable_path(request.path)
        user_id = _user_id(request)
        request_log.log(
            logging.ERROR if response.status_code >= 500 else logging.INFO,
            "%s %s %s %.1fms user=%s",
            request.method,
            path,
            response.status_code,
            duration_ms,
            user_id if user_id is not None else "-",
            extra={
                "method": request.method,
                "path": path,
                "status": response.status_code,
                "duration_ms": duration_ms,
                "user_id": user_id,
            },
        )

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """An exception no view handled: the envelope for API clients (even with DEBUG on, where
        Django would answer its HTML debug page), and the traceback in the log, once."""
        if not is_api(request):
            return None  # the admin keeps Django's pages
        if isinstance(exception, TOO_LARGE):
            return JsonResponse(too_large_envelope(), status=413)
        error_log.error(
            "Unhandled exception on %s %s",
            request.method,
            loggable_path(request.path),
            exc_info=(type(exception), exception, exception.__traceback__),
        )
        return JsonResponse(server_error_envelope(), status=500)
