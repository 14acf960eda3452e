"""An HTTP session whose connections go to one address checked beforehand, whatever DNS says
by the time the request is made.

Checking a push endpoint's name and then letting requests resolve it again leaves a gap: the
name can answer a public address to the check and a loopback one to the connection a moment
later (DNS rebinding). The session's connections use the address the check approved; the name
stays everywhere else (the ``Host`` header, TLS's SNI and the certificate's name check), so the
push service sees the same request as from plain requests. No proxy from the environment is
used: a proxy would resolve the name itself.
"""

from __future__ import annotations

import socket
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool


class _Pinned:
    """Connects to ``pinned_address`` instead of the name's address (the name is kept for
    everything said on the connection)."""

    pinned_address: str
    _dns_host: str

    def _new_conn(self) -> socket.socket:
        name = self._dns_host
        self._dns_host = self.pinned_address  # what urllib3 hands to create_connection
        try:
            return super()._new_conn()  # type: ignore[misc]
        finally:
            self._dns_host = name  # SNI, certificate check and Host header use the name


def session(address: str) -> requests.Session:
    """A session that connects to ``address`` (an IP address) for every URL it is given."""
    http_connection = type("PinnedHTTPConnection", (_Pinned, HTTPConnection),
                           {"pinned_address": address})
    https_connection = type("PinnedHTTPSConnection", (_Pinned, HTTPSConnection),
                            {"pinned_address": address})
    pools = {
        "http": type("PinnedHTTPPool", (HTTPConnectionPool,), {"ConnectionCls": http_connection}),
        "https": type("PinnedHTTPSPool", (HTTPSConnectionPool,),
                      {"ConnectionCls": https_connection}),
    }

    class PinnedAdapter(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = pools

    pinned = requests.Session()
    pinned.trust_env = False  # no proxy from the environment (and no .netrc)
    adapter = PinnedAdapter()
    pinned.mount("http://", adapter)
    pinned.mount("https://", adapter)
    return pinned
