"""Refusals of the tables API (stable codes, messages in the player's language)."""

import math

from django.utils.translation import gettext as _

from config.errors import ApiError


def table_not_found() -> ApiError:
    return ApiError("table_not_found", _("No table has this code."), status=404)


def table_full() -> ApiError:
    return ApiError("table_full", _("Every seat at this table is taken."), status=409)


def not_host() -> ApiError:
    return ApiError("not_host", _("Only the host of the table may deal."), status=403)


def already_dealt() -> ApiError:
    return ApiError("already_dealt", _("The cards at this table are already dealt."), status=409)


def table_closed() -> ApiError:
    return ApiError("table_closed", _("This table is closed: everybody left."), status=409)


def not_seated() -> ApiError:
    return ApiError("not_seated", _("You do not have a seat at this table."), status=403)


def not_dealt() -> ApiError:
    return ApiError("not_dealt", _("The cards at this table are not dealt yet."), status=409)


def too_many_misses(wait: float) -> ApiError:
    seconds = max(1, math.ceil(wait))
    return ApiError(
        "throttled",
        _("Too many codes that name no table. Please wait before trying another one."),
        status=429,
        details={"wait": seconds, "retry_after": seconds},
    )
