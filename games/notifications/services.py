"""Who gets which email, when: every decision claims a ``SentNotification`` key first.

Rules (issue 4):
- never to computer seats, to users without an email address, or against a preference;
- nothing about a game to a player who looked at it in the last ``NOTIFY_SEEN_SECONDS``;
- at most one turn email per (game, turn, user): the UNIQUE key ``turn:{game}:{move}:{user}``;
- a turn notice within ``NOTIFY_GATHER_MINUTES`` of the user's last turn email is *held* and
  later sent gathered with the other held ones (``flush_held``); ``digest`` users get at most
  one email per ``NOTIFY_DIGEST_MINUTES`` listing every game waiting for them;
- the send task only sends a ``pending`` row, moving it to ``sending`` under a row lock first.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games import errors
from games.models import TURN_HOURS_CHOICES, Game, Seat
from games.notifications import emails
from games.notifications.models import Kind, SentNotification, Status

log = logging.getLogger(__name__)

MAX_SEND_ATTEMPTS = 8


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def seen_window() -> timedelta:
    return timedelta(seconds=_setting("NOTIFY_SEEN_SECONDS", 120))


def gather_window() -> timedelta:
    return timedelta(minutes=_setting("NOTIFY_GATHER_MINUTES", 5))


def digest_interval() -> timedelta:
    return timedelta(minutes=_setting("NOTIFY_DIGEST_MINUTES", 60))


def nudge_interval() -> timedelta:
    return timedelta(hours=_setting("NOTIFY_NUDGE_HOURS", 24))


def reminder_lead(turn_hours: int) -> timedelta:
    """Time left when the reminder goes: a fifth of the turn or one hour, whichever comes later."""
    return min(timedelta(hours=turn_hours) / 5, timedelta(hours=1))


def reminder_at(game: Game) -> datetime | None:
    if game.turn_deadline is None:
        return None
    return game.turn_deadline - reminder_lead(game.turn_hours)


def seen_recently(seat: Seat, now: datetime) -> bool:
    return seat.last_seen_at is not None and now - seat.last_seen_at < seen_window()


def _enqueue_send(notification_id: int) -> None:
    def send() -> None:
        from games.notifications import tasks

        tasks.enqueue(tasks.send_notification, notification_id)

    transaction.on_commit(send)


def _claim(key: str, **fields) -> SentNotification | None:
    """Create the record for ``key`` (None if it exists); queue the send if it is pending."""
    try:
        with transaction.atomic():
            n = SentNotification.objects.create(key=key, **fields)
    except IntegrityError:
        return None
    if n.status == Status.PENDING:
        _enqueue_send(n.pk)
    return n


def _lock_user(user_id: int):
    return get_user_model().objects.select_for_update().get(pk=user_id)


# --- events ---------------------------------------------------------------------------------
def notify_turn(
    *, game_id: int, seat_index: int, move_number: int, now: datetime | None = None
) -> SentNotification | None:
    """It became ``seat_index``'s turn after ``move_number`` moves: email, hold, or nothing."""
    now = now or timezone.now()
    if move_number == 0:
        return None  # the first turn is announced by the "game started" email
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if (
            game is None
            or game.status != Game.Status.ACTIVE
            or game.move_number != move_number
            or game.current_seat != seat_index
        ):
            return None  # the turn is already over: nothing to announce
        seat = Seat.objects.get(game=game, index=seat_index)
        if seat.user_id is None or seen_recently(seat, now):
            return None
        user = _lock_user(seat.user_id)  # serialises the gathering decision per user
        if user.turn_emails == "off" or not user.email:
            return None
        key = f"turn:{game_id}:{move_number}:{user.pk}"
        common = {"kind": Kind.TURN, "user": user, "game": game, "move_number": move_number}
        if user.turn_emails == "digest":
            last = (
                SentNotification.objects.filter(user=user, kind=Kind.DIGEST)
                .order_by("-created_at")
                .first()
            )
            due = max(now, last.created_at + digest_interval()) if last else now
            return _claim(key, status=Status.HELD, due_at=due, created_at=now, **common)
        recent = (
            SentNotification.objects.filter(
                user=user,
                kind__in=(Kind.TURN, Kind.GATHERED),
                status__in=(Status.PENDING, Status.SENDING, Status.SENT),
                created_at__gt=now - gather_window(),
            )
            .order_by("-created_at")
            .first()
        )
        if recent is not None:
            due = recent.created_at + gather_window()
            return _claim(key, status=Status.HELD, due_at=due, created_at=now, **common)
        return _claim(key, status=Status.PENDING, created_at=now, **common)


