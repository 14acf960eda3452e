"""Reports: players file them (``POST reports``), moderators work through them in the admin.

Filing: a player or a game (one the reporter sat in), a reason from ``Report.Reason``, a text;
at most one report per reporter, target and UTC day (a database constraint, so two requests at
once cannot both pass). Moderating: take in hand (in progress), warn by email, suspend, or
dismiss (each done); every step is recorded in the moderation log with the report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games import dispatch, errors
from games.models import Game, Seat
from games.moderation import services as moderation
from games.moderation.models import ModerationAction, Report

if TYPE_CHECKING:
    from accounts.models import User

Action = ModerationAction.Action
WARNING_EMAIL = "warning"  # accounts.emails.WARNING (sent by name through games.dispatch)


def cannot_report_yourself() -> ApiError:
    return ApiError("cannot_report_yourself", _("You cannot report yourself."))


def player_not_found() -> ApiError:
    return ApiError("player_not_found", _("No such player."), status=404)


def already_reported() -> ApiError:
    return ApiError(
        "already_reported",
        _("You have already reported this today. The moderators will look at it."),
        status=409,
    )


def file_report(
    *, reporter: User, reason: str, text: str, username: str | None = None,
    game_id: int | None = None,
) -> Report:
    """Exactly one of ``username`` and ``game_id``."""
    player = None
    game = None
    if username is not None:
        player = (
            get_user_model()
            .objects.filter(username=username, deleted_at__isnull=True)
            .first()
        )
        if player is None:
            raise player_not_found()
        if player.pk == reporter.pk:
            raise cannot_report_yourself()
    else:
        game = Game.objects.filter(pk=game_id).first() if game_id is not None else None
        if game is None:
            raise errors.game_not_found()
        seats = list(Seat.objects.filter(game=game).values_list("user_id", flat=True))
        if reporter.pk not in seats:
            raise errors.not_a_player()
        others = {u for u in seats if u is not None and u != reporter.pk}
        if not others:
            # A game against the computer only: nobody else in it to report.
            raise cannot_report_yourself()
        if len(others) == 1:
            player = get_user_model().objects.get(pk=others.pop())
    try:
        with transaction.atomic():
            return Report.objects.create(
                reporter=reporter, player=player, game=game, reason=reason, text=text,
                day=timezone.now().date(),
            )
    except IntegrityError as exc:
        raise already_reported() from exc


def _lock(report_id: int) -> Report:
    report = Report.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise ApiError("not_found", "No such report.", status=404)
    return report


def _close(report: Report, moderator: User, resolution: str) -> None:
    report.status = Report.Status.DONE
    report.handled_by = moderator
    report.resolution = resolution
    report.save(update_fields=["status", "handled_by", "resolution"])


def _need_player(report: Report) -> User:
    if report.player is None:
        raise ApiError("no_player", "This report names no single player: act on the game.")
    return report.player


def take(*, moderator: User, report_id: int) -> ModerationAction:
    with transaction.atomic():
        report = _lock(report_id)
        if report.status == Report.Status.DONE:
            raise ApiError("report_done", "This report is already done.", status=409)
        report.status = Report.Status.IN_PROGRESS
        report.handled_by = moderator
        report.save(update_fields=["status", "handled_by"])
        return ModerationAction.objects.create(
            moderator=moderator, action=Action.TAKE_REPORT, report=report,
            target_user=report.player, game=report.game,
        )


def warn(*, moderator: User, report_id: int, note: str = "") -> ModerationAction:
    """Email the reported player a warning (in their language) and close the report."""
    with transaction.atomic():
        report = _lock(report_id)
        player = _need_player(report)
        _close(report, moderator, "warned")
        dispatch.enqueue_account_email_on_commit(WARNING_EMAIL, player.pk, note=note)
        return ModerationAction.objects.create(
            moderator=moderator, action=Action.WARN_USER, report=report, target_user=player,
            game=report.game, reason=note, details={"emailed": bool(player.email)},
        )


def suspend(*, moderator: User, report_id: int, note: str = "") -> ModerationAction:
    """Suspend the reported player (``moderation.suspend_user``) and close the report."""
    with transaction.atomic():
        report = _lock(report_id)
        player = _need_player(report)
        _close(report, moderator, "suspended")
        action = moderation.suspend_user(
            moderator=moderator, user_id=player.pk, reason=note or f"report {report.pk}"
        )
        action.report = report
        action.save(update_fields=["report"])
        return action


def dismiss(*, moderator: User, report_id: int, note: str = "") -> ModerationAction:
    with transaction.atomic():
        report = _lock(report_id)
        _close(report, moderator, "dismissed")
        return ModerationAction.objects.create(
            moderator=moderator, action=Action.DISMISS_REPORT, report=report,
            target_user=report.player, game=report.game, reason=note,
        )
