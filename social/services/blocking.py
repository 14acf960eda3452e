"""Block and unblock a player (issue 14). Blocking also ends a friendship or a friend request
between the two; games already running go on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Q

from social import errors
from social.models import Block, Friendship
from social.services._common import player_named

if TYPE_CHECKING:
    from accounts.models import User


def block(*, user: User, username: str) -> tuple[Block, bool]:
    """(the block, whether it is new). Blocking twice is the same block."""
    other = player_named(username)
    if other.pk == user.pk:
        raise errors.cannot_block_yourself()
    try:
        with transaction.atomic():
            row, created = Block.objects.get_or_create(blocker=user, blocked=other)
            Friendship.objects.filter(
                Q(low=user, high=other) | Q(low=other, high=user)
            ).delete()
    except IntegrityError:  # the same block, committed by a simultaneous request
        return Block.objects.get(blocker=user, blocked=other), False
    return row, created


def unblock(*, user: User, username: str) -> None:
    other = player_named(username)
    deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
    if not deleted:
        raise errors.not_blocked()


def blocked_list(*, user: User) -> list[Block]:
    return list(Block.objects.filter(blocker=user).select_related("blocked"))
