"""The client's address, from ``NUM_PROXIES`` alone, at every layer.

``NUM_PROXIES`` is the number of trusted reverse proxies in front of the web processes, each
appending the address it saw to ``X-Forwarded-For``. With 0 the header is never read (a client
can write anything there): the address is the socket's. With N it is the address N hops from
the right, the one the outermost trusted proxy saw (the leftmost one when the header has fewer
hops).

The servers' own handling of the header is switched off (``scripts/run_dev.sh`` passes
``--no-proxy-headers`` to uvicorn; gunicorn's worker is ``config.server.UvicornWorker``), since
uvicorn by default believes the header from 127.0.0.1, where a proxy that passes the client's
header on would make every address forgeable. Instead ``config.asgi`` sets the ASGI client (what
the server's access log and Django's ``REMOTE_ADDR`` show) with ``client_host`` below, and the
throttles (``config.throttling.client_address``) read the same header with the same function.
"""

from __future__ import annotations

from collections.abc import Iterable


def forwarded_client(peer: str, forwarded: str, num_proxies: int) -> str:
    """The client's address: ``peer`` (the socket's) unless ``num_proxies`` > 0 and the
    ``X-Forwarded-For`` value ``forwarded`` has hops; then the one ``num_proxies`` from the
    right."""
    if num_proxies <= 0 or not forwarded.strip():
        return peer
    hops = [hop.strip() for hop in forwarded.split(",")]
    return hops[-min(num_proxies, len(hops))] or peer


def client_host(peer: str, headers: Iterable[tuple[bytes, bytes]], num_proxies: int) -> str:
    """``forwarded_client`` for an ASGI scope's raw headers (several X-Forwarded-For headers
    count as one list, in order, as HTTP defines)."""
    if num_proxies <= 0:
        return peer
    values = [value.decode("latin-1") for name, value in headers if name == b"x-forwarded-for"]
    return forwarded_client(peer, ", ".join(values), num_proxies)
