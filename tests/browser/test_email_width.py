"""The verification and reset emails (and a game email) fit a phone: their HTML rendered by
Chromium 390 px wide has nothing wider than the screen (the bare link in the account emails,
one long token, made the page 759 px wide). Screenshots: email-*-phone.png."""

import pytest

from accounts import emails as account_emails
from games.notifications import emails as game_emails
from games.notifications.models import Kind, SentNotification
from tests.browser.conftest import SCREENSHOTS, VIEWPORTS

PHONE = VIEWPORTS["phone"]


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    yield context.new_page()
    context.close()


def render_width(page, html: str, name: str) -> int:
    page.set_content(html)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"email-{name}-phone.png"), full_page=True)
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "language"), [
    (account_emails.VERIFY, "en"), (account_emails.VERIFY, "de"),
    (account_emails.RESET, "en"), (account_emails.RESET, "pt-br"),
])
def test_account_emails_fit_a_phone(phone, user_factory, settings, kind, language):
    settings.SITE_BASE_URL = "https://crazy10s.example.com"
    user = user_factory("wilhelmina_montgomery", language=language)
    html = account_emails.build_message(kind, user).alternatives[0][0]
    assert "token=" in html
    width = render_width(phone, html, f"{kind}-{language}")
    assert width <= PHONE["width"], f"{kind} ({language}) is {width} px wide"


@pytest.mark.django_db
def test_a_game_email_fits_a_phone(phone, human_game, bob, settings):
    settings.SITE_BASE_URL = "https://crazy10s.example.com"
    n = SentNotification.objects.create(key=f"turn:{human_game.pk}:1:{bob.pk}", kind=Kind.TURN,
                                        user=bob, game=human_game, move_number=1)
    html = game_emails.build_message(n).alternatives[0][0]
    assert render_width(phone, html, "turn") <= PHONE["width"]
