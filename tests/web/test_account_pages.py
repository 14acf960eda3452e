"""The account pages (issue 14) with Django's client: each form calls the API's service, shows
its refusal, and a refusal changes nothing."""

import html
import re
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.utils import timezone, translation

from accounts import links, tokens
from accounts.models import Device, User
from games.moderation.models import Report
from tests.helpers import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "another-Secret-9"


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def test_the_verification_link_page(client, user_factory):
    erin = user_factory("erin", email_verified=False)
    token = links.make_token(links.VERIFY_EMAIL, erin)
    page = client.get(f"/account/verify-email?token={token}")
    assert page.status_code == 200 and b'data-code="verified"' in page.content
    assert User.objects.get(pk=erin.pk).email_verified
    again = client.get(f"/account/verify-email?token={token}")
    assert again.status_code == 400 and b'data-code="link_used"' in again.content
    assert client.get("/account/verify-email?token=forged").status_code == 400


def test_settings_show_the_address_state_and_resend(client, user_factory):
    erin = user_factory("erin", email_verified=False)
    client.force_login(erin)
    page = client.get("/settings")
    assert b'data-verified="0"' in page.content and b'id="resend"' in page.content
    assert client.post("/account/verify-email/resend").url == "/settings?resent=1"


def _run_dev_requires_verified_email() -> bool:
    """What scripts/run_dev.sh (`make run`) sets ACCOUNT_REQUIRE_VERIFIED_EMAIL to."""
    script = (Path(__file__).resolve().parents[2] / "scripts" / "run_dev.sh").read_text()
    match = re.search(
        r'ACCOUNT_REQUIRE_VERIFIED_EMAIL="\$\{ACCOUNT_REQUIRE_VERIFIED_EMAIL:-(\w+)\}"', script)
    assert match, "run_dev.sh sets ACCOUNT_REQUIRE_VERIFIED_EMAIL"
    return match.group(1).lower() in ("1", "true", "yes", "on")


@pytest.mark.parametrize("configuration", ["production", "make run"])
@pytest.mark.parametrize("language", ["en", "de", "fr", "pt-br"])
def test_settings_and_verification_email_tell_the_truth_about_unconfirmed_addresses(
    client, user_factory, settings, configuration, language
):
    """Under `make run` game emails go to unconfirmed addresses too (may_receive): the settings
    page and the verification email must not promise "no game emails" there, and must in
    production."""
    from accounts import emails
    from games.notifications.services.sending import may_receive

    settings.ACCOUNT_REQUIRE_VERIFIED_EMAIL = (
        True if configuration == "production" else _run_dev_requires_verified_email())
    erin = user_factory("erin", email_verified=False, language=language)
    gets_game_emails = may_receive(erin)
    assert gets_game_emails == (configuration == "make run")

    client.force_login(erin)
    page = client.get("/settings").content.decode()
    state = html.unescape(re.search(r'<p id="email_state"[^>]*>(.*?)</p>', page).group(1))
    paragraph = emails.content(emails.VERIFY, erin)["paragraphs"][0]
    with translation.override(language):
        promise_page = translation.gettext(
            "Not confirmed yet: no game emails until you open the link we sent.")
        promise_email = translation.gettext(
            "Please confirm that {email} is your address: open the link below within {days} "
            "days. Until then we send you no game emails (turns, reminders, invitations, "
            "digests).").format(email=erin.email, days=settings.ACCOUNT_VERIFY_EMAIL_DAYS)
    if language != "en":  # the catalogs translate it
        assert "Until then" not in promise_email
    assert (state == promise_page) == (not gets_game_emails)
    assert (paragraph == promise_email) == (not gets_game_emails)
    if gets_game_emails and language == "en":
        assert "sends game emails to unconfirmed addresses too" in state
        assert "already sends game emails" in paragraph


def test_reset_page_sets_the_password_once(client, alice):
    Device.objects.create(user=alice, name="phone")
    token = links.make_token(links.RESET_PASSWORD, alice)
    form = client.get(f"/account/reset-password?token={token}")
    assert form.status_code == 200 and token.encode() in form.content  # opening changes nothing
    weak = client.post("/account/reset-password", {"token": token, "new_password": "password"})
    assert weak.status_code == 400 and User.objects.get(pk=alice.pk).check_password(PASSWORD)
    done = client.post("/account/reset-password", {"token": token, "new_password": NEW})
    assert done.status_code == 200 and b'data-code="reset"' in done.content
    assert User.objects.get(pk=alice.pk).check_password(NEW)
    assert not Device.objects.filter(user=alice).exists()
    used = client.post("/account/reset-password", {"token": token, "new_password": "x-Other-77"})
    assert used.status_code == 400 and User.objects.get(pk=alice.pk).check_password(NEW)