def _started_recipients(game: Game, now: datetime) -> list[Seat]:
    seats = list(game.seats.select_related("user"))
    # A game that starts right after its creation was started by its creator (seat 0): they
    # know. A random pairing starts later, when the waiting creator does want to hear of it.
    created_just_now = game.started_at and game.started_at - game.created_at < seen_window()
    return [
        s
        for s in seats
        if s.user_id is not None
        and s.user.email
        and s.user.turn_emails != "off"
        and not (s.index == 0 and created_just_now)
        and not seen_recently(s, now)
    ]


def notify_started(*, game_id: int, now: datetime | None = None) -> list[SentNotification]:
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.started_at is None:
            return []
        claimed = []
        for seat in _started_recipients(game, now):
            n = _claim(
                f"started:{game_id}:{seat.user_id}",
                kind=Kind.STARTED,
                user=seat.user,
                game=game,
                move_number=0,
                created_at=now,
            )
            if n:
                claimed.append(n)
        return claimed


def notify_finished(*, game_id: int, now: datetime | None = None) -> list[SentNotification]:
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.Status.FINISHED:
            return []  # aborted games have no result to announce
        claimed = []
        for seat in game.seats.select_related("user"):
            user = seat.user
            if user is None or not user.email or not user.result_emails:
                continue
            if seen_recently(seat, now):
                continue
            n = _claim(
                f"finished:{game_id}:{user.pk}",
                kind=Kind.FINISHED,
                user=user,
                game=game,
                move_number=game.move_number,
                created_at=now,
            )
            if n:
                claimed.append(n)
        return claimed


# --- sweeps ---------------------------------------------------------------------------------
def _games_waiting_for(user_id: int) -> list[Game]:
    return list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            seats__user_id=user_id,
            seats__index=F("current_seat"),
        ).order_by("turn_deadline", "pk")
    )


def _still_waiting(notice: SentNotification, now: datetime) -> bool:
    game = notice.game
    if game.status != Game.Status.ACTIVE or game.move_number != notice.move_number:
        return False
    seat = Seat.objects.filter(game=game, index=game.current_seat).first()
    return seat is not None and seat.user_id == notice.user_id and not seen_recently(seat, now)


def flush_user(*, user_id: int, now: datetime) -> SentNotification | None:
    """Send this user's due held turn notices as one gathered (or digest) email."""
    with transaction.atomic():
        user = _lock_user(user_id)
        notices = list(
            SentNotification.objects.select_for_update(of=("self",))
            .filter(user=user, status=Status.HELD, due_at__lte=now)
            .select_related("game")
            .order_by("pk")
        )
        if not notices:
            return None
        waiting = [n for n in notices if _still_waiting(n, now)]
        ids = [n.pk for n in notices]
        if user.turn_emails == "off" or not user.email or not waiting:
            SentNotification.objects.filter(pk__in=ids).update(status=Status.DROPPED)
            return None
        if user.turn_emails == "digest":
            kind = Kind.DIGEST
            games = [g.pk for g in _games_waiting_for(user.pk)]
        else:
            kind = Kind.GATHERED
            games = sorted({n.game_id for n in waiting})
        SentNotification.objects.filter(pk__in=[n.pk for n in waiting]).update(
            status=Status.MERGED
        )
        SentNotification.objects.filter(pk__in=ids, status=Status.HELD).update(
            status=Status.DROPPED
        )
        return _claim(
            f"{kind}:{user.pk}:{ids[0]}",
            kind=kind,
            user=user,
            payload={"games": games},
            created_at=now,
        )


