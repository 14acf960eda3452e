"""A random-opponent request nobody joined yet, in a real browser at phone and desktop size:
the game page offers Cancel (never Resign); cancelling says so without a reload and the game
leaves the home page (issue 30)."""

import re

import pytest

from games.models import Game
from tests.browser.conftest import sign_up
from tests.browser.helpers import new_game_form

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_cancel_a_request_nobody_joined(page, shot, assert_accessible):
    sign_up(page)
    form = new_game_form(page)
    form.get_by_label("Opponent").select_option(label="A random opponent")
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    page.get_by_text("Waiting for an opponent to join.").wait_for()
    assert page.locator("#resign").count() == 0
    shot(page, "game-waiting")
    assert_accessible(page)
    page.evaluate("window.__same_page = true")

    page.get_by_role("button", name="Cancel", exact=True).click()
    page.get_by_text("Cancelled before an opponent joined.").wait_for()
    assert page.get_by_role("button", name="Cancel", exact=True).count() == 0
    assert page.evaluate("window.__same_page") is True
    shot(page, "game-cancelled")
    game = Game.objects.get(pk=game_id)
    assert game.status == "aborted" and game.result["termination"] == "cancelled"

    page.goto("/")
    assert page.locator(f'a[href="/games/{game_id}"]').count() == 0
