"""Watching games: who may watch, the spectator's view, and who is watching.

A person may watch a game they do not play in when the kind can be watched
(``GameKind.watchable``), nobody in it blocked them (nor they anybody in it), and either a
person playing in it is their friend, or every person playing in it made their games public
(``WatchSettings.public_games``, off by default). The spectator's view is its own shape: the
players, scores, turn and clock, the public move list and the kind's ``spectator_position``
— never a rack, a hand, the bag or the stock (nothing is taken from a seat's own view).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games import errors, kinds, selectors
from games.correspondence import selectors as vacation_selectors
from games.correspondence.models import Spectator, WatchSettings
from games.models import Game, Seat
from social import blocks
from social.models import Friendship

if TYPE_CHECKING:
    from accounts.models import User

# A spectator counts while their page asked for the game this recently (the page polls).
WATCHING_SECONDS = 60
# How often a spectator's presence is written (the page polls more often).
SEEN_WRITE_SECONDS = 20


def public_games(user: User) -> bool:
    row = WatchSettings.objects.filter(user=user).first()
    return row is not None and row.public_games


def set_public_games(*, user: User, public: bool) -> bool:
    WatchSettings.objects.update_or_create(user=user, defaults={"public_games": public})
    return public


def _friends_among(viewer: User, user_ids: set[int]) -> set[int]:
    rows = Friendship.objects.filter(
        Q(low=viewer, high_id__in=user_ids) | Q(high=viewer, low_id__in=user_ids),
        accepted_at__isnull=False,
    ).values_list("low_id", "high_id")
    return {low if high == viewer.pk else high for low, high in rows}


def _people(game: Game) -> set[int]:
    return {s.user_id for s in game.seats.all() if s.user_id is not None}


def may_watch(game: Game, viewer: User) -> bool:
    """Whether ``viewer`` may watch ``game`` (its seats prefetched)."""
    people = _people(game)
    if viewer.pk in people or not people or game.status == Game.Status.WAITING:
        return False
    if not kinds.get(game.kind).watchable:
        return False
    if any(blocks.either_blocks(viewer.pk, person) for person in people):
        return False
    if _friends_among(viewer, people):
        return True
    public = set(
        WatchSettings.objects.filter(user_id__in=people, public_games=True).values_list(
            "user_id", flat=True
        )
    )
    return public == people


def game_to_watch(*, game_id: int, viewer: User) -> Game:
    """The game (seats and users prefetched) if ``viewer`` may watch it: 404 when there is no
    such game, 403 ``not_watchable`` otherwise (the same answer whatever the reason, so a
    refusal does not tell who blocked whom)."""
    game = (
        Game.objects.prefetch_related(selectors._seats_prefetch()).filter(pk=game_id).first()
    )
    if game is None:
        raise errors.game_not_found()
    if not may_watch(game, viewer):
        raise ApiError(
            "not_watchable",
            _("You can watch a friend's games, and games every player made public."),
            status=403,
        )
    return game


def spectator_view(game: Game) -> dict[str, Any]:
    """What a spectator sees (never a seat's own view)."""
    kind = kinds.get(game.kind)
    state = kind.load(game.state)
    summary = kind.summary(state)
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    away_until = vacation_selectors.vacations_of(seats)
    active = game.status == Game.Status.ACTIVE
    result = game.result if isinstance(game.result, dict) else None
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "seat_count": game.seat_count,
        "players": [
            {
                "seat": s.index,
                "name": (selectors.describe_seat(s, game.kind) or {}).get("display_name"),
                "username": s.user.username if s.user is not None else None,
                "is_computer": s.is_computer,
                "score": s.score,
                "result": s.result,
                "piece_count": summary.piece_counts[s.index],
                "vacation_until": away_until.get(s.index),
            }
            for s in seats
        ],
        "to_move": game.current_seat if active else None,
        "move_number": game.move_number,
        "deadline": (
            None if not active or (not game.turn_seconds and game.current_seat in away_until)
            else game.turn_deadline
        ),
        "turn_hours": game.turn_hours,
        "turn_seconds": game.turn_seconds,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "result": None if result is None else {
            "termination": result.get("termination"),
            "winners": list(result.get("winners") or []),
            "scores": list(result.get("scores") or []),
        },
        # Never the game-over view: it shows every seat's pieces, which after the end are open
        # to the players only.
        "position": kind.spectator_position(state, over=False),
        "spectators": spectator_count(game_id=game.pk),
    }


# A best move names the pieces its seat held: after the end the players may see every seat's,
# a spectator never.
PLAYERS_ONLY = frozenset({"mine", "best_score", "best_notation", "percent_of_best"})


def spectator_history(game: Game) -> list[dict[str, Any]]:
    """The public move list (seat -1: nobody's own moves, every swap only its count, no best
    move even after the end)."""
    return [
        {k: (None if k in PLAYERS_ONLY and k != "mine" else v)
         for k, v in entry.items() if k != "mine"}
        for entry in selectors.move_history(game=game, seat_index=-1)
    ]


def note_watching(*, game: Game, user: User, now: datetime | None = None) -> None:
    """Record that ``user`` is watching (at most one write every ``SEEN_WRITE_SECONDS``)."""
    now = now or timezone.now()
    fresh = now - timedelta(seconds=SEEN_WRITE_SECONDS)
    if Spectator.objects.filter(game=game, user=user, seen_at__gte=fresh).exists():
        return
    Spectator.objects.update_or_create(game=game, user=user, defaults={"seen_at": now})


def spectator_count(*, game_id: int, now: datetime | None = None) -> int:
    now = now or timezone.now()
    since = now - timedelta(seconds=WATCHING_SECONDS)
    return Spectator.objects.filter(game_id=game_id, seen_at__gte=since).count()


def watchable_games_of(*, viewer: User, username: str) -> list[dict[str, Any]]:
    from django.contrib.auth import get_user_model

    player = get_user_model().objects.filter(username=username).first()
    return [] if player is None else watchable_games(viewer=viewer, player=player)


def watchable_games(*, viewer: User, player: User) -> list[dict[str, Any]]:
    """``player``'s current games that ``viewer`` may watch (their profile's list)."""
    ids = Seat.objects.filter(user=player, game__status=Game.Status.ACTIVE).values("game_id")
    games = (
        Game.objects.filter(pk__in=ids).defer("state")
        .prefetch_related(selectors._seats_prefetch()).order_by("-started_at")[:20]
    )
    out = []
    for game in games:
        if not may_watch(game, viewer):
            continue
        names = [
            (selectors.describe_seat(s, game.kind) or {}).get("display_name")
            for s in sorted(game.seats.all(), key=lambda s: s.index)
        ]
        out.append({"id": game.pk, "kind": game.kind, "title": kinds.get(game.kind).title,
                    "players": names, "move_number": game.move_number})
    return out
