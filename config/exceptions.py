"""The one exception handler: every API error becomes
``{"error": {"code": str, "message": str, "details": dict}}``."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import set_rollback

from config.errors import ApiError

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


def envelope(code: str, message: str, details: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {}}}


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


def exception_handler(exc, context):
    if isinstance(exc, ApiError):
        set_rollback()
        return Response(envelope(exc.code, exc.message, exc.details), status=exc.status)

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if not isinstance(exc, exceptions.APIException):
        return None  # unknown: let Django produce a 500

    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))

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
    return Response(envelope(code, message, details), status=exc.status_code, headers=headers)


__all__ = ["exception_handler", "envelope"]
