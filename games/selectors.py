"""Every read a player may see. A view is the game's own bookkeeping (players, turn, clock,
result) plus the kind's ``position`` for that seat (which never contains another seat's hidden
pieces, the bag or stock order, or the seed)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db.models import (
    BooleanField,
    Case,
    Count,
    ExpressionWrapper,
    F,
    IntegerField,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce
from django.utils.translation import get_language

from config.compiled_queries import CompiledQuery
from config.pagination import TOTAL
from games import errors, kinds
from games.correspondence import selectors as vacations
from games.models import Game, Move, Seat
from games.results import CANCELLED, NOT_PLAYED, SERVICE_TERMINATIONS, result_problems

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


def _seats_prefetch(*, private: bool = True) -> Prefetch:
    return Prefetch("seats", queryset=_seats(private=private))


def _seats(*, private: bool) -> QuerySet[Seat]:
    # With the end of each player's running vacation: lists show it with no query per game.
    seats = Seat.objects.select_related("user").annotate(
        vacation_until=vacations.vacation_until_annotation()
    )
    if not private:  # a list shows no rack or hand: leave the hidden state in the database
        # nor the players' accounts beyond their names (``describe_seat``), which cost more to
        # read than the rest of a list's rows
        seats = seats.defer("private", *_UNLISTED_USER_FIELDS)
    return seats.order_by("index")


_LISTED_USER_FIELDS = {"id", "username", "display_name", "deleted_at"}  # User.public_name
_UNLISTED_USER_FIELDS = [
    f"user__{field.name}" for field in get_user_model()._meta.concrete_fields
    if field.name not in _LISTED_USER_FIELDS
]


def game_for_player(*, game_id: int, user: User, defer_state: bool = False) -> tuple[Game, Seat]:
    """The game (seats and their users prefetched) and the user's seat: 404 / 403 otherwise."""
    qs = Game.objects.prefetch_related(_seats_prefetch())
    if defer_state:
        qs = qs.defer("state")
    game = qs.filter(pk=game_id).first()
    if game is None:
        raise errors.game_not_found()
    seat = seat_of(game, user)
    if seat is None:
        raise errors.not_a_player()
    return game, seat


def seat_of(game: Game, user: User) -> Seat | None:
    user_id = user.pk  # once: a request's user is a lazy object, each attribute a detour
    return next((s for s in game.seats.all() if s.user_id == user_id), None)


def _seat(seats: Iterable[Seat], index: int) -> Seat | None:
    return next((s for s in seats if s.index == index), None)


def _other_seat(game: Game, seat_index: int) -> int:
    """The other seat of a two-seat game (the v1 fields' "opponent")."""
    return next(i for i in range(game.seat_count) if i != seat_index)


def describe_seat(seat: Seat | None, kind: str | None = None) -> dict[str, Any] | None:
    """Who sits there, as any player may see it."""
    if seat is None:
        return None
    if seat.ai_level is not None:
        name, description = _computer(kind or seat.game.kind, seat.ai_level, get_language())
        return {
            "kind": "computer",
            "username": None,
            "display_name": name,
            "level": seat.ai_level,
            "level_description": description,
        }
    if seat.user is None:
        return None
    return {
        "kind": "human",
        "username": seat.user.username,
        "display_name": seat.user.public_name,
        "level": None,
        "level_description": None,
    }


@lru_cache(maxsize=256)
def _computer(kind: str, level: str, language: str | None) -> tuple[str, str]:
    """A computer seat's name and description in ``language`` (the active one): the same
    for every game (translations and committed figures), so a list of a thousand games builds
    them once per process instead of once or twice per row."""
    game_kind = kinds.get(kind)
    return game_kind.computer_name(level), game_kind.computer_description(level)


