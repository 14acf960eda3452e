"""Move analysis ("% of best"): the best move each seat had, filled in on the ``Move`` row by a
worker (``games.analyse_moves``) after the move's transaction commits.

A move's analysis needs the position before it, which the service does not keep: the game is
replayed from its seed and move log (as ``verify_games`` does), which costs little next to the
search itself (every legal placement of the rack, as ``analyze`` lists them).

What is due (``due_filter``): every analysable move of a person's seat (their own "% of best"
while the game runs), and, once the engine ended the game (finished, not awarded: the same rule
as ``selectors.analysis_public``), every analysable move of every seat (the game's analysis).
A computer's moves in a running game wait for the end: nobody may see them before.

Idempotent: each result is written with ``best_score IS NULL`` in the ``UPDATE``'s condition,
so a duplicate message, the sweep and the game-end analysis never write a move twice (and the
search is deterministic, so any of them would write the same values). Each move is saved as soon
as it is known: a task stopped by its time limit keeps what it did and the next one goes on.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import cast

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, Min, OuterRef, Q, QuerySet
from django.utils import timezone

from games import dispatch, effects, kinds
from games.kinds.base import GameKind, Refusal
from games.models import Game, Move, Seat

log = logging.getLogger(__name__)


def analyses(kind: GameKind) -> bool:
    """The kind computes a best move for (some of) its moves."""
    return bool(kind.analysed_move_kinds)


def _person_moved() -> Exists:
    """The move's seat belongs to a person (a user), whoever played it (an away person's
    stand-in plays from that person's rack: the analysis is theirs)."""
    return Exists(Seat.objects.filter(
        game_id=OuterRef("game_id"), index=OuterRef("seat"), user__isnull=False
    ))


def due_filter() -> Q:
    """Moves whose analysis is due and missing, for every kind that analyses moves."""
    by_kind = Q(pk__in=[])
    for kind in kinds.all_kinds():
        if analyses(kind):
            by_kind |= Q(game__kind=kind.name, kind__in=kind.analysed_move_kinds)
    public = Q(game__status=Game.Status.FINISHED) & ~Q(game__result__termination="awarded")
    return Q(best_score__isnull=True) & by_kind & (Q(_person_moved()) | public)


def due_moves(game: Game, up_to: int | None = None) -> QuerySet[Move]:
    moves = Move.objects.filter(due_filter(), game=game)
    if up_to is not None:
        moves = moves.filter(number__lte=up_to)
    return moves.order_by("number")


def analyse_moves(*, game_id: int, up_to: int | None = None) -> list[int]:
    """Fill in the best move of the game's due moves (numbered ``up_to`` or less, or all);
    returns the numbers written by this call. Sends ``move_analysed`` for each, and
    ``analysis_ready`` once a game over has nothing left to analyse."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return []
    kind = kinds.get(game.kind)
    if not analyses(kind):
        return []
    due = {m.number for m in due_moves(game, up_to).only("number")}
    written: list[int] = []
    if due:
        last = max(due)
        moves = list(Move.objects.filter(game=game, number__lte=last).order_by("number"))
        state = kind.new_state(seed=game.seed, options=game.options, seats=game.seat_count)
        for move in moves:
            if move.number in due:
                best = kind.best_move(state, move.seat)
                if best is not None and _save(move, best.score, best.notation):
                    written.append(move.number)
            if move.number == last:
                break
            try:
                parsed = kind.replay_move(seat=move.seat, kind=move.kind,
                                          notation=move.notation, is_timeout=move.is_timeout)
                state = kind.play(state, parsed, seat=move.seat).state
            except kind.IllegalMove as exc:
                # The log does not replay (``verify_games`` reports it): analyse nothing more.
                log.error("game %s: move %s does not replay (%s); analysis stops",
                          game_id, move.number, cast(Refusal, exc).code)
                break
    if up_to is None and game.is_over and not due_moves(game).exists():
        # The whole game was asked for and nothing is left: its analysis can be fetched.
        effects.analysis_ready(game_id)
    return written


def _save(move: Move, score: int, notation: str) -> bool:
    """Write one move's analysis unless someone already did (then nothing is sent)."""
    with transaction.atomic():
        updated = Move.objects.filter(pk=move.pk, best_score__isnull=True).update(
            best_score=score, best_notation=notation
        )
        if updated:
            effects.move_analysed(move.game_id, move.number)
    return bool(updated)


def request_analysis(*, game: Game) -> bool:
    """Queue the analysis of a game whose analysis is incomplete (its messages were lost, or
    it ended before analysis existed) at most once per ``GAMES_ANALYSIS_STALE_SECONDS``;
    True if it was queued. The caller answers from what is stored meanwhile."""
    if not analyses(kinds.get(game.kind)) or not due_moves(game).exists():
        return False
    if not _claim(game.pk):
        return False
    return dispatch.enqueue_analysis(game.pk, None)


def _claim(game_id: int) -> bool:
    """True unless this game's analysis was queued by a request or the sweep within the stale
    interval (a cache key; without the cache, queue: the task is idempotent)."""
    key = f"games:analysis-requested:{game_id}"
    try:
        return bool(cache.add(key, 1, timeout=stale_after().total_seconds()))
    except Exception:
        log.warning("cache unavailable: queueing the analysis of game %s anyway", game_id)
        return True


def stale_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "GAMES_ANALYSIS_STALE_SECONDS", 60))


def sweep_analysis(*, limit: int = 200) -> list[int]:
    """Queue the analysis of games with a due move older than ``GAMES_ANALYSIS_STALE_SECONDS``
    and younger than ``GAMES_ANALYSIS_SWEEP_HOURS`` (its message was lost); returns the game
    ids queued (at most ``limit`` per sweep, oldest moves first). Older games are analysed
    when someone asks for their analysis (``request_analysis``)."""
    now = timezone.now()
    horizon = now - timedelta(hours=getattr(settings, "GAMES_ANALYSIS_SWEEP_HOURS", 24))
    candidates = (
        Move.objects.filter(due_filter(), created_at__lte=now - stale_after(),
                            created_at__gte=horizon)
        .values("game_id")
        .annotate(oldest=Min("created_at"))
        .order_by("oldest")
        .values_list("game_id", flat=True)
    )
    game_ids = [game_id for game_id in candidates[:limit] if _claim(game_id)]
    for game_id in game_ids:
        log.info("queueing the analysis of game %s (a due move was left)", game_id)
        dispatch.enqueue_analysis(game_id, None)
    return game_ids


def enqueue_after_move(game: Game, seat_user_id: int | None, move_kind: str, number: int,
                       over: bool) -> None:
    """After a move's commit: analyse it if it is a person's, and the whole game once the
    engine ended it (called inside the move's transaction)."""
    kind = kinds.get(game.kind)
    if not analyses(kind):
        return
    if over:
        dispatch.enqueue_analysis_on_commit(game.pk, None)
    elif seat_user_id is not None and move_kind in kind.analysed_move_kinds:
        dispatch.enqueue_analysis_on_commit(game.pk, number)
