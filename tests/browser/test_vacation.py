"""Vacation in two browsers at phone and desktop size: alice asks for more days than she has
(refused, the reason shown), starts three days off; bob sees "on vacation until" on their game
page and in his list; alice ends it and her clock runs again."""

import pytest

from accounts.models import User
from games import services
from games.correspondence.models import Vacation
from tests.browser.conftest import VIEWPORTS, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_vacation_from_settings_seen_by_the_opponent(page, browser, stack, shot,
                                                     assert_accessible):
    alice = sign_up(page)
    context = browser.new_context(
        base_url=stack, viewport=VIEWPORTS[page.viewport_name], locale="en-GB",
        extra_http_headers={"Accept-Language": "en"},
    )
    context.set_default_timeout(15_000)
    other = context.new_page()
    other.viewport_name = page.viewport_name
    errors: list[str] = []
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    bob = sign_up(other)
    game = services.create_game(
        user=User.objects.get(username=alice), opponent={"username": bob}, turn_hours=120
    )

    page.goto("/settings")
    section = page.locator("#vacation")
    section.get_by_text("You have 7 vacation days.").wait_for()
    section.get_by_label("Days off").fill("12")
    section.get_by_role("button", name="Start my vacation").click()
    page.locator("#vacation-message").get_by_text(
        "You have 7 vacation days; you asked for 12.").wait_for()
    assert not Vacation.objects.exists()
    page.locator("#vacation").get_by_label("Days off").fill("3")
    page.locator("#vacation").get_by_role("button", name="Start my vacation").click()
    page.locator("#vacation-running").wait_for()
    assert Vacation.objects.filter(user__username=alice, ended_at__isnull=True).exists()
    assert_accessible(page)
    page.locator("#vacation").scroll_into_view_if_needed()
    shot(page, "vacation-settings")

    other.goto(f"/games/{game.pk}")
    note = other.locator(".vacation[data-vacation-seat='0']")
    note.wait_for()
    assert "is on vacation until" in note.inner_text()
    assert "5 days per turn" in other.locator("#turn-time").inner_text()
    shot(other, "vacation-opponent-game")
    other.goto("/")
    other.locator(".game-row .vacation").wait_for()
    shot(other, "vacation-opponent-list")

    page.goto("/settings")
    page.get_by_role("button", name="End my vacation now").click()
    page.locator("#vacation-message").get_by_text("Your vacation has ended").wait_for()
    assert not Vacation.objects.filter(ended_at__isnull=True).exists()
    context.close()
    assert not errors, f"JavaScript errors in the second browser: {errors}"
