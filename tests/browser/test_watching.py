"""Watching in two browsers at phone and desktop size: carol opens her friend alice's profile,
follows its Watch link, and sees alice's move appear without reloading; alice's game page
counts her as a spectator."""

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from social.models import Friendship
from tests.browser.conftest import VIEWPORTS, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_a_friend_watches_live(page, browser, stack, shot, assert_accessible, user_factory,
                               monkeypatch):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240602)
    alice = User.objects.get(username=sign_up(page))
    context = browser.new_context(
        base_url=stack, viewport=VIEWPORTS[page.viewport_name], locale="en-GB",
        extra_http_headers={"Accept-Language": "en"},
    )
    context.set_default_timeout(15_000)
    watcher = context.new_page()
    watcher.viewport_name = page.viewport_name
    errors: list[str] = []
    watcher.on("pageerror", lambda exc: errors.append(str(exc)))
    carol = User.objects.get(username=sign_up(watcher))
    low, high = sorted((alice, carol), key=lambda u: u.pk)
    Friendship.objects.create(low=low, high=high, requested_by=carol, accepted_at=timezone.now())
    bob = user_factory(display_name="Bob")
    game = services.create_game(user=alice, opponent={"username": bob.username})

    watcher.goto(f"/players/{alice.username}")
    watcher.locator("#watch-list").get_by_role("link", name="Watch").click()
    watcher.wait_for_url(f"**/games/{game.pk}/watch")
    watcher.locator("#watch-status").get_by_text("to move").wait_for()
    assert watcher.locator(".replay-board .c[data-d]").count() == 0

    page.goto(f"/games/{game.pk}")
    page.locator("#spectators").get_by_text("1 person is watching.").wait_for()
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    watcher.locator('.replay-board .c.last[data-sq="h7"][data-d="5"]').wait_for()
    watcher.locator("#watch-moves li").get_by_text("g7=5 h7=5 (+20)").wait_for()
    assert "20" in watcher.locator("#watch-scores").inner_text()
    assert watcher.locator("#chat-log, [name=text]").count() == 0  # no chat for spectators
    assert_accessible(watcher)
    shot(watcher, "watch")
    page.reload()
    shot(page, "watch-players-page")
    context.close()
    assert not errors, f"JavaScript errors in the watcher's browser: {errors}"
