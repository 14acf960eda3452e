"""Account tasks: they take ids (or the address asked for), call a service, and are safe to run
twice (an email sent twice is the worst a redelivery does; links stay valid)."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task
from django.db import InterfaceError, OperationalError

from accounts import services
from games import dispatch

RETRIED = (SMTPException, OSError, OperationalError, InterfaceError)


@shared_task(
    name=dispatch.ACCOUNT_EMAIL, autoretry_for=RETRIED, retry_backoff=2, retry_backoff_max=30,
    retry_jitter=True, max_retries=6,
)
def send_email(kind: str, user_id: int, extra: dict | None = None) -> bool:
    return services.send_account_email(kind=kind, user_id=user_id, extra=extra)


@shared_task(
    name=dispatch.PASSWORD_RESET_EMAIL, autoretry_for=RETRIED, retry_backoff=2,
    retry_backoff_max=30, retry_jitter=True, max_retries=6,
)
def send_password_reset(email: str) -> bool:
    return services.send_password_reset(email=email)


@shared_task(name=dispatch.SWEEP_ACCOUNTS)
def sweep() -> dict[str, int]:
    """Expired device tokens; usernames of accounts deleted longer ago than the hold."""
    return {
        "devices": services.purge_expired_devices(),
        "usernames": services.free_usernames(),
    }
