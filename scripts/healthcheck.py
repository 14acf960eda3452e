"""Container healthcheck: exit 0 when this container's web process answers GET /healthz 200.

Sends the first concrete host of ALLOWED_HOSTS (Django answers 400 to any other Host) and
needs nothing but the standard library: it runs every few seconds.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def host_header(allowed_hosts: str) -> str:
    for host in allowed_hosts.split(","):
        host = host.strip().lstrip(".")
        if host and host != "*":
            return host
    return "localhost"


def main() -> int:
    port = os.environ.get("HEALTHCHECK_PORT", "8000")
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/healthz",
        headers={"Host": host_header(os.environ.get("ALLOWED_HOSTS", "localhost"))},
    )
    try:
        with urllib.request.urlopen(request, timeout=4) as response:
            print(response.read().decode())
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as exc:
        print(exc.read().decode(errors="replace"), file=sys.stderr)
        return 1
    except OSError as exc:
        print(exc, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
