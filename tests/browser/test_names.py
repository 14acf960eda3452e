"""Names lead to people (issue 26): every player name on the game page, its history, the games
list and the chat links to the profile, cut with an ellipsis to its room (the whole name in
its title) so that a very long display name does not widen a phone's page; "My profile" in the
menu; block and report reachable from the game page and the profile; emoji joined by a
zero-width joiner are a display name."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services
from tests.browser.conftest import sign_up
from tests.helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

LONG_NAME = "W" * 144  # an account from before the length limit, no spaces to break at


def test_names_link_to_profiles_and_never_widen_the_page(page, shot, assert_accessible):
    me = sign_up(page)
    other = User.objects.create_user(username="longname", email="long@example.test",
                                     password=PASSWORD, display_name=LONG_NAME)
    game = services.create_game(user=other, seats=[{"you": True}, {"username": me}])
    page.goto(f"/games/{game.pk}")
    page.locator("#game-panel").wait_for()
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    names = page.locator(f'#game-panel a.name[href="/players/{other.username}"]')
    assert names.count() >= 1
    first = names.first
    assert first.get_attribute("title") == LONG_NAME
    box = first.bounding_box()
    assert box["width"] < width  # cut to its room...
    assert first.evaluate("n => n.scrollWidth > n.clientWidth")  # ...with an ellipsis
    assert page.locator(f'#game-panel a.name[href="/players/{me}"]').count() >= 1

    # block and report from the game page; the menu's own profile
    links = page.locator(".player-links")
    assert links.get_by_role("link", name="profile, block").get_attribute("href") == (
        f"/players/{other.username}#player-actions")
    assert links.get_by_role("link", name="report").get_attribute("href") == (
        f"/report?player={other.username}")
    assert page.locator("#my-profile").get_attribute("href") == f"/players/{me}"
    shot(page, "names-long")
    assert_accessible(page)

    # the games list: the name is cut too, whole in its title
    page.goto("/")
    row_name = page.locator(".game-row .name").first
    assert row_name.get_attribute("title") == LONG_NAME
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # the profile has Block and Report
    first_link = f"/players/{other.username}"
    page.goto(first_link)
    assert page.get_by_role("button", name="Block").is_visible()
    assert page.locator("#report-player").get_attribute("href") == (
        f"/report?player={other.username}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("name", ["👩‍💻 Dev", "🏳️‍🌈", "👨‍👩‍👧 family"])
def test_emoji_with_joiners_are_a_display_name(page, name):
    me = sign_up(page)
    page.goto("/settings")
    page.get_by_label("Display name").fill(name)
    page.get_by_role("button", name="Save", exact=True).first.click()
    page.wait_for_url("**/settings?saved=1")
    assert User.objects.get(username=me).display_name == name
    assert page.get_by_label("Display name").input_value() == name


def test_a_bidi_override_in_a_display_name_is_refused(page):
    me = sign_up(page)
    page.goto("/settings")
    page.get_by_label("Display name").fill("ab\u202ecd")
    page.get_by_role("button", name="Save", exact=True).first.click()
    assert page.locator("#err_display_name").is_visible()
    assert User.objects.get(username=me).display_name == ""
