"""The one exception handler: every API error becomes
``{"error": {"code": str, "message": str, "details": dict}}``."""

import math

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import set_rollback

from config.errors import ApiError
from config.logs import current_request_id

_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.ValidationError: "invalid",
    exceptions.ParseError: "parse_error",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
}


# Django's refusals of a body over DATA_UPLOAD_MAX_MEMORY_SIZE / _NUMBER_FIELDS / _NUMBER_FILES.
TOO_LARGE = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)


def envelope(code: str, message: str, details: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def too_large_envelope() -> dict:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    details = {"max_bytes": limit} if limit is not None else {}
    return envelope("request_too_large", _("The request is too large."), details)


def server_error_envelope() -> dict:
    message = _("Something went wrong on our side. Please try again later.")
    return envelope("server_error", message, _with_request_id({}, 500))


def _message_of(detail) -> str:
    if isinstance(detail, list | tuple):
        return _message_of(detail[0]) if detail else ""
    if isinstance(detail, dict):
        return _("Invalid input.")
    return str(detail)


def _code_for(exc: exceptions.APIException) -> str:
    for cls in type(exc).__mro__:
        if cls in _CODES:
            return _CODES[cls]
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    return exc.default_code


def _with_request_id(details: dict | None, status: int) -> dict:
    """A 5xx names the request id, so that a report from a client finds the logged cause."""
    details = dict(details or {})
    request_id = current_request_id()
    if status >= 500 and request_id:
        details.setdefault("request_id", request_id)
    return details


def exception_handler(exc, context):
    if isinstance(exc, ApiError):
        set_rollback()
        details = _with_request_id(exc.details, exc.status)
        headers = {}
        wait = details.get("retry_after")
        if exc.status in (429, 503) and isinstance(wait, int | float):
            headers["Retry-After"] = str(max(1, int(wait)))  # a client reads the header
        return Response(
            envelope(exc.code, exc.message, details), status=exc.status, headers=headers
        )

    if isinstance(exc, TOO_LARGE):  # raised while a parser read the body
        set_rollback()
        return Response(too_large_envelope(), status=413)

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if not isinstance(exc, exceptions.APIException):
        return None  # unknown: let Django produce a 500

    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if isinstance(exc, exceptions.Throttled):
        headers["Retry-After"] = str(max(1, math.ceil(exc.wait or 1)))

    code = _code_for(exc)
    details: dict = {}
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        details = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        message = _("Invalid input.")
        if isinstance(detail, list) and detail:
            message = _message_of(detail)
    else:
        message = _message_of(exc.detail)
        if isinstance(exc, exceptions.Throttled):
            details = {"wait": exc.wait}

    set_rollback()
    details = _with_request_id(details, exc.status_code)
    return Response(envelope(code, message, details), status=exc.status_code, headers=headers)


__all__ = ["exception_handler", "envelope", "server_error_envelope", "too_large_envelope"]
