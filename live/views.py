"""The stream endpoints: async views, so an idle stream holds no thread.

Authentication is the API's: ``Authorization: Token <key>``, or the session cookie (a
browser's EventSource cannot set headers). The credentials are checked again at every
heartbeat: a revoked or expired device token (logout, revocation, password change or reset,
suspension, deletion) or a deactivated account ends the stream.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from weakref import WeakKeyDictionary

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.core.handlers.wsgi import WSGIRequest
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from rest_framework import exceptions

from accounts import tokens
from accounts.authentication import activate_for_user
from accounts.models import User
from config.exceptions import envelope
from config.unavailable import unavailable_response
from games import errors as game_errors
from games.models import Game, Seat
from live.backends import get_backend
from live.streams import event_stream

log = logging.getLogger(__name__)

_release_db = sync_to_async(connections.close_all)
_db_slots: WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = WeakKeyDictionary()


def db_slots() -> asyncio.Semaphore:
    """At most LIVE_DB_CONNECTIONS stream openings and checks of one process use the database at
    once: a burst of clients (a thousand phones reconnecting after a deploy) waits here instead
    of exhausting PostgreSQL's connections and getting 500s."""
    loop = asyncio.get_running_loop()
    slots = _db_slots.get(loop)
    if slots is None:
        slots = _db_slots[loop] = asyncio.Semaphore(settings.LIVE_DB_CONNECTIONS)
    return slots


def _in_pool(check: Callable[[], bool]) -> Callable[[], Awaitable[bool]]:
    """``check`` on the loop's shared thread pool, closing the connection it opened there.

    Not thread-sensitive: under Django's handler a thread-sensitive call gets a thread of the
    request's own, kept until the response ends (an idle stream would hold one for hours)."""

    def call() -> bool:
        try:
            return check()
        finally:
            connections.close_all()  # this pool thread's connections only

    return sync_to_async(call, thread_sensitive=False)


async def _checked(check: Callable[[], bool]) -> bool:
    """A periodic "may this stream go on?" check; a database hiccup keeps the stream open (the
    next heartbeat checks again) rather than dropping every stream at once."""
    try:
        async with db_slots():
            return await _in_pool(check)()
    except DatabaseError:
        log.warning("live: stream check skipped, the database is unavailable", exc_info=True)
        return True


def _error(code: str, message: str, status: int, details: dict | None = None) -> JsonResponse:
    return JsonResponse(envelope(code, message, details), status=status)


def _token_key(request: HttpRequest) -> str | None:
    return tokens.key_of(request.headers.get("Authorization", ""))


async def _authenticate(
    request: HttpRequest,
) -> tuple[User, Callable[[], bool]] | JsonResponse:
    """(user, still_allowed), or the 401 response. ``still_allowed`` is sync: the heartbeat runs
    it on the shared thread pool (``_checked``)."""
    header = request.headers.get("Authorization", "")
    if header:
        key = _token_key(request)
        token = None
        if key is not None:
            token = await sync_to_async(tokens.find)(key)
        if token is None or not token.user.is_active:
            failed = exceptions.AuthenticationFailed()
            return _error("authentication_failed", str(failed.detail), 401)
        device_id = token.pk

        def token_alive() -> bool:
            return tokens.live().filter(pk=device_id, user__is_active=True).exists()

        return token.user, token_alive
    user = await request.auser()
    if not user.is_authenticated or not user.is_active:
        missing = exceptions.NotAuthenticated()
        return _error("not_authenticated", str(missing.detail), 401)
    assert isinstance(user, User)
    user_id = user.pk
    session_key = request.session.session_key
    store = type(request.session)

    def session_alive() -> bool:
        # Logged out (the session row is gone), suspended, or the password changed elsewhere
        # (the session's password hash is stale, as Django's own check finds): the stream ends.
        data = store(session_key).load()
        user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
        return bool(data) and user is not None and constant_time_compare(
            data.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash()
        )

    return user, session_alive


async def _admit(
    request: HttpRequest, game_id: int | None
) -> HttpResponse | tuple[User, Callable[[], bool], str]:
    """Who may open this stream: (user, their "still allowed" check, a stream id) or a refusal."""
    authenticated = await _authenticate(request)
    if isinstance(authenticated, HttpResponse):
        return authenticated
    user, still_allowed = authenticated
    activate_for_user(request, user)
    if game_id is not None:
        if not await Game.objects.filter(pk=game_id).aexists():
            error = game_errors.game_not_found()
            return _error(error.code, error.message, error.status)
        if not await Seat.objects.filter(game_id=game_id, user_id=user.pk).aexists():
            error = game_errors.not_a_player()
            return _error(error.code, error.message, error.status)
    stream_id = uuid.uuid4().hex
    limit = settings.LIVE_MAX_STREAMS_PER_USER
    if not await get_backend().acquire_slot(user.pk, stream_id, limit):
        response = _error(
            "too_many_streams",
            _("You have too many event streams open. Close one and try again."),
            429,
            {"limit": limit},
        )
        response["Retry-After"] = str(int(settings.LIVE_HEARTBEAT_SECONDS))
        return response
    return user, still_allowed, stream_id


async def _open(request: HttpRequest, game_id: int | None) -> HttpResponseBase:
    if isinstance(request, WSGIRequest):
        # A WSGI server would buffer the endless stream in memory: refuse (deploy with ASGI).
        return _error("asgi_required",
                      "Live updates need the ASGI server (uvicorn); this one is WSGI.", 501)
    if request.method != "GET":
        return _error("method_not_allowed",
                      str(exceptions.MethodNotAllowed(request.method or "").detail), 405)
    try:
        async with db_slots():
            try:
                admitted = await _admit(request, game_id)
            finally:
                # An open stream must not hold a database connection (1,000 streams would be
                # 1,000 connections): the request's connection closes now; the checks reopen
                # one briefly.
                await _release_db()
    except DatabaseError:
        log.warning("live: stream refused, the database is unavailable", exc_info=True)
        return unavailable_response()
    if isinstance(admitted, HttpResponse):
        return admitted
    user, still_allowed, stream_id = admitted
    stream = event_stream(
        user_id=user.pk,
        stream_id=stream_id,
        last_event_id=request.headers.get("Last-Event-ID") or request.GET.get("last_event_id"),
        still_allowed=lambda: _checked(still_allowed),
        game_id=game_id,
    )
    response = StreamingHttpResponse(stream, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events through as they come
    return response


async def events(request: HttpRequest) -> HttpResponseBase:
    return await _open(request, None)


async def game_events(request: HttpRequest, game_id: int) -> HttpResponseBase:
    return await _open(request, game_id)
