"""Sent-notification records: the claim that makes every email happen at most once.

A row is created (UNIQUE ``key``) in the same transaction as the decision to notify; the send
task then moves it through ``pending -> sending -> sent``. A redelivered task finds the row past
``pending`` and sends nothing, so an event is never emailed twice.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Kind(models.TextChoices):
    TURN = "turn"  # it became your turn (sent on its own)
    GATHERED = "gathered"  # several turns gathered into one email
    DIGEST = "digest"  # hourly digest of every game waiting for you
    REMINDER = "reminder"  # your deadline is near
    STARTED = "started"
    FINISHED = "finished"
    NUDGE = "nudge"  # your opponent reminds you
    INVITE = "invite"  # someone invites you to a table (payload: code, host)


class Status(models.TextChoices):
    HELD = "held"  # a turn notice waiting to be gathered (due_at) into a gathered/digest email
    MERGED = "merged"  # a held notice that went out inside a gathered/digest email
    DROPPED = "dropped"  # held, but the game moved on before it was due
    PENDING = "pending"  # claimed, to be sent by the send task
    SENDING = "sending"  # the send task is talking to the SMTP server
    SENT = "sent"
    FAILED = "failed"  # retries exhausted
    UNVERIFIED = "unverified"  # not sent: the address was not verified when it was due


class SentNotification(models.Model):
    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    move_number = models.PositiveIntegerField(null=True, blank=True)
    # For a nudge: who nudged (the rate limit is per game and sender).
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    due_at = models.DateTimeField(null=True, blank=True)  # when a held notice may go out
    payload = models.JSONField(default=dict, blank=True)  # e.g. {"games": [ids]} when gathered
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "due_at"], name="notif_status_due"),
            models.Index(fields=["user", "kind", "created_at"], name="notif_user_kind_created"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"


class EventKind(models.TextChoices):
    TURN = "turn"
    STARTED = "started"
    FINISHED = "finished"


class NotificationEvent(models.Model):
    """The outbox: a game event that may deserve emails, written in the transaction of the
    write that caused it (a move, a start, an ending).

    The Celery message that follows the commit is only a nudge: if it is lost (Redis lost its
    data, the database was down through every retry) the sweep processes the row anyway.
    Processing decides who gets which email (``SentNotification`` claims, unique per event and
    recipient) and sets ``processed_at`` in the same transaction, so an event is decided once.
    """

    key = models.CharField(max_length=200, unique=True)  # e.g. "turn:{game}:{move}:{seat}"
    kind = models.CharField(max_length=16, choices=EventKind.choices)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat_index = models.PositiveSmallIntegerField(null=True, blank=True)
    move_number = models.PositiveIntegerField(default=0)
    # The player the event is about (the seat to move, for a turn); None for a whole-game event.
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    processed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"],
                name="notif_event_pending",
                condition=models.Q(processed_at__isnull=True),
            ),
            models.Index(fields=["processed_at"], name="notif_event_processed"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({'processed' if self.processed_at else 'pending'})"