def result_for(game: Game, seat_index: int) -> dict[str, Any] | None:
    """The stored result as seen by ``seat_index`` (win/loss/draw, or none for an abort).

    A stored result that does not fit the game (written before the database refused such
    results, or by hand) must not break the read: what fits is shown, the rest comes from the
    seats (``_fitting_result``), and one error naming the game is logged."""
    result = game.result
    if result is None:
        return None
    problems = result_problems(result, game.seat_count)
    terminations = (*kinds.get(game.kind).terminations, *SERVICE_TERMINATIONS)
    if isinstance(result, dict) and result.get("termination") not in terminations:
        problems.append(f"result.termination {result.get('termination')!r} is unknown")
    if problems:
        log.error(
            "game %s: its stored result does not fit its %s seats, showing what does: %s",
            game.pk, game.seat_count, "; ".join(problems),
        )
        result = _fitting_result(game, result, terminations)
    winner = result.get("winner")
    not_played = result["termination"] in NOT_PLAYED
    if winner is None:
        outcome = "none" if not_played else "draw"
    else:
        outcome = "win" if winner == seat_index else "loss"
    winners = result.get("winners", [] if winner is None else [winner])
    if winner is None and winners and not not_played:
        outcome = "win" if seat_index in winners else "loss"  # several winners (N seats)
    scores = result.get("scores") or [0] * game.seat_count
    adjustments = result.get("adjustments") or [0] * game.seat_count
    other = _other_seat(game, seat_index)
    return {
        "termination": result["termination"],
        "outcome": outcome,
        "winners": list(winners),
        "scores": {"you": scores[seat_index], "opponent": scores[other]},
        "adjustments": {"you": adjustments[seat_index], "opponent": adjustments[other]},
    }


def _fitting_result(game: Game, stored: Any, terminations: tuple[str, ...]) -> dict[str, Any]:
    """A result of the right shape from whatever fits in ``stored``: a known termination (else
    ``aborted``), the winners that are seats, and per seat the stored score if it is a number
    (else the seat's own score, 0 for an empty seat) and adjustment (else 0)."""
    stored = stored if isinstance(stored, dict) else {}
    seats = {seat.index: seat for seat in game.seats.all()}

    def per_seat(key: str, default) -> list[int]:
        values = stored.get(key) if isinstance(stored.get(key), list) else []
        return [
            values[i] if i < len(values) and _is_int(values[i]) else default(i)
            for i in range(game.seat_count)
        ]

    termination = stored.get("termination")
    if termination not in terminations:
        termination = "aborted"
    winners = stored.get("winners") if isinstance(stored.get("winners"), list) else []
    winners = [w for w in winners if _is_int(w) and 0 <= w < game.seat_count]
    if termination in NOT_PLAYED:
        winners = []
    return {
        "termination": termination,
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "scores": per_seat("scores", lambda i: seats[i].score if i in seats else 0),
        "adjustments": per_seat("adjustments", lambda i: 0),
    }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def player_view(
    *,
    game: Game,
    seat_index: int,
    seats: Iterable[Seat] | None = None,
    state: Any = None,
    with_coach: bool = False,
) -> dict[str, Any]:
    """Everything the player in ``seat_index`` may know about the game.

    ``seats`` defaults to ``game.seats.all()`` (prefetch them with their users). ``state`` is
    the engine state already loaded from ``game.state``, if the caller has it: a move's result
    state is passed so the freshly saved JSON is not parsed back in the same request."""
    seats = list(game.seats.all() if seats is None else seats)
    kind = kinds.get(game.kind)
    if state is None:
        state = kind.load(game.state)
    summary = kind.summary(state)
    active = game.status == Game.Status.ACTIVE
    position = kind.position(state, seat_index, over=game.is_over)
    away_until = vacations.vacations_of(seats)
    view: dict[str, Any] = {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "seat_count": game.seat_count,
        "players": [
            _player(seat, seat_index, game.kind, summary.piece_counts[seat.index],
                    vacation_until=away_until.get(seat.index))
            for seat in seats
        ],
        **_turn(game, seat_index),
        "move_number": game.move_number,
        "deadline": _running_deadline(game, away_until),
        "turn_hours": game.turn_hours,
        "turn_seconds": game.turn_seconds,
        "rated": game.rated,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "result": result_for(game, seat_index),
        "position": position,
    }
    if with_coach and active and kind.coaches:
        seat = _seat(seats, seat_index)
        if seat is not None and seat.user_id is not None and _first_match(game, seat.user_id):
            view["coach"] = kind.coach(state, seat_index)
    if game.seat_count == 2 and kind.v1_view_output is not None:
        # The first API's fields, unchanged in meaning for two-seat games (older clients).
        other = _other_seat(game, seat_index)
        view.update(kind.legacy_view(position, seat=seat_index, other=other))
        view.update({
            "opponent": describe_seat(_seat(seats, other), game.kind),
            "opponent_rack_size": summary.piece_counts[other],
            "scores": {"you": summary.scores[seat_index], "opponent": summary.scores[other]},
        })
    return view


