"""Sending claimed notifications: one send per pending row, and re-queueing lost sends."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from games import dispatch
from games.notifications import emails
from games.notifications.models import SentNotification, Status

MAX_SEND_ATTEMPTS = 8
DB_ERRORS = (OperationalError, InterfaceError)


class SendingMarkUncertain(Exception):
    """The commit of ``sending`` failed: the database may or may not have it. ``attempt`` is
    the attempt count that commit wrote, which identifies our mark on the retry."""

    def __init__(self, attempt: int):
        super().__init__(f"sending mark of attempt {attempt} may not have committed")
        self.attempt = attempt


def may_receive(user) -> bool:
    """The one gate of every game email (turns, gathered, digests, reminders, nudges,
    invitations, starts and results): only to an active account's verified address. Checked at
    the moment of sending, so an address changed or unverified since the decision gets
    nothing; account emails (verification, password reset) are accounts.emails', not these."""
    verified = user.email_verified or not settings.ACCOUNT_REQUIRE_VERIFIED_EMAIL
    return bool(user.is_active and user.email and verified)


def send_stale_after() -> timedelta:
    """A pending send older than this lost its message (or its retries): queue it again."""
    return timedelta(seconds=int(getattr(settings, "NOTIFY_SEND_STALE_SECONDS", 120)))


def requeue_stuck(*, now: datetime | None = None) -> int:
    """Queue again pending sends whose message was lost (Redis lost it, a process died before
    publishing, or the retries were used up while the database was down)."""
    now = now or timezone.now()
    stale = SentNotification.objects.filter(
        status=Status.PENDING, created_at__lt=now - send_stale_after()
    )
    SentNotification.objects.filter(pk__in=stale.filter(attempts__gte=MAX_SEND_ATTEMPTS)).update(
        status=Status.FAILED
    )
    ids = list(stale.filter(attempts__lt=MAX_SEND_ATTEMPTS).values_list("pk", flat=True)[:500])
    queued = 0
    for pk in ids:
        if not dispatch.enqueue_send(pk):
            break  # the broker is down: the next sweep tries again
        queued += 1
    return queued


def deliver(*, notification_id: int, resume_attempt: int | None = None) -> bool:
    """Send one claimed notification; False if it is not pending (sent, sending, held...).

    ``sending`` is committed before talking to SMTP, so a redelivered task never sends again;
    the price is that a worker killed in the middle of an SMTP exchange loses that one email.
    The message is built (every database read) before ``sending`` commits: a database outage
    then leaves the row ``pending`` for a retry or the sweep, never stuck in ``sending``.

    If the commit of ``sending`` itself fails, the database may have it anyway (the connection
    broke after the server committed): ``SendingMarkUncertain`` tells the task, whose retry
    passes ``resume_attempt``. A row found ``sending`` with exactly that attempt count is our
    own mark, and SMTP was never reached (we stopped at the commit): it is sent now.
    """
    broken: Exception | None = None
    marked: int | None = None
    try:
        with transaction.atomic():
            n = (
                SentNotification.objects.select_for_update(of=("self",))
                .select_related("user", "game")
                .filter(pk=notification_id)
                .first()
            )
            resuming = (
                n is not None
                and resume_attempt is not None
                and n.status == Status.SENDING
                and n.attempts == resume_attempt
            )
            if n is None or (n.status != Status.PENDING and not resuming):
                return False
            if not may_receive(n.user):
                n.status = Status.UNVERIFIED
                n.save(update_fields=["status"])
                return False
            if resuming:
                message = emails.build_message(n)
            else:
                n.attempts += 1
                try:
                    message = emails.build_message(n)
                except DB_ERRORS:
                    raise  # rolls back: still pending, retried
                except Exception as exc:  # a message that cannot be built will never be
                    broken = exc
                    n.status, n.last_error = Status.FAILED, repr(exc)[:300]
                else:
                    n.status = Status.SENDING
                marked = n.attempts if broken is None else None
                n.save(update_fields=["status", "attempts", "last_error"])
    except DB_ERRORS as exc:
        if marked is not None:
            raise SendingMarkUncertain(marked) from exc
        raise
    if broken is not None:
        raise broken
    try:
        message.send()
    except Exception as exc:
        failed = not isinstance(exc, OSError)  # SMTPException is an OSError: retried
        SentNotification.objects.filter(pk=n.pk).update(
            status=Status.FAILED if failed else Status.PENDING, last_error=repr(exc)[:300]
        )
        raise
    SentNotification.objects.filter(pk=n.pk).update(status=Status.SENT, sent_at=timezone.now())
    return True
