"""The social features' refusals (rendered as the API's error envelope; codes never change)."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from config.errors import ApiError


def player_not_found(username: str) -> ApiError:
    return ApiError(
        "player_not_found",
        _("There is no player named '%(name)s'.") % {"name": username},
        status=404,
    )


def cannot_block_yourself() -> ApiError:
    return ApiError("cannot_block_yourself", _("You cannot block yourself."), status=400)


def not_blocked() -> ApiError:
    return ApiError("not_blocked", _("You have not blocked this player."), status=404)


def chat_banned(until: datetime) -> ApiError:
    return ApiError(
        "chat_banned",
        _("A moderator has muted your chat until %(until)s.") % {"until": until.isoformat()},
        status=403,
        details={"until": until.isoformat()},
    )


def empty_message() -> ApiError:
    return ApiError(
        "invalid", _("A chat message cannot be empty."), details={"text": ["empty"]}
    )


def game_not_over() -> ApiError:
    return ApiError(
        "game_not_over", _("A rematch can only be offered once the game is over."), status=409
    )


def rematch_unavailable() -> ApiError:
    return ApiError(
        "rematch_unavailable",
        _("A rematch is only possible for a game between two people."),
        status=409,
    )


def no_rematch_offer() -> ApiError:
    return ApiError("no_rematch_offer", _("There is no open rematch offer."), status=404)


def cannot_befriend_yourself() -> ApiError:
    return ApiError(
        "cannot_befriend_yourself", _("You cannot add yourself as a friend."), status=400
    )


def no_friend_request() -> ApiError:
    return ApiError(
        "no_friend_request", _("This player has not asked to be your friend."), status=404
    )


def not_friends() -> ApiError:
    return ApiError(
        "not_friends", _("This player is not your friend and there is no request."), status=404
    )


def profile_hidden() -> ApiError:
    return ApiError("profile_hidden", _("This player has hidden their profile."), status=403)
