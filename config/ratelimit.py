"""What a client may read of its rate limits: ``RateLimit-Limit``, ``RateLimit-Remaining`` and
``RateLimit-Reset`` (seconds) on every answer of a throttled endpoint, for the tightest of its
limits; a 429 also carries ``Retry-After`` (``config.exceptions``). Throttles ``note`` their
count on the request; ``RequestMiddleware`` writes the headers."""

from __future__ import annotations

import math
from typing import Any

HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")
_ATTRIBUTE = "_c10s_rate_limit"


def note(request: Any, limit: int, remaining: int, reset: float) -> None:
    """Keep the tightest limit seen for this request (the fewest requests left)."""
    target = getattr(request, "_request", request)  # DRF's Request wraps Django's
    current = getattr(target, _ATTRIBUTE, None)
    if current is None or remaining < current[1]:
        setattr(target, _ATTRIBUTE, (limit, max(0, remaining), max(0.0, reset)))


def add_headers(request: Any, response: Any) -> None:
    noted = getattr(request, _ATTRIBUTE, None)
    if noted is None:
        return
    limit, remaining, reset = noted
    response["RateLimit-Limit"] = str(limit)
    response["RateLimit-Remaining"] = str(remaining)
    response["RateLimit-Reset"] = str(max(1, math.ceil(reset)))
