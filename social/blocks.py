"""Who has blocked whom: the queries the games services ask before one player reaches another.

A base module (it imports nothing of the games app), so that game creation, table invitations
and nudges can ask it without a cycle. Writes are in ``social.services.blocking``.
"""

from __future__ import annotations

from django.db.models import Q

from social.models import Block


def blocks(blocker_id: int, other_id: int) -> bool:
    """Has ``blocker_id`` blocked ``other_id``? (One direction: the receiver's choice.)"""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=other_id).exists()


def either_blocks(a_id: int, b_id: int) -> bool:
    """Has one of the two blocked the other? (Random pairing avoids both directions.)"""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def blocked_either_way(user_id: int) -> set[int]:
    """Ids of every player ``user_id`` blocked or was blocked by (for random pairing)."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id))
    return {
        blocked if blocker == user_id else blocker
        for blocker, blocked in pairs.values_list("blocker_id", "blocked_id")
    }


def blockers_of(user_id: int) -> set[int]:
    """Everybody who blocked ``user_id`` (their chat never reaches them)."""
    return set(Block.objects.filter(blocked_id=user_id).values_list("blocker_id", flat=True))