def test_an_expired_reset_link_page_says_so(client, alice):
    token = links.make_token(links.RESET_PASSWORD, alice)
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        page = client.post("/account/reset-password", {"token": token, "new_password": NEW})
    assert page.status_code == 400 and "expired" in page.content.decode()
    assert User.objects.get(pk=alice.pk).check_password(PASSWORD)


def test_forgot_password_answers_the_same_for_any_address(client, alice, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr("games.dispatch.enqueue_password_reset", asked.append)
    known = client.post("/account/forgot-password", {"email": "alice@example.test"})
    unknown = client.post("/account/forgot-password", {"email": "ghost@example.test"})
    assert known.status_code == unknown.status_code == 200
    def same(page):  # the page without its per-response CSRF token
        return re.sub(rb"[A-Za-z0-9]{64}", b"", page.content)

    assert same(known) == same(unknown) and b"is on its way" in known.content
    assert asked == ["alice@example.test", "ghost@example.test"]


def test_change_password_keeps_this_session(signed_in, alice):
    Device.objects.create(user=alice, name="phone")
    wrong = signed_in.post("/account/password",
                           {"current_password": "nope", "new_password": NEW})
    assert wrong.status_code == 400 and User.objects.get(pk=alice.pk).check_password(PASSWORD)
    assert Device.objects.filter(user=alice).exists()
    done = signed_in.post("/account/password",
                          {"current_password": PASSWORD, "new_password": NEW})
    assert done.status_code == 302
    assert signed_in.get("/settings").status_code == 200  # still signed in
    assert not Device.objects.filter(user=alice).exists()


def test_devices_page_lists_and_signs_out(signed_in, alice, bob):
    mine, _ = tokens.issue(user=alice, name="Pixel 8")
    other, _ = tokens.issue(user=alice, name="curl/8.5.0")
    bobs, _ = tokens.issue(user=bob, name="bob's")
    page = signed_in.get("/account/devices").content.decode()
    assert "Pixel 8" in page and "curl/8.5.0" in page and "bob&#x27;s" not in page
    signed_in.post("/account/devices", {"device": bobs.pk})
    assert Device.objects.filter(pk=bobs.pk).exists()  # not hers: nothing happens
    signed_in.post("/account/devices", {"device": mine.pk})
    assert list(Device.objects.filter(user=alice)) == [other]
    signed_in.post("/account/devices", {"all": "1"})
    assert not Device.objects.filter(user=alice).exists()
    assert Device.objects.filter(pk=bobs.pk).exists()


def test_report_page(signed_in, alice, bob, human_game):
    form = signed_in.get("/report?player=bob")
    assert form.status_code == 200 and b'name="reason"' in form.content
    sent = signed_in.post("/report", {"player": "bob", "reason": "abuse", "text": "rude"})
    assert sent.status_code == 200 and b'data-code="reported"' in sent.content
    again = signed_in.post("/report", {"player": "bob", "reason": "abuse", "text": "rude"})
    assert again.status_code == 400 and Report.objects.count() == 1
    myself = signed_in.post("/report", {"player": "alice", "reason": "abuse"})
    assert myself.status_code == 400 and Report.objects.count() == 1
    game = signed_in.post("/report", {"game": str(human_game.pk), "reason": "stalling"})
    assert game.status_code == 200 and Report.objects.get(game=human_game).player == bob
    assert b"/report?game=" in signed_in.get(f"/games/{human_game.pk}").content


def test_export_page_downloads_the_json(signed_in):
    response = signed_in.get("/account/export")
    assert response["Content-Disposition"].startswith("attachment")
    assert b'"username": "alice"' in response.content


def test_delete_page_needs_the_password(signed_in, alice):
    wrong = signed_in.post("/account/delete", {"password": "nope"})
    assert wrong.status_code == 400 and User.objects.get(pk=alice.pk).is_active
    done = signed_in.post("/account/delete", {"password": PASSWORD})
    assert done.status_code == 200 and b'data-code="deleted"' in done.content
    user = User.objects.get(pk=alice.pk)
    assert not user.is_active and user.display_name == f"deleted player {alice.pk}"
    assert signed_in.get("/settings").status_code == 302  # signed out


def test_signin_links_to_forgot_password(client):
    assert b'href="/account/forgot-password"' in client.get("/signin").content