def _running_deadline(game: Game, away_until: dict[int, Any]) -> Any:
    """The turn's deadline; None when over, or while the player to move is on vacation (the
    clock stands still: ``games.correspondence``; the players' ``vacation_until`` says until
    when)."""
    if game.status != Game.Status.ACTIVE:
        return None
    if not game.turn_seconds and game.current_seat in away_until:
        return None
    return game.turn_deadline


def _turn(game: Game, seat_index: int) -> dict[str, Any]:
    """Whose turn it is, as every view and list entry says it."""
    active = game.status == Game.Status.ACTIVE
    return {
        "your_seat": seat_index,
        "to_move": game.current_seat if active else None,
        "your_turn": active and game.current_seat == seat_index,
    }


def _first_match(game: Game, user_id: int) -> bool:
    """The player has not finished a game of this kind yet (the coach speaks until then)."""
    return not Seat.objects.filter(
        user_id=user_id, game__kind=game.kind, game__status=Game.Status.FINISHED
    ).exists()


def hint(*, game: Game, seat_index: int) -> dict[str, Any]:
    """A suggested move for the seat (kinds that offer hints); ``no_hints`` otherwise."""
    kind = kinds.get(game.kind)
    if not kind.offers_hints:
        raise errors.no_hints()
    active = game.status == Game.Status.ACTIVE
    state = kind.load(game.state)
    seat = seat_index if active else None
    try:
        found = kind.hint(state, seat)
    except Exception:
        # A failing search answers the simplest legal move, never a 500.
        fallback = kind.hint_fallback(state, seat)
        if fallback is None:
            raise
        log.exception(
            "hint failed, the simplest legal move suggested instead: game %s, move %s",
            game.pk, game.move_number,
        )
        found = fallback
    return {"move": found.move, "reason": {"code": found.reason_code, "message": found.reason}}


def how_to_play(*, game: Game) -> dict[str, Any]:
    """The kind's rules in the active language, with what this game adds (its options)."""
    return {
        **kinds.get(game.kind).how_to_play(game.state),
        "kind": game.kind,
        "language": get_language() or "en",
    }


def _player(
    seat: Seat, viewer: int, kind: str, piece_count: int | None = None,
    *, vacation_until: datetime | None = None,
) -> dict[str, Any]:
    who = describe_seat(seat, kind) or {}
    return {
        "seat": seat.index,
        "name": who.get("display_name"),
        "username": who.get("username"),
        "level": who.get("level"),
        "score": seat.score,
        "result": seat.result,
        "is_you": seat.index == viewer,
        "is_computer": seat.is_computer,
        "piece_count": piece_count,
        "away": seat.away,  # tables: the computer plays this seat meanwhile
        "vacation_until": vacation_until,  # their correspondence turn clocks stand still
    }


def _ordered_seats(game: Game) -> list[Seat]:
    return sorted(game.seats.all(), key=lambda seat: seat.index)


