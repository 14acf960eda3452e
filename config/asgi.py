"""ASGI entry point: async views (the live event streams) on Django's ASGI handler, every other
request on Django's WSGI handler in a thread pool (config/threaded_wsgi.py).

Under Django's ASGI handler every sync view of a process runs in one shared thread (Django makes
sync views thread-sensitive), so a process answers one API request at a time: the move POST
lost a third of its throughput against gunicorn's threaded WSGI workers. The sync API keeps its
threads here (``ASGI_SYNC_THREADS`` per process), while the streams stay async and cost no
thread each.

Around both: the client's address from ``NUM_PROXIES`` (config/proxies.py; the servers' own
proxy-header handling is off), and the lifespan protocol, whose startup chains SIGTERM so that
open event streams end with a ``reconnect`` event before the server drains (live/shutdown.py).
"""

import os

from asgiref.sync import iscoroutinefunction
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_asgi = get_asgi_application()  # sets Django up before anything below reads settings

from django.conf import settings  # noqa: E402
from django.urls import Resolver404, resolve  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

from config.catalogs import report_missing_catalogs  # noqa: E402
from config.logs import format_server_loggers  # noqa: E402
from config.proxies import client_host  # noqa: E402
from config.threaded_wsgi import ThreadedWSGI  # noqa: E402

threaded_wsgi = ThreadedWSGI(get_wsgi_application(), threads=settings.ASGI_SYNC_THREADS)
NUM_PROXIES = settings.REST_FRAMEWORK["NUM_PROXIES"]
format_server_loggers(settings.LOG_FORMAT)
report_missing_catalogs()


def is_async_view(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    view_class = getattr(match.func, "view_class", None)
    if view_class is not None:
        return bool(getattr(view_class, "view_is_async", False))
    return iscoroutinefunction(match.func)


async def lifespan(receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            for hook in settings.ASGI_STARTUP_HOOKS:  # live: streams end on SIGTERM
                import_string(hook)()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        await lifespan(receive, send)
        return
    client = scope.get("client")
    if NUM_PROXIES and client:
        # In place: the server's access log reads this very scope.
        host = client_host(client[0], scope["headers"], NUM_PROXIES)
        if host != client[0]:
            scope["client"] = (host, 0)  # the port was the proxy's
    if scope["type"] == "http" and not is_async_view(scope["path"]):
        await threaded_wsgi(scope, receive, send)
    else:
        await django_asgi(scope, receive, send)
