"""Friends: a request by username, the other accepts; a list with who is online and whose turn
it is in the games you play together; "play again"; remove.

A request from a player the receiver blocked is stored but never delivered: it is left out of
the receiver's list and sends no event, and the sender sees it as pending like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from games import services as game_services
from games.models import Game, Seat
from live.publisher import publish_on_commit
from social import blocks, errors
from social.models import Block, Friendship
from social.services._common import player_named

if TYPE_CHECKING:
    from accounts.models import User

# Online: seen in a game (a request for it) this recently.
ONLINE_WINDOW = timedelta(minutes=5)


def _pair(a: User, b: User) -> dict[str, Any]:
    low, high = (a, b) if a.pk < b.pk else (b, a)
    return {"low": low, "high": high}


def _row(user: User, other: User, *, lock: bool = False) -> Friendship | None:
    qs = Friendship.objects.filter(**_pair(user, other))
    return (qs.select_for_update() if lock else qs).first()


@dataclass
class FriendReceipt:
    status: str  # "requested" or "friends"
    created: bool


def request(*, user: User, username: str) -> FriendReceipt:
    """Ask ``username`` to be friends; if they already asked you, you are friends now."""
    other = player_named(username)
    if other.pk == user.pk:
        raise errors.cannot_befriend_yourself()
    now = timezone.now()
    try:
        with transaction.atomic():
            row = _row(user, other, lock=True)
            if row is None:
                Friendship.objects.create(**_pair(user, other), requested_by=user)
                if not blocks.blocks(other.pk, user.pk):
                    publish_on_commit(other.pk, "friend_request", {
                        "username": user.username, "name": user.public_name,
                    })
                return FriendReceipt("requested", created=True)
            if row.accepted_at is not None:
                return FriendReceipt("friends", created=False)
            if row.requested_by_id == user.pk:
                return FriendReceipt("requested", created=False)
            # They asked first: asking back accepts (unless you blocked them — then you would
            # not see their request; asking them is your choice to talk again).
            row.accepted_at = now
            row.save(update_fields=["accepted_at"])
            publish_on_commit(other.pk, "friend_accepted", {
                "username": user.username, "name": user.public_name,
            })
            return FriendReceipt("friends", created=False)
    except IntegrityError:  # both asked at the same moment: the other row won; ask again
        return request(user=user, username=username)


def accept(*, user: User, username: str) -> Friendship:
    other = player_named(username)
    with transaction.atomic():
        row = _row(user, other, lock=True)
        if row is None or row.requested_by_id != other.pk or blocks.blocks(user.pk, other.pk):
            if row is not None and row.accepted_at is not None:
                return row  # accepting twice
            raise errors.no_friend_request()
        if row.accepted_at is None:
            row.accepted_at = timezone.now()
            row.save(update_fields=["accepted_at"])
            publish_on_commit(other.pk, "friend_accepted", {
                "username": user.username, "name": user.public_name,
            })
        return row


def remove(*, user: User, username: str) -> None:
    """End a friendship, withdraw your request or decline theirs."""
    other = player_named(username)
    deleted, _ = Friendship.objects.filter(**_pair(user, other)).delete()
    if not deleted:
        raise errors.not_friends()


def friends_of(*, user: User) -> dict[str, list[dict[str, Any]]]:
    """Friends (online, games together with whose turn), incoming and outgoing requests."""
    now = timezone.now()
    rows = list(
        Friendship.objects.filter(Q(low=user) | Q(high=user)).select_related(
            "low", "high", "requested_by"
        ).order_by("created_at")
    )
    i_blocked = set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))
    friends, incoming, outgoing = [], [], []
    others = [r.high if r.low_id == user.pk else r.low for r in rows]
    seen = dict(
        Seat.objects.filter(user__in=others).values("user_id").annotate(last=Max("last_seen_at"))
        .values_list("user_id", "last")
    )
    for row, other in zip(rows, others, strict=True):
        entry: dict[str, Any] = {"username": other.username, "name": other.public_name}
        if row.accepted_at is not None:
            last = seen.get(other.pk)
            entry["online"] = last is not None and now - last <= ONLINE_WINDOW
            entry["since"] = row.accepted_at
            entry["games"] = _games_together(user, other)
            friends.append(entry)
        elif row.requested_by_id == user.pk:
            entry["since"] = row.created_at
            outgoing.append(entry)
        elif other.pk not in i_blocked:  # a blocked player's request is never delivered
            entry["since"] = row.created_at
            incoming.append(entry)
    return {"friends": friends, "incoming": incoming, "outgoing": outgoing}


def _games_together(user: User, other: User) -> list[dict[str, Any]]:
    games = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__user=user)
        .filter(seats__user=other)
        .defer("state")
        .prefetch_related("seats")
        .order_by("turn_deadline", "id")
    )
    out = []
    for game in games:
        to_move = next((s for s in game.seats.all() if s.index == game.current_seat), None)
        out.append({
            "game": game.pk,
            "kind": game.kind,
            "your_turn": to_move is not None and to_move.user_id == user.pk,
            "their_turn": to_move is not None and to_move.user_id == other.pk,
            "deadline": game.turn_deadline,
        })
    return out


def play_again(*, user: User, username: str) -> Game:
    """A new game against a friend with the settings of your last two-player game together
    (else the defaults): the "play again" of the friends list."""
    other = player_named(username)
    row = _row(user, other)
    if row is None or row.accepted_at is None:
        raise errors.not_friends()
    last = (
        Game.objects.filter(seats__user=user, seat_count=2)
        .filter(seats__user=other)
        .defer("state")
        .order_by("-created_at")
        .first()
    )
    settings: dict[str, Any] = {}
    if last is not None:
        settings = {"kind": last.kind, "turn_hours": last.turn_hours, "engine": last.options,
                    "rated": last.rated}
    return game_services.create_game(user=user, opponent={"username": other.username}, **settings)
