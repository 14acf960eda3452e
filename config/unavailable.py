"""A dependency unreachable is an outage, not a bug: answer 503 with ``Retry-After``, never a
500 — the error envelope on the API, a short page in the player's language on the web.

- Redis or the broker down, or hung past the socket timeouts;
- the database refusing connections, or a connection lost mid-request (PostgreSQL restarting,
  a failover, ``max_connections`` reached). Django opens a connection per request (or checks
  a persistent one first), so the first request after the database is back succeeds.

One clear line is logged per dependency and process while it stays down (every
``LOG_EVERY_SECONDS`` at most), not a traceback per request; each request still has its own
request line (status 503).

A middleware rather than a branch of the exception handler: the error may come from a DRF
throttle, a view, or plain Django code, and the handler leaves unknown exceptions to Django,
which hands them to ``process_exception`` here. An error raised in a middleware (the session
or the signed-in player's language read from the database) never reaches ``process_exception``:
Django turns it into a 500 response on the spot, so ``note_request_exception`` (Django's
``got_request_exception`` signal) marks the request and ``RequestMiddleware`` answers 503
instead, and ``QuietOutage`` keeps Django's traceback of it out of the log.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
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
API_PREFIX = "/api/"
# PostgreSQL's SQLSTATEs of a server that cannot take the session: class 08 (connection
# exception), admin/crash shutdown, "the database system is starting up".
_UNREACHABLE_SQLSTATES = frozenset({"57P01", "57P02", "57P03"})
LOG_EVERY_SECONDS = 30.0
_logged_at: dict[str, float] = {}
_log_lock = threading.Lock()


def database_unreachable(exc: BaseException) -> bool:
    """The database could not be reached or dropped the connection (not a query's own error:
    a constraint, a deadlock, a bad statement stay what they are)."""
    if isinstance(exc, DatabaseInterfaceError):  # "connection already closed"
        return True
    if not isinstance(exc, DatabaseOperationalError):
        return False
    # psycopg raises OperationalError without a SQLSTATE when connecting fails (refused,
    # timed out) and when the server goes away mid-query; SQLite's "database is locked" has
    # none either, and is a (local) outage too.
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    if sqlstate is None:
        return True
    return sqlstate.startswith("08") or sqlstate in _UNREACHABLE_SQLSTATES


def is_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, UNAVAILABLE_ERRORS) or database_unreachable(exc)


def _dependency(exc: BaseException) -> str:
    return "database" if database_unreachable(exc) else "redis"


def log_outage(request: HttpRequest, exc: BaseException) -> None:
    """One warning per dependency and process every ``LOG_EVERY_SECONDS`` while it is down."""
    dependency = _dependency(exc)
    now = time.monotonic()
    with _log_lock:
        if now - _logged_at.get(dependency, float("-inf")) < LOG_EVERY_SECONDS:
            return
        _logged_at[dependency] = now
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    log.warning(
        "the %s is unreachable (%s: %s): answering 503 with Retry-After %s s (first seen on "
        "%s %s; logged again after %.0f s if it lasts)",
        dependency, type(exc).__name__, reason, RETRY_AFTER_SECONDS, request.method,
        request.path, LOG_EVERY_SECONDS,
    )


def unavailable_response(request: HttpRequest | None = None) -> HttpResponse:
    """The envelope on the API (and when there is no request), a page on the web."""
    response: HttpResponse
    if request is None or request.path.startswith(API_PREFIX):
        body = {
            "error": {
                "code": "service_unavailable",
                "message": _("The service is briefly unavailable. Please try again shortly."),
                "details": {"retry_after": RETRY_AFTER_SECONDS},
            }
        }
        response = JsonResponse(body, status=503)
    else:
        # No request context: the context processors would read the session and the player
        # from the database. The language is LocaleMiddleware's (cookie, Accept-Language).
        language = translation.get_language_from_request(request)
        with translation.override(language):
            html = render_to_string("web/unavailable.html", {
                "language": language, "title": _("Back in a moment")})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def note_request_exception(sender, request: HttpRequest | None = None, **kwargs) -> None:
    """``got_request_exception`` receiver (Django sends it inside its ``except``): remember an
    outage raised where ``process_exception`` does not see it (config/apps.py connects it)."""
    exc = sys.exc_info()[1]
    if request is not None and exc is not None and is_unavailable(exc):
        request.unavailable_error = exc  # type: ignore[attr-defined]


def outage_response(request: HttpRequest) -> HttpResponse | None:
    """For ``RequestMiddleware``: the 503 that replaces Django's 500 of a marked request."""
    exc = getattr(request, "unavailable_error", None)
    if exc is None:
        return None
    log_outage(request, exc)
    return unavailable_response(request)


class QuietOutage(logging.Filter):
    """On ``django.request``: drops Django's "Internal Server Error" traceback of an outage
    (the request is answered 503 and the outage logged once by ``log_outage``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return exc is None or not is_unavailable(exc)


class ServiceUnavailableMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not is_unavailable(exception):
            return None
        log_outage(request, exception)
        return unavailable_response(request)
