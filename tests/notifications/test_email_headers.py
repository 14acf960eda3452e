"""Emails as mail systems expect (config/mail.py): a Message-ID in the site's domain,
Auto-Submitted, no internal user id in any header, subjects that read back without a leading
space in every language (the raw message, parsed as a mail client does)."""

import email
import email.policy
import re

import pytest
from django.core import mail

from accounts import emails as account_emails
from games.notifications import emails as game_emails
from games.notifications import services
from games.notifications.models import Kind, SentNotification

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "de", "fr", "pt-br")
USER_ID = 987654321  # distinctive: found in a header only if a header carries it


def parsed(message):
    return email.message_from_bytes(message.message().as_bytes(), policy=email.policy.default)


def assert_expected_headers(message, received, user_id: int) -> None:
    assert received["Subject"] == message.subject, received["Subject"]  # no leading space
    assert not str(received["Subject"]).startswith(" ")
    assert re.fullmatch(r"<[^@\s]+@c10s\.example>", received["Message-ID"])
    assert received["Auto-Submitted"] == "auto-generated"
    assert received["X-Auto-Response-Suppress"] == "OOF, AutoReply"
    for name, value in received.items():
        assert str(user_id) not in str(value), (name, value)


@pytest.mark.parametrize("kind", [account_emails.VERIFY, account_emails.RESET])
def test_account_emails(user_factory, settings, kind):
    settings.SITE_BASE_URL = "https://c10s.example"
    user = user_factory("bobby", id=USER_ID)
    references = set()
    for language in LANGUAGES:
        user.language = language
        message = account_emails.build_message(kind, user)
        received = parsed(message)
        assert_expected_headers(message, received, USER_ID)
        references.add(received["X-Crazy10s-Notification"])
    # One reference per account email kind and user, the kind readable: "account-verify_email:".
    [reference] = references
    assert re.fullmatch(rf"account-{kind}:[0-9a-f]{{16}}", reference)


def test_german_subjects_read_back_whole():
    """Python folded the one long encoded word of "Bestätige deine E-Mail-Adresse für Crazy10s
    Online" onto a line of its own: mail clients showed " Bestätige…"."""
    subject = "Bestätige deine E-Mail-Adresse für Crazy10s Online"
    plain = email.message_from_bytes(
        mail.EmailMessage(subject, "x", "a@b.test", ["c@d.test"]).message().as_bytes(),
        policy=email.policy.default)
    assert plain["Subject"] == " " + subject  # what Django alone sends
    from config.mail import Email

    ours = parsed(Email(subject, "x", "a@b.test", ["c@d.test"]))
    assert ours["Subject"] == subject


def test_game_emails(make_game, settings, user_factory, queued_sends):
    settings.SITE_BASE_URL = "https://c10s.example"
    zed = user_factory("zed", id=USER_ID)
    game = make_game(zed)
    n = SentNotification.objects.create(
        key=f"turn:{game.pk}:1:{zed.pk}", kind=Kind.TURN, user=zed, game=game, move_number=1,
    )
    for language in LANGUAGES:
        type(zed).objects.filter(pk=zed.pk).update(language=language)
        n = SentNotification.objects.select_related("user").get(pk=n.pk)
        message = game_emails.build_message(n)
        received = parsed(message)
        assert_expected_headers(message, received, zed.pk)
        assert re.fullmatch(rf"turn:{game.pk}:1:[0-9a-f]{{16}}",
                            received["X-Crazy10s-Notification"])
        assert received["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    notices = services.notify_started(game_id=game.pk)
    assert notices
    for started in notices:
        received = parsed(game_emails.build_message(started))
        assert re.fullmatch(rf"started:{game.pk}:[0-9a-f]{{16}}",
                            received["X-Crazy10s-Notification"])
        if started.user_id == zed.pk:
            assert_expected_headers(game_emails.build_message(started), received, zed.pk)
