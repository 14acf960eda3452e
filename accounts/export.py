"""``GET me/export``: everything the service keeps about a player, as JSON.

Only what the player may see: their profile and settings, their devices (names and dates,
never keys), their games with every move in its public form (what any player of the game sees;
other seats' hands and racks, the bag and the seed stay hidden), their puzzle attempts and the
reports they filed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string

from accounts import tokens
from games.models import Game, Move, Seat
from games.moderation.models import Report

if TYPE_CHECKING:
    from accounts.models import User


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def _games(user: User) -> list[dict[str, Any]]:
    game_ids = Seat.objects.filter(user=user).values_list("game_id", flat=True)
    games = list(Game.objects.filter(pk__in=game_ids).order_by("pk"))
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=game_ids).select_related("user").order_by(
        "game_id", "index"
    ):
        seats.setdefault(seat.game_id, []).append(seat)
    moves: dict[int, list[Move]] = {}
    for move in Move.objects.filter(game_id__in=game_ids).order_by("game_id", "number"):
        moves.setdefault(move.game_id, []).append(move)
    out = []
    for game in games:
        mine = next(s.index for s in seats[game.pk] if s.user_id == user.pk)
        out.append({
            "id": game.pk,
            "kind": game.kind,
            "status": game.status,
            "created_at": _iso(game.created_at),
            "finished_at": _iso(game.finished_at),
            "your_seat": mine,
            "players": [
                {
                    "seat": s.index,
                    "name": s.user.public_name if s.user is not None else None,
                    "computer": s.ai_level,
                    "score": s.score,
                    "result": s.result,
                }
                for s in seats[game.pk]
            ],
            "result": game.result,
            "moves": [
                {
                    "number": m.number,
                    "seat": m.seat,
                    "kind": m.kind,
                    "notation": m.public_notation,
                    "score": m.score,
                    "timeout": m.is_timeout,
                    "at": _iso(m.created_at),
                }
                for m in moves.get(game.pk, [])
            ],
        })
    return out


def _extras(user: User) -> dict[str, Any]:
    """What other apps keep of the user (``ACCOUNT_EXPORT_EXTRAS``: the Daily Puzzle's
    attempts), so accounts imports none of them."""
    found: dict[str, Any] = {}
    for path in settings.ACCOUNT_EXPORT_EXTRAS:
        found.update(import_string(path)(user))
    return found


def export(user: User) -> dict[str, Any]:
    reports = Report.objects.filter(reporter=user).order_by("pk")
    return {
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "id": user.pk,
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email,
            "email_verified": user.email_verified,
            "language": user.language,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
        },
        "notification_settings": {
            "turn_emails": user.turn_emails,
            "reminder_emails": user.reminder_emails,
            "result_emails": user.result_emails,
        },
        "devices": [
            {"name": d.name, "created": _iso(d.created), "last_used": _iso(d.last_used)}
            for d in tokens.live().filter(user=user).order_by("pk")
        ],
        "games": _games(user),
        **_extras(user),
        "reports": [
            {
                "player": r.player.username if r.player is not None else None,
                "game": r.game_id,
                "reason": r.reason,
                "text": r.text,
                "status": r.status,
                "at": _iso(r.created_at),
            }
            for r in reports
        ],
    }