def flush_held(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    user_ids = set(
        SentNotification.objects.filter(status=Status.HELD, due_at__lte=now).values_list(
            "user_id", flat=True
        )
    )
    return sum(1 for uid in user_ids if flush_user(user_id=uid, now=now) is not None)


def send_due_reminders(*, now: datetime | None = None) -> int:
    """Claim one reminder per (game, turn) whose reminder time has passed."""
    now = now or timezone.now()
    count = 0
    for hours in TURN_HOURS_CHOICES:
        games = list(
            Game.objects.filter(
                status=Game.Status.ACTIVE,
                turn_hours=hours,
                turn_deadline__gt=now,
                turn_deadline__lte=now + reminder_lead(hours),
            )
        )
        for game in games:
            seat = (
                Seat.objects.filter(game=game, index=game.current_seat)
                .select_related("user")
                .first()
            )
            if seat is None or seat.user is None or seen_recently(seat, now):
                continue
            if not seat.user.reminder_emails or not seat.user.email:
                continue
            key = f"reminder:{game.pk}:{game.move_number}:{seat.user_id}"
            if SentNotification.objects.filter(key=key).exists():
                continue
            with transaction.atomic():
                n = _claim(
                    key,
                    kind=Kind.REMINDER,
                    user=seat.user,
                    game=game,
                    move_number=game.move_number,
                    created_at=now,
                )
            count += n is not None
    return count


def requeue_stuck(*, now: datetime | None = None) -> int:
    """Queue again pending sends whose message was lost (e.g. a process died before publish)."""
    now = now or timezone.now()
    stale = SentNotification.objects.filter(
        status=Status.PENDING, created_at__lt=now - timedelta(minutes=2)
    )
    SentNotification.objects.filter(pk__in=stale.filter(attempts__gte=MAX_SEND_ATTEMPTS)).update(
        status=Status.FAILED
    )
    ids = list(stale.filter(attempts__lt=MAX_SEND_ATTEMPTS).values_list("pk", flat=True)[:500])
    from games.notifications import tasks

    for pk in ids:
        tasks.enqueue(tasks.send_notification, pk)
    return len(ids)


# --- sending --------------------------------------------------------------------------------
def deliver(*, notification_id: int) -> bool:
    """Send one claimed notification; False if it is not pending (sent, sending, held...).

    ``sending`` is committed before talking to SMTP, so a redelivered task never sends again;
    the price is that a worker killed in the middle of an SMTP exchange loses that one email.
    """
    with transaction.atomic():
        n = (
            SentNotification.objects.select_for_update(of=("self",))
            .select_related("user", "game")
            .filter(pk=notification_id)
            .first()
        )
        if n is None or n.status != Status.PENDING:
            return False
        n.status = Status.SENDING
        n.attempts += 1
        n.save(update_fields=["status", "attempts"])
    try:
        emails.build_message(n).send()
    except Exception as exc:
        failed = not isinstance(exc, OSError)  # SMTPException is an OSError: retried
        SentNotification.objects.filter(pk=n.pk).update(
            status=Status.FAILED if failed else Status.PENDING, last_error=repr(exc)[:300]
        )
        raise
    SentNotification.objects.filter(pk=n.pk).update(status=Status.SENT, sent_at=timezone.now())
    return True


# --- nudge ----------------------------------------------------------------------------------
def nudge(*, game_id: int, user, now: datetime | None = None) -> SentNotification:
    """The waiting player reminds the opponent (once per ``nudge_interval`` per game)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise errors.game_not_found()
        seats = list(game.seats.select_related("user"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise errors.not_a_player()
        # A game waiting for a random opponent has no opponent seat yet: check status first.
        opponent = next((s for s in seats if s.index != mine.index), None)
        if (
            game.status != Game.Status.ACTIVE
            or opponent is None
            or game.current_seat != opponent.index
            or opponent.user is None
        ):
            raise ApiError(
                "not_opponents_turn",
                _("You can only nudge a human opponent whose turn it is."),
                status=409,
            )
        last = (
            SentNotification.objects.filter(kind=Kind.NUDGE, game=game, sender=user)
            .order_by("-created_at")
            .first()
        )
        if last is not None and now - last.created_at < nudge_interval():
            retry_after = int((last.created_at + nudge_interval() - now).total_seconds()) + 1
            raise ApiError(
                "nudge_too_soon",
                _("You already nudged your opponent in this game recently."),
                status=429,
                details={"retry_after": retry_after},
            )
        target = opponent.user
        deliverable = target.reminder_emails and target.email and not seen_recently(opponent, now)
        n = _claim(
            f"nudge:{game.pk}:{user.pk}:{int(now.timestamp())}",
            kind=Kind.NUDGE,
            status=Status.PENDING if deliverable else Status.DROPPED,
            user=target,
            sender=user,
            game=game,
            move_number=game.move_number,
            created_at=now,
        )
        if n is None:  # the same second twice: the first one wins
            raise ApiError(
                "nudge_too_soon",
                _("You already nudged your opponent in this game recently."),
                status=429,
                details={"retry_after": int(nudge_interval().total_seconds())},
            )
        return n


# --- unsubscribe ----------------------------------------------------------------------------
def unsubscribe(*, user_id: int, preference: str) -> None:
    value = "off" if preference == "turn_emails" else False
    get_user_model().objects.filter(pk=user_id).update(**{preference: value})
