"""Who gets which email, when: every decision claims a ``SentNotification`` key first.

Rules (issue 4):
- never to computer seats, to users without an email address, or against a preference;
- nothing about a game to a player who looked at it in the last ``NOTIFY_SEEN_SECONDS``;
- at most one turn email per (game, turn, user): the UNIQUE key ``turn:{game}:{move}:{user}``;
- a turn notice within ``NOTIFY_GATHER_MINUTES`` of the user's last turn email is *held* and
  later sent gathered with the other held ones (``flush_held``); ``digest`` users get at most
  one email per ``NOTIFY_DIGEST_MINUTES`` listing every game waiting for them;
- the send task only sends a ``pending`` row, moving it to ``sending`` under a row lock first.

Modules by concern: ``events`` (turn, started and finished emails), ``gathering`` (held notices
sent gathered or as a digest), ``reminders`` (deadline reminders and the nudge), ``sending``
(delivery and re-queueing), ``outbox`` (game events recorded with the move, decided once),
``retention`` (purge of old records), ``preferences`` (unsubscribe); ``_common`` holds the
windows and ``_claim``. Private helpers live in their module: patch them there (e.g.
``games.notifications.services._common._enqueue_send``).
"""

from games.notifications.services._common import (
    digest_interval,
    gather_window,
    nudge_interval,
    reminder_at,
    reminder_lead,
    seen_recently,
    seen_window,
)
from games.notifications.services.events import notify_finished, notify_started, notify_turn
from games.notifications.services.gathering import flush_held, flush_user
from games.notifications.services.outbox import outbox_age, process_event, sweep_outbox
from games.notifications.services.preferences import unsubscribe
from games.notifications.services.reminders import nudge, send_due_reminders
from games.notifications.services.retention import purge_old
from games.notifications.services.sending import (
    MAX_SEND_ATTEMPTS,
    SendingMarkUncertain,
    deliver,
    requeue_stuck,
    send_stale_after,
)

__all__ = [
    "MAX_SEND_ATTEMPTS",
    "SendingMarkUncertain",
    "deliver",
    "digest_interval",
    "flush_held",
    "flush_user",
    "gather_window",
    "notify_finished",
    "notify_started",
    "notify_turn",
    "nudge",
    "nudge_interval",
    "outbox_age",
    "process_event",
    "purge_old",
    "reminder_at",
    "reminder_lead",
    "requeue_stuck",
    "seen_recently",
    "seen_window",
    "send_due_reminders",
    "send_stale_after",
    "sweep_outbox",
    "unsubscribe",
]
