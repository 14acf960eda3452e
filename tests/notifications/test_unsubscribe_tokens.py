"""Unsubscribe links: a new token in every email, valid 60 days, naming no user id; names in
email headers never carry a line break."""

from __future__ import annotations

import base64
from datetime import timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from games.notifications import emails
from games.notifications import services as notifications

pytestmark = pytest.mark.django_db


def _path(url: str) -> str:
    return url.split("8000", 1)[1]


def _b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_token_names_a_random_key_not_the_user_id(bob, carol):
    token = emails.unsubscribe_token(bob, "turn_emails")
    payload = token.split(":")[0]
    assert payload == f"{bob.unsubscribe_key}.t"
    assert str(bob.pk) not in payload
    assert bob.unsubscribe_key != carol.unsubscribe_key and len(bob.unsubscribe_key) >= 20
    # Nothing in the token decodes to the id either (the old tokens were base64 JSON {"u": id}).
    for part in token.split(":"):
        try:
            decoded = _b64(part)
        except ValueError:
            continue
        assert b'"u"' not in decoded


def test_every_email_gets_a_new_token(bob):
    first = emails.unsubscribe_token(bob, "turn_emails")
    with time_machine.travel(timezone.now() + timedelta(seconds=5)):
        second = emails.unsubscribe_token(bob, "turn_emails")
    assert first != second
    assert emails.read_unsubscribe_token(first) == emails.read_unsubscribe_token(second)


def test_token_expires_after_60_days(bob):
    now = timezone.now()
    with time_machine.travel(now):
        path = _path(emails.unsubscribe_url(bob, "result_emails"))
    with time_machine.travel(now + timedelta(days=59)):
        assert Client().get(path).status_code == 200
    with time_machine.travel(now + timedelta(days=61)):
        page = Client().post(path)
    assert page.status_code == 410
    assert "expired" in page.content.decode()
    bob.refresh_from_db()
    assert bob.result_emails is True


def test_old_format_link_answers_a_friendly_expired_page(bob):
    old = signing.dumps({"u": bob.pk, "p": "turn_emails"}, salt="notifications.unsubscribe",
                        compress=True)
    for method in ("get", "post"):
        page = getattr(Client(), method)(f"/api/v1/notifications/unsubscribe/{old}")
        assert page.status_code == 410
        assert "This unsubscribe link has expired" in page.content.decode()
    bob.refresh_from_db()
    assert bob.turn_emails == "each"


def test_expired_page_in_the_browsers_language(bob):
    old = signing.dumps({"u": bob.pk, "p": "turn_emails"}, salt="notifications.unsubscribe")
    page = Client().get(f"/api/v1/notifications/unsubscribe/{old}", HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 410
    assert "abgelaufen" in page.content.decode()


def test_a_name_with_a_line_break_cannot_break_the_email(human_game, alice, bob, queued_sends):
    # Stored before names were validated (update() skips validation).
    type(alice).objects.filter(pk=alice.pk).update(display_name="Alice\r\nBcc: all@example.test")
    n = notifications.notify_started(game_id=human_game.pk)
    bobs = next(x for x in n if x.user_id == bob.pk)
    notifications.deliver(notification_id=bobs.pk)
    message = mail.outbox[-1]
    assert "\r" not in message.subject and "\n" not in message.subject
    assert "Alice Bcc: all@example.test" in message.subject
    assert "Bcc" not in message.message().as_string().split("\n\n", 1)[0].replace(
        message.message()["Subject"], ""
    )
