"""Every read a player may see. Views are built from the engine's ``view_for`` (which never
contains the opponent's rack, the bag or the seed) plus the game's own bookkeeping."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db.models import (
    Case,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    QuerySet,
    Value,
    When,
)

from games import computer_levels, errors, registry
from games.models import Game, Move, Seat

if TYPE_CHECKING:
    from accounts.models import User

OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


def _seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))


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
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def _seat(seats: Iterable[Seat], index: int) -> Seat | None:
    return next((s for s in seats if s.index == index), None)


def describe_seat(seat: Seat | None) -> dict[str, Any] | None:
    """Who sits there, as any player may see it."""
    if seat is None:
        return None
    if seat.ai_level is not None:
        return {
            "kind": "computer",
            "username": None,
            "display_name": computer_levels.display_name(seat.ai_level),
            "level": seat.ai_level,
            "level_description": computer_levels.description(seat.ai_level),
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


def result_for(game: Game, seat_index: int) -> dict[str, Any] | None:
    """The stored result as seen by ``seat_index`` (win/loss/draw, or none for an abort)."""
    result = game.result
    if not result:
        return None
    winner = result.get("winner")
    if winner is None:
        outcome = "none" if result["termination"] == "aborted" else "draw"
    else:
        outcome = "win" if winner == seat_index else "loss"
    scores = result.get("scores") or [0, 0]
    adjustments = result.get("adjustments") or [0, 0]
    other = 1 - seat_index
    return {
        "termination": result["termination"],
        "outcome": outcome,
        "scores": {"you": scores[seat_index], "opponent": scores[other]},
        "adjustments": {"you": adjustments[seat_index], "opponent": adjustments[other]},
    }


def player_view(
    *, game: Game, seat_index: int, seats: Iterable[Seat] | None = None, state: Any = None
) -> dict[str, Any]:
    """Everything the player in ``seat_index`` may know about the game.

    ``seats`` defaults to ``game.seats.all()`` (prefetch them with their users). ``state`` is
    the engine state already loaded from ``game.state``, if the caller has it: a move's result
    state is passed so the freshly saved JSON is not parsed back in the same request."""
    seats = game.seats.all() if seats is None else seats
    adapter = registry.get(game.kind)
    if state is None:
        state = adapter.load(game.state)
    view = adapter.view(state, seat_index)
    active = game.status == Game.Status.ACTIVE
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "layout": game.layout,
        "board": view["board"],
        "bonus_squares": view["bonus_squares"],
        "rack": view["rack"],
        "opponent": describe_seat(_seat(seats, 1 - seat_index)),
        "opponent_rack_size": view["opponent_rack_size"],
        "bag_size": view["bag_size"],
        "scores": view["scores"],
        "your_turn": active and game.current_seat == seat_index,
        "move_number": game.move_number,
        "scoreless_turns": view["scoreless_turns"],
        "deadline": game.turn_deadline if active else None,
        "turn_hours": game.turn_hours,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "result": result_for(game, seat_index),
        "final_racks": view.get("final_racks"),
    }


def player_games(*, user: User, status: str | None = None) -> QuerySet[Game]:
    """The user's games; ``status`` is active, waiting or finished (which includes aborted).

    Active games come with the user's turn first, then by deadline; finished by end time.
    """
    my_turn = Exists(
        Seat.objects.filter(game=OuterRef("pk"), user=user, index=OuterRef("current_seat"))
    )
    qs = (
        Game.objects.filter(seats__user=user)
        .defer("state", "options")
        .annotate(my_turn=my_turn)
        .prefetch_related(_seats_prefetch())
    )
    deadline = F("turn_deadline").asc(nulls_last=True)
    ended = F("finished_at").desc(nulls_last=True)
    if status == "active":
        return qs.filter(status=Game.Status.ACTIVE).order_by("-my_turn", deadline, "-id")
    if status == "finished":
        return qs.filter(status__in=OVER).order_by(ended, "-id")
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
    opponent = _seat(game.seats.all(), 1 - seat.index)
    active = game.status == Game.Status.ACTIVE
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "layout": game.layout,
        "opponent": describe_seat(opponent),
        "scores": {"you": seat.score, "opponent": opponent.score if opponent else 0},
        "your_turn": active and game.current_seat == seat.index,
        "move_number": game.move_number,
        "deadline": game.turn_deadline if active else None,
        "turn_hours": game.turn_hours,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "result": result_for(game, seat.index),
    }


def move_history(*, game: Game, seat_index: int) -> list[dict[str, Any]]:
    """The move log as ``seat_index`` may see it: an opponent's swap shows only its count."""
    names = {s.index: (describe_seat(s) or {}).get("display_name") for s in game.seats.all()}
    return [
        {
            "number": move.number,
            "seat": move.seat,
            "mine": move.seat == seat_index,
            "player": names.get(move.seat),
            "kind": move.kind,
            "notation": move.notation if move.seat == seat_index else move.public_notation,
            "score": move.score,
            "lines": move.lines,
            "is_timeout": move.is_timeout,
            "created_at": move.created_at,
        }
        for move in Move.objects.filter(game=game).order_by("number")
    ]