def prefetch_list_seats(games: list[Game]) -> None:
    """The seats (and their players) of list entries: one query for several lists' games
    (``player_games(seats=False)``, ``player_games_page``), what ``_seats_prefetch(private=
    False)`` fetches, from a statement compiled once (``_list_seats``). Each game's
    ``seats.all()`` then answers from memory, as after ``prefetch_related``, without the
    filtered queryset Django's prefetch builds for every game."""
    if not games:
        return
    by_game: dict[int, list[Seat]] = {game.pk: [] for game in games}
    for seat in _list_seats(len(by_game)).run(list(by_game)):
        by_game[seat.game_id].append(seat)
    cache_name = Game.seats.field.remote_field.cache_name  # "seats"
    game_field = Seat._meta.get_field("game")
    for game in games:
        seats = by_game[game.pk]
        for seat in seats:
            game_field.set_cached_value(seat, game)  # seat.game, as the prefetch sets it
        loaded: Any = QuerySet(model=Seat)  # what a prefetch leaves: a queryset already read
        loaded._result_cache = seats
        loaded._prefetch_done = True
        game.__dict__.setdefault("_prefetched_objects_cache", {})[cache_name] = loaded


@lru_cache(maxsize=64)
def _list_seats(count: int) -> CompiledQuery[Seat]:
    """The seats of ``count`` games, compiled once per number of games."""
    return CompiledQuery(
        lambda *game_ids: _seats(private=False).filter(game_id__in=game_ids), count
    )


def player_games_page(
    *, user: User, status: str | None, offset: int = 0, limit: int | None = None,
    counted: bool = False,
) -> list[Game]:
    """``player_games(user=user, status=status, seats=False)[offset:offset + limit]`` (all of
    them without a ``limit``) read with a statement compiled once per status
    (``config.compiled_queries``); ``counted``: each game also carries the number of all the
    user's games of the list (``config.pagination.TOTAL``, ``COUNT(*) OVER ()``)."""
    if limit is None:
        assert not offset, "an offset needs a limit"
        return _player_games_page(status, counted, paged=False).run([user.pk])
    compiled = _player_games_page(status, counted, paged=True)
    return compiled.run([user.pk], limit=limit, offset=offset)


@cache
def _player_games_page(status: str | None, counted: bool, paged: bool) -> CompiledQuery[Game]:
    def build(user_id: int) -> QuerySet[Game]:
        games = _player_games(user_id, status)
        return games.annotate(**{TOTAL: Window(Count("*"))}) if counted else games

    return CompiledQuery(build, 1, paged=paged)


class PlayerGamesPages:
    """``player_games`` for ``config.pagination.CountedPaginator``: a page and the total in
    one compiled statement (``read_page``), the seats in a second one."""

    def __init__(self, user: User, status: str | None) -> None:
        self.user, self.status = user, status

    def count(self) -> int:  # the "last" page only
        return player_games(user=self.user, status=self.status, seats=False).count()

    def read_page(self, offset: int, limit: int) -> list[Game]:
        games = player_games_page(
            user=self.user, status=self.status, offset=offset, limit=limit, counted=True
        )
        prefetch_list_seats(games)
        return games


def player_games(
    *, user: User, status: str | None = None, seats: bool = True
) -> QuerySet[Game]:
    """The user's games; ``status`` is active, waiting or finished (which includes aborted).

    Active games come with the user's turn first, then by deadline; finished by end time. A
    cancelled game (a request withdrawn before anyone joined) was never played: it is not
    listed (``GET games/{id}`` still shows it). ``seats=False``: without their seats, which
    ``prefetch_list_seats`` then fetches for all the lists of a page at once.
    """
    qs = _player_games(user.pk, status)
    if seats:
        qs = qs.prefetch_related(_seats_prefetch(private=False))
    return qs


