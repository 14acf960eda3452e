"""Whether a push endpoint's host is inside our network: by the name as typed, and by every
address the name resolves to (a public name such as ``127.0.0.1.nip.io`` may point at
loopback). Checked when a device subscribes and again right before each push, since a name
can change its address; the push then connects to an address of that same lookup.

``resolve_host`` is the one place that asks DNS; tests replace it (no real lookups).
"""

from __future__ import annotations

import ipaddress
import socket
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

# getaddrinfo has no timeout of its own: the lookup runs on a small pool and we stop waiting.
RESOLVE_TIMEOUT_SECONDS = 2.0
_lookups = ThreadPoolExecutor(max_workers=4, thread_name_prefix="push-dns")


class Unresolvable(Exception):
    """The host name has no address (or DNS did not answer in time)."""


def resolve_host(host: str) -> list[str]:
    """Every address ``host`` resolves to (IPv4 and IPv6)."""
    future = _lookups.submit(socket.getaddrinfo, host, None, 0, socket.SOCK_STREAM)
    try:
        infos = future.result(timeout=RESOLVE_TIMEOUT_SECONDS)
    except FutureTimeout as exc:
        raise Unresolvable(f"no answer in {RESOLVE_TIMEOUT_SECONDS}s") from exc
    except (OSError, UnicodeError) as exc:
        raise Unresolvable(exc.__class__.__name__) from exc
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise Unresolvable("no address")
    return addresses


def private_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone id is not an address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast
            or ip.is_reserved or ip.is_unspecified or not ip.is_global)


def private_name(host: str) -> bool:
    """Private by the name alone (a literal address, a local name): no lookup needed."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        return private_address(host)
    except ValueError:
        return "." not in host  # a bare name resolves inside the network


def public_addresses(host: str) -> list[str]:
    """The addresses ``host`` resolves to, every one of them public; [] when the name, or any
    address it resolves to, is inside the network (``Unresolvable`` when it does not
    resolve). One lookup: the caller connects to one of these (``pinned.session``), never
    to what a second lookup might answer."""
    if private_name(host):
        return []
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare)
        return [bare]  # a public literal address: nothing to look up
    except ValueError:
        pass
    addresses = resolve_host(bare)
    if any(private_address(address) for address in addresses):
        return []
    return addresses


def is_private(host: str) -> bool:
    """The name, or any address it resolves to, is inside the network (``Unresolvable`` when
    it does not resolve)."""
    return not public_addresses(host)
