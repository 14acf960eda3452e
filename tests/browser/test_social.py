"""Two people in two browsers: friends (request, accept, play again), chat in the game
(streamed live, links and markup shown as text), a rematch offered and accepted after a
resignation, a profile, blocking and the blocked list in Settings."""

import re

import pytest

from games.models import Game
from social.models import Block
from tests.browser.conftest import VIEWPORTS, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

GAME_URL = re.compile(r".*/games/\d+$")


def _game_id(page) -> int:
    return int(page.url.rsplit("/", 1)[1])


def test_friends_chat_rematch_profile_block(page, browser, stack, shot, assert_accessible):
    alice = sign_up(page)
    context = browser.new_context(
        base_url=stack, viewport=VIEWPORTS[page.viewport_name], locale="en-GB",
        extra_http_headers={"Accept-Language": "en"},
    )
    context.set_default_timeout(15_000)
    other = context.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    bob = sign_up(other)

    # Friends: alice asks, bob accepts, alice plays again from her list.
    page.goto("/friends")
    page.get_by_label("Add a friend by username").fill(bob)
    page.get_by_role("button", name="Send a request").click()
    page.locator(f'#outgoing [data-username="{bob}"]').wait_for()
    other.goto("/friends")
    other.locator(f'#incoming [data-username="{alice}"]').get_by_role(
        "button", name="Accept").click()
    other.locator(f'#friends [data-username="{alice}"]').wait_for()
    page.goto("/friends")
    assert_accessible(page)
    shot(page, "friends")
    page.locator(f'#friends [data-username="{bob}"]').get_by_role(
        "button", name="Play again").click()
    page.wait_for_url(GAME_URL)
    game_id = _game_id(page)
    assert Game.objects.get(pk=game_id).seats.filter(user__username=bob).exists()

    # Chat: bob opens the game; alice's line reaches him live, as text.
    other.goto(f"/games/{game_id}")
    other.wait_for_function("document.body.dataset.live === 'stream'")
    text = "hello <b>bob</b> https://example.com"
    page.get_by_label("Message").fill(text)
    page.get_by_role("button", name="Send").click()
    line = other.locator("#chat-log .chat-text").first
    line.wait_for()
    assert line.inner_text() == text
    # never HTML (the author's name is the one link: to their profile)
    assert other.locator("#chat-log .chat-text b, #chat-log .chat-text a").count() == 0
    assert other.locator("#chat-log a.name").first.get_attribute("href") == f"/players/{alice}"
    other.get_by_label("Message").fill("hi!")
    other.get_by_role("button", name="Send").click()
    page.locator("#chat-log .chat-text", has_text="hi!").wait_for()
    assert_accessible(page)
    shot(page, "game-chat")

    # Rematch: alice resigns and offers; bob sees the offer arrive and accepts.
    page.get_by_role("button", name="Resign").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Yes").click()
    page.get_by_role("button", name="Offer a rematch").click()
    page.get_by_text("Rematch offered: waiting for an answer.").wait_for()
    other.get_by_role("button", name="Accept the rematch").click()
    other.wait_for_url(re.compile(rf".*/games/(?!{game_id}$)\d+$"))
    new_id = _game_id(other)
    page.get_by_role("link", name="Open the rematch").wait_for()
    assert page.get_by_text("Rematch streak: 1 game").count() == 1
    assert Game.objects.filter(pk=new_id, status="active").exists()

    # Profile, block, and the blocked list in Settings (unblock from there).
    page.goto(f"/players/{bob}")
    assert_accessible(page)
    shot(page, "profile")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Block").click()
    page.get_by_role("button", name="Unblock").wait_for()
    assert Block.objects.filter(blocker__username=alice, blocked__username=bob).exists()
    page.goto("/settings")
    page.locator(f'#blocked [data-username="{bob}"]').wait_for()
    assert_accessible(page)
    page.locator(f'#blocked [data-username="{bob}"]').get_by_role(
        "button", name="Unblock").click()
    page.locator("#blocked-none").wait_for()
    assert not Block.objects.exists()
    page.get_by_label("Mute chat in every game").check()
    page.get_by_text("Saved.").last.wait_for()

    context.close()
    assert not errors, f"JavaScript errors in the second browser: {errors}"
