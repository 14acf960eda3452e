"""How many vacation days a player has: plain numbers, no Django (read by services and pages).

- ``STARTING_DAYS`` = 7: a new player can take a week's holiday at once, the most common
  absence, without having played for months first.
- ``DAYS_PER_WEEK`` = 1, accrued continuously from sign-up (as OGS does): about 52 days a
  year, more than any paid holiday, so a regular never runs short, while a player who just
  came back cannot freeze a dozen games for a month.
- ``MAXIMUM_DAYS`` = 30: the bank stops growing there (OGS's cap), so nobody saves up a whole
  season and holds opponents hostage; the longest single vacation is the same 30 days.
"""

from __future__ import annotations

from datetime import datetime, timedelta

STARTING_DAYS = 7
DAYS_PER_WEEK = 1
MAXIMUM_DAYS = 30
DAY_SECONDS = 24 * 3600
MAXIMUM_SECONDS = MAXIMUM_DAYS * DAY_SECONDS


def accrued(balance_seconds: int, since: datetime, now: datetime) -> int:
    """The balance at ``now``: ``DAYS_PER_WEEK`` days per week since ``since``, capped."""
    elapsed = max(timedelta(0), now - since).total_seconds()
    earned = int(elapsed * DAYS_PER_WEEK / 7)
    return min(MAXIMUM_SECONDS, balance_seconds + earned)


def whole_days(seconds: int) -> int:
    return seconds // DAY_SECONDS
