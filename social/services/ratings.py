"""Ratings: Glicko-2 per game kind, applied once per finished game.

Path: ``game_finished`` (after commit) -> ``games.dispatch.enqueue_rating`` -> the task
``social.rate_game`` -> ``rate_game`` here. It locks the game row, and writes a ``RatedGame``
marker (one per game, unique) with the ``RatingChange`` rows (unique per game and player) in
the same transaction, so a game is rated exactly once however often the task runs; the beat
sweep ``social.sweep_ratings`` rates finished games whose message was lost.

Rated: a finished game with ``Game.rated`` between two people (two seats, no computer). Never:
computer games, aborted games, games with more seats. The result score is 1/0.5/0, or, for a
kind with ``rating_margin`` (Crazy10s), moved by the final score margin
(``social.glicko2.margin_score``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import dispatch, kinds
from games.models import Game, Seat
from social import glicko2
from social.models import RatedGame, Rating, RatingChange

log = logging.getLogger(__name__)

# A finished game still unrated this long after it ended lost its message: the sweep rates it.
SWEEP_AGE = timedelta(seconds=60)


def is_ratable(game: Game, seats: list[Seat]) -> bool:
    return (
        game.status == Game.Status.FINISHED
        and game.rated
        and len(seats) == 2
        and all(s.user_id is not None and s.ai_level is None for s in seats)
        and (game.result or {}).get("termination") != "aborted"
    )


def _scores(game: Game, seats: list[Seat]) -> tuple[float, float]:
    """Each seat's Glicko result (1 win, 0 loss, 0.5 draw; for margin kinds in between)."""
    margin_kind = kinds.get(game.kind).rating_margin
    result = game.result or {}
    winners = result.get("winners") or []
    points = result.get("scores") or [s.score for s in seats]
    out = []
    for seat, other in ((seats[0], seats[1]), (seats[1], seats[0])):
        won = seat.index in winners
        lost = other.index in winners
        if not won and not lost:
            out.append(0.5)
            continue
        if not margin_kind or result.get("termination") == "awarded":
            out.append(1.0 if won else 0.0)
            continue
        # A win by resignation or timeout with fewer points counts as the narrowest win.
        margin = points[seat.index] - points[other.index]
        out.append(glicko2.margin_score(margin, won=won))
    return out[0], out[1]


def _rating_row(user_id: int, kind: str) -> Rating:
    row, _ = Rating.objects.select_for_update().get_or_create(user_id=user_id, kind=kind)
    return row


def rate_game(*, game_id: int) -> bool:
    """Apply the game's result to both ratings; False if it was done before or the game is
    unrated (it is marked as dealt with then too)."""
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).defer("state").filter(
            pk=game_id
        ).first()
        if game is None or not game.is_over or RatedGame.objects.filter(game=game).exists():
            return False
        seats = list(Seat.objects.filter(game=game).order_by("index"))
        applied = is_ratable(game, seats)
        if applied:
            _apply(game, seats)
        RatedGame.objects.create(game=game, applied=applied)
        return applied


def _person(seat: Seat) -> int:
    assert seat.user_id is not None  # a rated game's seats are people's (is_ratable)
    return seat.user_id


def _apply(game: Game, seats: list[Seat]) -> None:
    # Lock both ratings in user order (two games finishing at once never deadlock).
    rows = {uid: _rating_row(uid, game.kind) for uid in sorted(_person(s) for s in seats)}
    before = {
        uid: glicko2.Rating(r.rating, r.deviation, r.volatility) for uid, r in rows.items()
    }
    scores = _scores(game, seats)
    for seat, other, score in ((seats[0], seats[1], scores[0]),
                               (seats[1], seats[0], scores[1])):
        mine, theirs = before[_person(seat)], before[_person(other)]
        new = glicko2.rate(
            mine, [glicko2.Result(theirs, score)], min_deviation=glicko2.MIN_DEVIATION
        )
        row = rows[_person(seat)]
        RatingChange.objects.create(
            user_id=_person(seat),
            game=game,
            kind=game.kind,
            rating_before=mine.rating,
            deviation_before=mine.deviation,
            rating_after=new.rating,
            deviation_after=new.deviation,
            volatility_after=new.volatility,
            score=score,
        )
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        row.save()


def sweep(*, now=None, limit: int = 50) -> list[int]:
    """Queue the rating of finished games never dealt with (their message was lost, or they
    ended before this existed); the oldest first, ``limit`` per run. The sweep only queues
    (it stays far below the task time limit however long the backlog), and a game queued
    twice is rated once."""
    now = now or timezone.now()
    pending = list(
        Game.objects.filter(
            status__in=(Game.Status.FINISHED, Game.Status.ABORTED),
            finished_at__lte=now - SWEEP_AGE,
        )
        .exclude(pk__in=RatedGame.objects.values("game_id"))
        .order_by("finished_at", "id")
        .values_list("pk", flat=True)[:limit]
    )
    for game_id in pending:
        dispatch.enqueue_rating(game_id)
    return pending


def ratings_of(user_id: int) -> list[Rating]:
    return list(Rating.objects.filter(user_id=user_id).order_by("kind"))


def history_of(user_id: int, *, limit: int = 100) -> list[RatingChange]:
    return list(RatingChange.objects.filter(user_id=user_id).order_by("-created_at", "-id")[:limit])
