"""Sent-notification records: the claim that makes every email happen at most once.

A row is created (UNIQUE ``key``) in the same transaction as the decision to notify; the send
task then moves it through ``pending -> sending -> sent``. A redelivered task finds the row past
``pending`` and sends nothing, so an event is never emailed twice.
"""

from urllib.parse import urlsplit

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


class PushKind(models.TextChoices):
    """What a push says; each person switches each one on or off (``PushSettings``), except
    ``clear``, which only takes a notification away."""

    TURN = "turn"  # it became your turn (opponent's name, their move's points)
    CLEAR = "clear"  # you moved (on any device): the game's notification goes
    NUDGE = "nudge"
    INVITE = "invite"  # a table invitation
    DEALT = "dealt"  # the host dealt at a table you sit at
    CHAT = "chat"
    RESULT = "result"
    REMINDER = "reminder"  # your turn's deadline is near


class PushSubscription(models.Model):
    """One browser's (or app's) push subscription (RFC 8030): where to post, and the keys to
    encrypt for it (RFC 8291). Tied to the sign-in it was made with: revoking the device
    (``device``) or signing out of the web session (``session_key``) deletes it, and so does
    a push service that answers 404 or 410."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    device = models.ForeignKey(
        "accounts.Device", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's ECDH public key (base64url)
    auth = models.CharField(max_length=40)  # the browser's 16-byte auth secret (base64url)
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]

    @property
    def host(self) -> str:
        return urlsplit(self.endpoint).hostname or ""

    def __str__(self) -> str:
        return f"push to {self.host} ({self.user_id})"


class PushSettings(models.Model):
    """A person's push choices (a row only once they change a default): one switch per kind
    of message, and whether the turn email still goes at once (``email_too``) or only when the
    turn is still waiting ``PUSH_EMAIL_DELAY_MINUTES`` after a push reached a device."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_settings"
    )
    turn = models.BooleanField(default=True)
    nudge = models.BooleanField(default=True)
    invite = models.BooleanField(default=True)
    chat = models.BooleanField(default=True)
    result = models.BooleanField(default=True)
    reminder = models.BooleanField(default=True)
    email_too = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"push settings of {self.user_id}"


class PushStatus(models.TextChoices):
    PENDING = "pending"
    SENDING = "sending"
    SENT = "sent"
    FAILED = "failed"  # retries exhausted, the service refused it, or the endpoint went private
    GONE = "gone"  # the subscription expired (404/410) and was deleted


class PushDelivery(models.Model):
    """One push to one subscription, claimed under a unique key (``push:{event}:{subscription}``)
    in the transaction that decided it, like ``SentNotification`` for emails: an event never
    pushes twice to a device. The payload holds public facts only; its text is written in the
    recipient's language when it is sent."""

    key = models.CharField(max_length=200, unique=True)
    subscription = models.ForeignKey(
        PushSubscription, null=True, on_delete=models.SET_NULL, related_name="deliveries"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=PushKind.choices)
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    move_number = models.PositiveIntegerField(null=True, blank=True)
    facts = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=16, choices=PushStatus.choices, default=PushStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # When the task's next try is due (a busy push service's Retry-After, or the backoff): the
    # sweep leaves the push to that retry until then.
    retry_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "created_at"], name="push_status_created"),
            models.Index(fields=["subscription", "game", "-id"], name="push_sub_game"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"
