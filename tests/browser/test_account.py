"""The account pages in a real browser, at phone and desktop size: confirm the address from its
link, change the password, see and sign out a device, report a player, forget the password and
reset it from its link, delete the account. The links are made by the same code as the emails'
(accounts.links); the emails themselves are read from SMTP in tests/accounts."""

import pytest

from accounts import links, tokens
from accounts.models import Device, User
from games.moderation.models import Report
from tests.browser.conftest import sign_up
from tests.helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

NEW = "another-Secret-9"
NEWER = "third-Secret-77"


def _path(url: str) -> str:
    """``SITE_BASE_URL/account/...?token=...`` -> ``/account/...?token=...`` (this server)."""
    return "/" + url.split("://", 1)[-1].split("/", 1)[-1]


def test_account_pages(page, shot, assert_accessible, user_factory):
    other = user_factory(display_name="Other")
    name = sign_up(page)
    user = User.objects.get(username=name)

    # The address is not confirmed yet; the link confirms it.
    page.goto("/settings")
    page.locator('#email_state[data-verified="0"]').wait_for()
    page.get_by_role("button", name="Send the link again").click()
    page.get_by_text("A new verification email is on its way.").wait_for()
    assert_accessible(page)
    page.goto(_path(links.url(links.VERIFY_EMAIL, User.objects.get(pk=user.pk))))
    page.locator('[data-code="verified"]').wait_for()
    page.goto("/settings")
    page.locator('#email_state[data-verified="1"]').wait_for()
    shot(page, "account-settings")

    # Change the password: a wrong current one is refused, the right one works. (The server
    # hashes with PBKDF2, which this process's test settings cannot check: compare hashes.)
    before = User.objects.get(pk=user.pk).password
    page.get_by_role("link", name="Change your password").click()
    page.get_by_label("Current password").fill("wrong")
    page.get_by_label("New password").fill(NEW)
    page.get_by_role("button", name="Change password").click()
    page.locator("#err_current_password").wait_for()
    assert User.objects.get(pk=user.pk).password == before
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill(NEW)
    page.get_by_role("button", name="Change password").click()
    page.get_by_text("Your other devices were signed out").wait_for()
    assert User.objects.get(pk=user.pk).password != before

    # A device signed in with a token (an app) is listed and signed out.
    tokens.issue(user=user, name="Pixel 8")
    page.goto("/account/devices")
    page.get_by_text("Pixel 8").wait_for()
    assert_accessible(page)
    shot(page, "account-devices")
    page.get_by_role("button", name="Sign out Pixel 8").click()
    page.get_by_text("The device is signed out.").wait_for()
    assert not Device.objects.filter(user=user).exists()

    # Report a player.
    page.goto(f"/report?player={other.username}")
    page.get_by_label("Reason").select_option("abuse")
    page.get_by_label("What happened?").fill("Insults in every game.")
    assert_accessible(page)
    page.get_by_role("button", name="Send the report").click()
    page.locator('[data-code="reported"]').wait_for()
    assert Report.objects.get(reporter=user).player == other

    # Signed out: forgot the password, reset it from the link, sign in with the new one.
    page.get_by_role("button", name="Sign out").first.click()
    page.goto("/signin")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(f"{name}@example.test")
    page.get_by_role("button", name="Send me a link").click()
    page.get_by_text("a link to reset its password is on its way").wait_for()
    page.goto(_path(links.url(links.RESET_PASSWORD, User.objects.get(pk=user.pk))))
    page.get_by_label("New password").fill(NEWER)
    assert_accessible(page)
    page.get_by_role("button", name="Save the new password").click()
    page.locator('[data-code="reset"]').wait_for()
    page.goto("/signin")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(NEWER)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/")

    # Delete the account: the password is needed.
    page.goto("/account/delete")
    page.get_by_label("Your password").fill("wrong")
    page.get_by_role("button", name="Delete my account").click()
    page.locator("#err_password").wait_for()
    assert User.objects.get(pk=user.pk).is_active
    page.get_by_label("Your password").fill(NEWER)
    page.get_by_role("button", name="Delete my account").click()
    page.locator('[data-code="deleted"]').wait_for()
    gone = User.objects.get(pk=user.pk)
    assert not gone.is_active and gone.display_name == f"deleted player {gone.pk}"