def _player_games(user_id: int, status: str | None) -> QuerySet[Game]:
    # The user's seat is joined already (the filter): it says whose turn it is without a
    # second look at the seats (an annotation after a filter reuses the filter's join).
    my_turn = Coalesce(
        ExpressionWrapper(Q(seats__index=F("current_seat")), output_field=BooleanField()),
        Value(False),
    )
    qs = (
        Game.objects.filter(seats__user_id=user_id)
        .exclude(result__termination=CANCELLED)
        .defer("state")
        .annotate(my_turn=my_turn)
    )
    deadline = F("turn_deadline").asc(nulls_last=True)
    ended = F("finished_at").desc(nulls_last=True)
    if status == "active":
        return qs.filter(status=Game.Status.ACTIVE).order_by("-my_turn", deadline, "-id")
    if status == "finished":
        # The user's seat's copy of the end time (the filter's join: the same seat), set by
        # the write that ends the game: the newest first come straight from the index
        # seat_finished_by_user, however many games the player has finished. The seat's game
        # is the game, so the tie-break is the same.
        return qs.filter(status__in=OVER).order_by(
            F("seats__finished_at").desc(), F("seats__game_id").desc()
        )
    if status == "waiting":
        return qs.filter(status=Game.Status.WAITING).order_by("-created_at", "-id")
    group = Case(
        When(status=Game.Status.ACTIVE, then=Value(0)),
        When(status=Game.Status.WAITING, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    return qs.order_by(group, "-my_turn", deadline, ended, "-id")


def game_summary(*, game: Game, user: User) -> dict[str, Any]:
    """A list entry: no board, no rack (the list never loads the private state)."""
    seat = seat_of(game, user)
    assert seat is not None
    seats = _ordered_seats(game)
    opponent = _seat(seats, _other_seat(game, seat.index))
    away_until = vacations.vacations_of(seats)
    return {
        **kinds.get(game.kind).summary_fields(game.options),
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "seat_count": game.seat_count,
        "players": [
            _player(s, seat.index, game.kind, vacation_until=away_until.get(s.index))
            for s in seats
        ],
        **_turn(game, seat.index),
        "opponent": describe_seat(opponent, game.kind),
        "scores": {"you": seat.score, "opponent": opponent.score if opponent else 0},
        "move_number": game.move_number,
        "deadline": _running_deadline(game, away_until),
        "turn_hours": game.turn_hours,
        "turn_seconds": game.turn_seconds,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "result": result_for(game, seat.index),
    }


def move_history(*, game: Game, seat_index: int) -> list[dict[str, Any]]:
    """The move log as ``seat_index`` may see it: an opponent's swap shows only its count, and
    an opponent's best move only once the game is over (``best_visible``)."""
    names = {
        s.index: (describe_seat(s, game.kind) or {}).get("display_name") for s in game.seats.all()
    }
    return [
        {
            **move.public,  # the kind's public facts (its history_output renders them)
            "number": move.number,
            "seat": move.seat,
            "mine": move.seat == seat_index,
            "player": names.get(move.seat),
            "kind": move.kind,
            "notation": move.notation if move.seat == seat_index else move.public_notation,
            "score": move.score,
            **best_of(game, move, seat_index),
            "is_timeout": move.is_timeout,
            "created_at": move.created_at,
        }
        for move in Move.objects.filter(game=game).order_by("number")
    ]


# --- move analysis ("% of best") ---------------------------------------------------------------
def percent_of_best(score: int, best_score: int) -> float:
    """``score`` as a percentage of the best available (one decimal); 100 when nothing scored
    was possible. The Daily Puzzle's results use the same figure."""
    if best_score <= 0:
        return 100.0
    return round(100.0 * score / best_score, 1)


def analysis_public(game: Game) -> bool:
    """Every seat's best moves may be shown to every player: the engine ended the game, which
    shows the final racks too. An aborted or awarded game keeps its racks private, and a best
    move names the tiles its seat held."""
    result = game.result if isinstance(game.result, dict) else {}
    return game.status == Game.Status.FINISHED and result.get("termination") != "awarded"


def best_visible(game: Game, move: Move, seat_index: int) -> bool:
    """While the game runs a player sees the best move of their own moves only: another seat's
    best move would show the tiles on that seat's rack."""
    return move.seat == seat_index or analysis_public(game)


def best_of(game: Game, move: Move, seat_index: int) -> dict[str, Any]:
    """``best_score``, ``best_notation`` and ``percent_of_best`` of a move for ``seat_index``:
    null while not analysed yet, for moves without analysis, and where it is hidden."""
    if move.best_score is None or not best_visible(game, move, seat_index):
        return {"best_score": None, "best_notation": None, "percent_of_best": None}
    return {
        "best_score": move.best_score,
        "best_notation": move.best_notation,
        "percent_of_best": percent_of_best(move.score, move.best_score),
    }


def game_analysis(
    *, game: Game, seat_index: int, history: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A game over, move by move: each move's score, the best available and its notation (as
    ``seat_index`` may see them), and per seat the average "% of best" of its analysed moves.
    ``complete`` is false while a worker is still filling moves in. Raises ``game_not_over``
    while the game runs (nothing of it may show an opponent's best move then) and
    ``no_analysis`` for kinds that do not analyse moves. ``history``: this seat's
    ``move_history`` when the caller already has it (the web's game over)."""
    analysed_kinds = kinds.get(game.kind).analysed_move_kinds
    if not analysed_kinds:
        raise errors.no_analysis()
    if not game.is_over:
        raise errors.game_not_over()
    public = analysis_public(game)
    moves = [
        {key: entry[key] for key in (
            "number", "seat", "mine", "player", "kind", "notation", "score",
            "best_score", "best_notation", "percent_of_best",
        )}
        for entry in (history if history is not None
                      else move_history(game=game, seat_index=seat_index))
    ]
    complete = all(
        m["best_score"] is not None
        for m in moves
        if m["kind"] in analysed_kinds and (m["mine"] or public)
    )
    seats = []
    for seat in game.seats.all():
        percents = [m["percent_of_best"] for m in moves
                    if m["seat"] == seat.index and m["percent_of_best"] is not None]
        seats.append({
            "seat": seat.index,
            "is_you": seat.index == seat_index,
            "moves_analysed": len(percents),
            "average_percent_of_best": (
                round(sum(percents) / len(percents), 1) if percents else None
            ),
        })
    return {"game": game.pk, "complete": complete, "seats": seats, "moves": moves}


def play_again_settings(*, game: Game, seat_index: int) -> dict[str, Any]:
    """``create_game``'s arguments for the same game again: every other seat as it was (the
    computer's level, the person who sat there), the same turn time, rating and settings
    (the engine options as stored), ``seat_index``'s player in their seat."""
    seats: list[dict[str, Any]] = []
    for seat in _ordered_seats(game):
        if seat.index == seat_index:
            seats.append({"you": True})
        elif seat.ai_level is not None:
            seats.append({"computer": seat.ai_level})
        elif seat.user is not None:
            seats.append({"username": seat.user.username})
        else:
            seats.append({"random": True})  # nobody had joined (a cancelled request)
    return {"kind": game.kind, "seats": seats, "turn_hours": game.turn_hours,
            "rated": game.rated, "engine": game.options}


def waiting_for_you_count(*, user: User) -> int:
    """Active games whose turn is the user's (the web client's badge, on every page): from a
    statement compiled once (``config.compiled_queries``)."""
    found = _WAITING_FOR_YOU.rows([user.pk])
    return found[0][0] if found else 0


_WAITING_FOR_YOU: CompiledQuery[Any] = CompiledQuery(
    lambda user_id: Seat.objects.filter(
        user_id=user_id, game__status=Game.Status.ACTIVE, game__current_seat=F("index")
    ).values("user_id").annotate(count=Count("*")).values_list("count"),  # one group: the user
    1,
)
