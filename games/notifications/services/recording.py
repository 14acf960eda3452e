"""The outbox's entries, written inside the game write's transaction (``games.effects`` calls
these): the event commits or rolls back with the write, so it is never lost; the Celery
message queued after the commit is only a nudge, and ``sweep_outbox`` processes whatever is
still pending after ``NOTIFY_OUTBOX_AGE_SECONDS``."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from games import dispatch, writes
from games.models import Seat
from games.notifications.models import EventKind, Kind, NotificationEvent, PushKind
from games.notifications.services import push
from games.notifications.services._common import _claim


def _record(key: str, game_id: int, *, kind: str, seat_index: int | None = None,
            move_number: int = 0, recipient_id: int | None = None) -> None:
    """Insert the outbox row unless its key is there already, in one statement (a move's
    write path counts its queries): ``INSERT ... ON CONFLICT DO NOTHING RETURNING``, which
    PostgreSQL and SQLite both speak, instead of a read, a savepoint and an insert."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(c) for c in (
        "key", "kind", "game_id", "seat_index", "move_number", "recipient_id", "created_at",
        "processed_at", "attempts", "last_error",
    ))
    # Inside a move's batch (games/writes.py) it goes with the move's other writes, and its id
    # is known when the batch is sent; the message is queued after the commit in this place
    # of the commit hooks' order all the same.
    inserted: list[int | None] = []

    def enqueue() -> None:
        if inserted and inserted[0] is not None:
            dispatch.enqueue_event(inserted[0])

    writes.add(
        f"INSERT INTO {quote(NotificationEvent._meta.db_table)} ({columns})"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, NULL, 0, '')"
        f" ON CONFLICT ({quote('key')}) DO NOTHING RETURNING {quote('id')}",
        [key, kind, game_id, seat_index, move_number, recipient_id,
         connection.ops.adapt_datetimefield_value(timezone.now())],
        inserted.append,
    )
    transaction.on_commit(enqueue)


def turn_started(*, game_id: int, seat_index: int, move_number: int, user_id: int) -> None:
    """A person's turn (the first turn is announced by the "game started" email instead)."""
    if move_number == 0:
        return
    _record(
        f"turn:{game_id}:{move_number}:{seat_index}", game_id,
        kind=EventKind.TURN, seat_index=seat_index, move_number=move_number,
        recipient_id=user_id,
    )


def game_started(*, game_id: int) -> None:
    _record(f"started:{game_id}", game_id, kind=EventKind.STARTED)


def game_finished(*, game_id: int) -> None:
    _record(f"finished:{game_id}", game_id, kind=EventKind.FINISHED)


def table_invitation(
    *, table_id: int, code: str, kind: str, user_id: int, host_id: int
) -> None:
    """Claim the invitation email inside the table's transaction (once per table and person);
    the send is queued after the commit and ``requeue_stuck`` re-sends a lost one."""
    user = get_user_model().objects.filter(pk=user_id).first()
    host = get_user_model().objects.filter(pk=host_id).first()
    if user is None or host is None:
        return
    push.claim(event=f"invite:{table_id}:{user_id}", kind=PushKind.INVITE, user_id=user_id,
               facts={"code": code, "kind": kind, "host": host.public_name,
                      "url": f"/tables/{code}"})
    if not user.email or user.turn_emails == "off":
        return
    _claim(
        f"invite:{table_id}:{user_id}",
        kind=Kind.INVITE,
        user=user,
        payload={
            "code": code,
            "kind": kind,
            "host": host.public_name,
            "url": f"{settings.SITE_BASE_URL}/tables/{code}",
        },
    )


def table_dealt(*, table_id: int, code: str, game_id: int, host_id: int) -> None:
    """The host dealt: a push to every person seated at the table but the host (they are
    probably waiting in the lobby, or left it open in another tab)."""
    host = get_user_model().objects.filter(pk=host_id).first()
    people = (
        Seat.objects.filter(game_id=game_id, user__isnull=False)
        .exclude(user_id=host_id)
        .values_list("user_id", flat=True)
    )
    for user_id in people:
        assert user_id is not None
        push.claim(event=f"dealt:{table_id}:{user_id}", kind=PushKind.DEALT, user_id=user_id,
                   game_id=game_id, move_number=0,
                   facts={"code": code, "host": host.public_name if host else "",
                          "game": game_id})
