"""Receivers of the games signals (sent after commit): queue the decision as a task.

Publishing must never break the request that made the move (it already committed), so a
broker failure is logged; the sweeps catch up on what matters (deadlines, reminders).
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def _publish(task_name: str, *args) -> None:
    from games.notifications import tasks

    try:
        tasks.enqueue(getattr(tasks, task_name), *args)
    except Exception:
        log.exception("could not queue %s%r", task_name, args)


def on_turn_started(sender, *, game_id: int, seat_index: int, move_number: int, **kwargs) -> None:
    _publish("notify_turn", game_id, seat_index, move_number)


def on_game_started(sender, *, game_id: int, **kwargs) -> None:
    _publish("notify_started", game_id)


def on_game_finished(sender, *, game_id: int, **kwargs) -> None:
    _publish("notify_finished", game_id)
