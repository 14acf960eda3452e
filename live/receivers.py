"""The games' events, built from the committed rows when the games app's after-commit signals
arrive (games/signals.py). Each player gets their own copy: public facts only (the public
notation of a move, scores, whose turn), plus, for the player who moved, their own rack."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model

from games import signals
from games.models import Game, Move, Seat
from games.selectors import percent_of_best
from live.publisher import publish, publish_on_commit
from social import blocks

log = logging.getLogger(__name__)


def _humans(game_id: int) -> list[Seat]:
    return list(Seat.objects.filter(game_id=game_id, user__isnull=False).order_by("index"))


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def move_data(game: Game, move: Move, seat: Seat, scores: dict[str, int]) -> dict[str, Any]:
    """``seat``'s copy of a move event; ``scores`` by seat index, read once for every copy."""
    data = {
        "game": game.pk,
        "move_number": move.number,
        "seat": move.seat,
        "by_you": move.seat == seat.index,
        "kind": move.kind,
        "notation": move.public_notation,
        "score": move.score,
        "public": move.public,  # the kind's public record (Crazy10s: lines, drawn count)
        "drawn": (move.public or {}).get("drawn", 0),
        "scores": scores,
        "status": game.status,
        "turn": game.current_seat,
        "your_turn": game.status == Game.Status.ACTIVE and game.current_seat == seat.index,
    }
    if move.seat == seat.index:
        # Only the mover's own tiles or cards, after the draw (``Seat.private`` is that seat's
        # mirror: Crazy10s ``{"rack": [...]}``, Crazy Eights its hand), never anyone else's.
        own = dict(seat.private or {})
        data["own"] = own
        if "rack" in own:
            data["rack"] = own["rack"]
    return data


# Public engine events of a move that get an event of their own: the end of a Crazy Eights
# round (every hand is shown to everyone then) and of the match.
_ROUND_EVENTS = frozenset({"round_over", "match_over"})


def publish_move(game: Game, move_number: int) -> None:
    move = Move.objects.filter(game=game, number=move_number).first()
    if move is None:
        return
    seats = list(Seat.objects.filter(game=game).order_by("index"))
    scores = {str(s.index): s.score for s in seats}
    humans = [s for s in seats if s.user_id is not None]
    for seat in humans:
        publish(seat.user_id, "move", move_data(game, move, seat, scores), game_id=game.pk)
    for event in (move.public or {}).get("events", []):
        type_ = event.get("kind")
        if type_ not in _ROUND_EVENTS:
            continue
        data = {"game": game.pk, "move_number": move.number, **event}
        data.pop("kind", None)
        for seat in humans:
            publish(seat.user_id, type_, data, game_id=game.pk)


def on_table_changed(sender, *, table_id: int, event: str, user_id: int, **kwargs) -> None:
    """joined / left / back / dealt, to everyone at the table (and to whoever just left)."""
    from games.tables.models import Table

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    recipients = {s.user_id for s in table.seats.all() if s.user_id is not None}
    if table.game_id is not None:
        recipients |= {s.user_id for s in _humans(table.game_id)}
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


def on_seat_taken_over(sender, *, game_id: int, seat_index: int, **kwargs) -> None:
    for seat in _humans(game_id):
        publish(seat.user_id, "taken_over", {
            "game": game_id, "seat": seat_index, "yours": seat.index == seat_index,
        }, game_id=game_id)


def on_game_started(sender, *, game_id: int, **kwargs) -> None:
    game = Game.objects.defer("state").filter(pk=game_id).first()
    if game is None:
        return
    for seat in _humans(game_id):
        publish(seat.user_id, "game_started", {
            "game": game_id,
            "seat": seat.index,
            "turn": game.current_seat,
            "your_turn": game.current_seat == seat.index,
            "deadline": _iso(game.turn_deadline),
        }, game_id=game_id)


def on_turn_started(sender, *, game_id: int, seat_index: int, move_number: int, **kwargs
                    ) -> None:
    game = Game.objects.defer("state").filter(pk=game_id).first()
    if game is None:
        return
    if move_number > 0:
        publish_move(game, move_number)
    for seat in _humans(game_id):
        data = {"game": game_id, "move_number": move_number, "turn": seat_index,
                "deadline": _iso(game.turn_deadline)}
        publish(seat.user_id, "deadline", data, game_id=game_id)
        if seat.index == seat_index:
            publish(seat.user_id, "your_turn", data, game_id=game_id)


def on_game_finished(sender, *, game_id: int, **kwargs) -> None:
    game = Game.objects.defer("state").filter(pk=game_id).first()
    if game is None:
        return
    # The last move starts no turn: its event goes out here.
    if game.move_number > 0 and Move.objects.filter(
        game=game, number=game.move_number, created_at__gte=game.finished_at or game.created_at
    ).exists():
        publish_move(game, game.move_number)
    for seat in _humans(game_id):
        publish(seat.user_id, "game_finished", {
            "game": game_id,
            "status": game.status,
            "result": game.result,
            "move_number": game.move_number,
        }, game_id=game_id)


def on_move_analysed(sender, *, game_id: int, move_number: int, **kwargs) -> None:
    """A move's "% of best", to the person whose move it was and to no one else: the best move
    names the tiles that seat held (the others see it in the game's analysis once it is over).
    """
    move = Move.objects.filter(game_id=game_id, number=move_number).first()
    if move is None or move.best_score is None:
        return
    mover = Seat.objects.filter(game_id=game_id, index=move.seat, user__isnull=False).first()
    if mover is None:
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


def on_analysis_ready(sender, *, game_id: int, **kwargs) -> None:
    """A game over is analysed move by move: GET games/{id}/analysis has every move now."""
    for seat in _humans(game_id):
        publish(seat.user_id, "analysis_ready", {"game": game_id}, game_id=game_id)


def on_notification_saved(sender, *, instance, created: bool, **kwargs) -> None:
    """A nudge is a ``SentNotification`` row (games/notifications/services/reminders.py):
    its creation commits with the nudge, so the event goes out on that commit."""
    from games.notifications.models import Kind

    if not created or instance.kind != Kind.NUDGE or instance.user_id is None:
        return
    if instance.sender_id is not None and blocks.blocks(instance.user_id, instance.sender_id):
        return  # never delivered (games/notifications/services/reminders.py)
    data = {"game": instance.game_id, "move_number": instance.move_number,
            "from_seat": Seat.objects.filter(game_id=instance.game_id, user_id=instance.sender_id)
            .values_list("index", flat=True).first()}
    publish_on_commit(instance.user_id, "nudge", data, game_id=instance.game_id)


def connect() -> None:
    from django.db.models.signals import post_save

    from games.notifications.models import SentNotification

    post_save.connect(on_notification_saved, sender=SentNotification, dispatch_uid="live-nudge")
    signals.game_started.connect(on_game_started, sender=Game, dispatch_uid="live-started")
    signals.turn_started.connect(on_turn_started, sender=Game, dispatch_uid="live-turn")
    signals.game_finished.connect(on_game_finished, sender=Game, dispatch_uid="live-finished")
    signals.seat_taken_over.connect(on_seat_taken_over, sender=Game, dispatch_uid="live-away")
    signals.table_changed.connect(on_table_changed, dispatch_uid="live-table")
    signals.move_analysed.connect(on_move_analysed, sender=Game, dispatch_uid="live-analysed")
    signals.analysis_ready.connect(on_analysis_ready, sender=Game, dispatch_uid="live-analysis")
