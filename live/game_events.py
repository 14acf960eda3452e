"""The games' events on the players' streams, published after the write that caused them
committed (``games.effects`` schedules them). Each player gets their own copy: public facts
only (the public notation of a move, scores, whose turn), plus, for the player who moved,
their own pieces. A move's kind-specific facts come through the kind's ``history_output``.

The functions take what the write had in hand (a ``Snapshot`` of the game and its seats) so
that publishing reads nothing back from the database.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

from config import fast_render
from games import kinds
from games.models import Game, Seat
from games.selectors import percent_of_best
from live.publisher import publish
from social import blocks

log = logging.getLogger(__name__)

# Public engine events of a move that get an event of their own: the end of a round (every
# hand is shown to everyone then) and of a match (Crazy Eights).
ROUND_EVENTS = frozenset({"round_over", "match_over"})


@dataclass(frozen=True)
class SeatFacts:
    index: int
    user_id: int | None
    score: int
    private: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Snapshot:
    """A game and its seats as the write left them (read when it was scheduled)."""

    game_id: int
    kind: str
    status: str
    current_seat: int | None
    move_number: int
    deadline: str | None
    result: dict[str, Any] | None
    seats: tuple[SeatFacts, ...]

    @classmethod
    def of(cls, game: Game, seats: list[Seat]) -> Snapshot:
        deadline = game.turn_deadline
        return cls(
            game_id=game.pk,
            kind=game.kind,
            status=game.status,
            current_seat=game.current_seat,
            move_number=game.move_number,
            deadline=deadline.isoformat() if deadline is not None else None,
            result=game.result,
            seats=tuple(
                SeatFacts(s.index, s.user_id, s.score, dict(s.private or {})) for s in seats
            ),
        )

    @property
    def people(self) -> list[tuple[int, SeatFacts]]:
        """(user id, seat) of every seat a person holds."""
        return [(s.user_id, s) for s in self.seats if s.user_id is not None]

    def your_turn(self, seat: SeatFacts) -> bool:
        return self.status == Game.Status.ACTIVE and self.current_seat == seat.index


@dataclass(frozen=True)
class MoveFacts:
    number: int
    seat: int
    kind: str
    public_notation: str
    score: int
    public: dict[str, Any]


def move_played(game: Snapshot, move: MoveFacts) -> None:
    """A ``move`` event for every person at the game; the mover's copy carries their own
    pieces (``own``: their rack or hand after the move), nobody else's."""
    facts = fast_render.render(kinds.get(game.kind).history_output, move.public)
    scores = {str(s.index): s.score for s in game.seats}
    for user_id, seat in game.people:
        data = {
            **facts,
            "game": game.game_id,
            "move_number": move.number,
            "seat": move.seat,
            "by_you": move.seat == seat.index,
            "kind": move.kind,
            "notation": move.public_notation,
            "score": move.score,
            "public": facts,
            "scores": scores,
            "status": game.status,
            "turn": game.current_seat,
            "your_turn": game.your_turn(seat),
        }
        if move.seat == seat.index:
            data["own"] = seat.private
        publish(user_id, "move", data, game_id=game.game_id)
    for event in move.public.get("events", []):
        type_ = event.get("kind") if isinstance(event, dict) else None
        if type_ not in ROUND_EVENTS:
            continue
        data = {"game": game.game_id, "move_number": move.number, **event}
        data.pop("kind", None)
        for user_id, _seat in game.people:
            publish(user_id, type_, data, game_id=game.game_id)


def game_started(game: Snapshot) -> None:
    for user_id, seat in game.people:
        publish(user_id, "game_started", {
            "game": game.game_id,
            "seat": seat.index,
            "turn": game.current_seat,
            "your_turn": game.current_seat == seat.index,
            "deadline": game.deadline,
        }, game_id=game.game_id)


def turn_started(game: Snapshot) -> None:
    """``deadline`` to everyone, ``your_turn`` to the player to move."""
    data = {"game": game.game_id, "move_number": game.move_number, "turn": game.current_seat,
            "deadline": game.deadline}
    for user_id, seat in game.people:
        publish(user_id, "deadline", data, game_id=game.game_id)
        if seat.index == game.current_seat:
            publish(user_id, "your_turn", data, game_id=game.game_id)


def game_finished(game: Snapshot) -> None:
    for user_id, _seat in game.people:
        publish(user_id, "game_finished", {
            "game": game.game_id,
            "status": game.status,
            "result": game.result,
            "move_number": game.move_number,
        }, game_id=game.game_id)


def seat_taken_over(game: Snapshot, seat_index: int) -> None:
    for user_id, seat in game.people:
        publish(user_id, "taken_over", {
            "game": game.game_id, "seat": seat_index, "yours": seat.index == seat_index,
        }, game_id=game.game_id)


def move_analysed(*, game_id: int, move_number: int) -> None:
    """A move's "% of best", to the person whose move it was and to no one else: the best move
    names the pieces that seat held (the others see it in the game's analysis once it is
    over)."""
    from games.models import Move

    move = Move.objects.filter(game_id=game_id, number=move_number).first()
    if move is None or move.best_score is None:
        return
    mover = Seat.objects.filter(game_id=game_id, index=move.seat, user__isnull=False).first()
    if mover is None or mover.user_id is None:
        return  # a computer's move: nobody's own
    publish(mover.user_id, "move_analysed", {
        "game": game_id,
        "move_number": move.number,
        "seat": move.seat,
        "kind": move.kind,
        "notation": move.notation,
        "score": move.score,
        "best_score": move.best_score,
        "best_notation": move.best_notation,
        "percent_of_best": percent_of_best(move.score, move.best_score),
    }, game_id=game_id)


def analysis_ready(*, game_id: int) -> None:
    """A game over is analysed move by move: GET games/{id}/analysis has every move now."""
    people = Seat.objects.filter(game_id=game_id, user__isnull=False).values_list(
        "user_id", flat=True
    )
    for user_id in people:
        publish(user_id, "analysis_ready", {"game": game_id}, game_id=game_id)


def nudge(*, game_id: int, move_number: int, recipient_id: int, sender_id: int) -> None:
    """A nudge reaches its recipient's stream unless the recipient blocked the sender (the
    nudge is recorded then, but never delivered)."""
    if blocks.blocks(recipient_id, sender_id):
        return
    from_seat = (
        Seat.objects.filter(game_id=game_id, user_id=sender_id)
        .values_list("index", flat=True).first()
    )
    publish(recipient_id, "nudge", {
        "game": game_id, "move_number": move_number, "from_seat": from_seat,
    }, game_id=game_id)


def nudge_on_commit(**kwargs: int) -> None:
    from django.db import transaction

    transaction.on_commit(lambda: nudge(**kwargs))


def table_changed(*, table_id: int, event: str, user_id: int) -> None:
    """joined / left / back / dealt, to everyone at the table (and to whoever just left)."""
    from games.tables.models import Table

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    recipients = {s.user_id for s in table.seats.all() if s.user_id is not None}
    if table.game_id is not None:
        recipients |= set(
            Seat.objects.filter(game_id=table.game_id, user__isnull=False)
            .values_list("user_id", flat=True)
        )
    recipients.add(user_id)
    actor = get_user_model().objects.filter(pk=user_id).first()
    data = {
        "table": table.code,
        "game": table.game_id,
        "event": event,
        "player": actor.public_name if actor is not None else None,
        "status": table.status,
    }
    for recipient in sorted(recipients):
        publish(recipient, f"table_{event}", data, game_id=table.game_id)
