"""Reads of the social app: a player's profile and statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import Avg, Count, F, Q
from django.utils.module_loading import import_string

from games.models import Game, Move, Seat
from social import errors
from social.models import Block, Friendship, Rating, RematchOffer
from social.services import friends, rematch
from social.services._common import player_named
from social.services.settings import settings_of

if TYPE_CHECKING:
    from accounts.models import User


def rating_data(row: Rating) -> dict[str, Any]:
    return {
        "kind": row.kind,
        "rating": round(row.rating),
        "deviation": round(row.deviation),
        "volatility": round(row.volatility, 5),
        "games": row.games,
        # Lichess' convention: a rating is provisional while its deviation is wide.
        "provisional": row.deviation > 110,
    }


def _per_kind(user: User) -> dict[str, dict[str, Any]]:
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
    counts = seats.values("game__kind").annotate(
        played=Count("id"),
        won=Count("id", filter=Q(result=Seat.Result.WIN)),
        average_score=Avg("score"),
    )
    out: dict[str, dict[str, Any]] = {}
    for row in counts.order_by("game__kind"):
        kind = row["game__kind"]
        best = (
            Move.objects.filter(
                game__kind=kind,
                game__status=Game.Status.FINISHED,
                game__seats__user=user,
                game__seats__index=F("seat"),
                score__gt=0,
            )
            .order_by("-score", "created_at")
            .values("score", "public_notation", "game_id")
            .first()
        )
        out[kind] = {
            "played": row["played"],
            "won": row["won"],
            "average_score": round(row["average_score"] or 0, 1),
            "best_move": None if best is None else {
                "score": best["score"], "notation": best["public_notation"],
                "game": best["game_id"],
            },
        }
    return out


def _own_statistics(user: User) -> dict[str, Any]:
    """What only the player sees, per kind: average points per move (every move of theirs
    but resignations and timeouts, passes and swaps included), and the share of their
    analysed moves that scored as much as the best move they had (``Move.best_score``, from
    the games' analysis; turns where nothing could score are not counted)."""
    mine = Move.objects.filter(game__seats__user=user, game__seats__index=F("seat")).exclude(
        kind__in=("resign", "timeout")
    )
    rows = (
        mine.values("game__kind")
        .annotate(
            moves=Count("id"),
            average=Avg("score"),
            analysed=Count("id", filter=Q(best_score__gt=0)),
            best=Count("id", filter=Q(best_score__gt=0, score__gte=F("best_score"))),
        )
        .order_by("game__kind")
    )
    return {
        row["game__kind"]: {
            "moves": row["moves"],
            "points_per_move": round(row["average"], 2),
            "best_move_share": round(row["best"] / row["analysed"], 3) if row["analysed"]
            else None,
        }
        for row in rows
    }


def visible_player(*, viewer: User, username: str) -> User:
    """The player whose profile ``viewer`` asks for: 404 unknown, 403 hidden (but to oneself)."""
    user = player_named(username)
    if user.pk != viewer.pk and settings_of(user.pk).hide_profile:
        raise errors.profile_hidden()
    return user


def profile(*, viewer: User, username: str) -> dict[str, Any]:
    """``GET players/{username}``: the public profile (403 if hidden, except to oneself)."""
    user = visible_player(viewer=viewer, username=username)
    own = user.pk == viewer.pk
    data: dict[str, Any] = {
        "username": user.username,
        "display_name": user.public_name,
        "member_since": user.date_joined,
        "ratings": [rating_data(r) for r in Rating.objects.filter(user=user).order_by("kind")],
        "games": _per_kind(user),
    }
    for path in getattr(settings, "SOCIAL_PROFILE_EXTRAS", []):
        data.update(import_string(path)(user))
    if own:
        data["statistics"] = _own_statistics(user)
        data["hidden"] = settings_of(user.pk).hide_profile
    return data


def rematch_state(*, game: dict[str, Any], user: User) -> dict[str, Any]:
    """What a game page shows of a rematch: whether one can be offered (the game is over and
    was between two people) and the current offer (an offer from a player the viewer blocked
    was never delivered: it is not shown)."""
    people = [p for p in game["players"] if not p["is_computer"]]
    available = game["status"] in ("finished", "aborted") and len(game["players"]) == 2 == len(
        people
    )
    if not available:
        return {"available": False, "offer": None}
    offer = RematchOffer.objects.filter(game_id=game["id"]).first()
    if offer is not None and offer.offered_by_id != user.pk and offer.status == "open" and (
        Block.objects.filter(blocker=user, blocked_id=offer.offered_by_id).exists()
    ):
        offer = None
    return {
        "available": True,
        "offer": None if offer is None else rematch.offer_data(offer, user.pk),
    }


def friends_page(*, user: User) -> dict[str, Any]:
    return friends.friends_of(user=user)


def blocked_players(*, user: User) -> list[dict[str, Any]]:
    return [
        {"username": b.blocked.username, "name": b.blocked.public_name, "since": b.created_at}
        for b in Block.objects.filter(blocker=user).select_related("blocked")
    ]


def relation(*, user: User, other_username: str) -> dict[str, Any]:
    """For a profile page: is this player your friend, asked to be, blocked by you?"""
    other = player_named(other_username)
    low, high = sorted((user.pk, other.pk))
    row = Friendship.objects.filter(low_id=low, high_id=high).first()
    return {
        "friend": row is not None and row.accepted_at is not None,
        "requested": row is not None and row.accepted_at is None,
        "blocked": Block.objects.filter(blocker=user, blocked=other).exists(),
    }
