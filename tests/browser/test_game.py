"""A Crazy10s game against the computer in a real browser, at phone and desktop size."""

import re

import pytest

from tests.browser.conftest import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def start_computer_game(page) -> int:
    page.goto("/games/new")
    page.get_by_label("Computer level").select_option("beginner")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def wait_for_my_turn(page) -> None:
    page.locator("#game-panel[data-your-turn='1']").wait_for(timeout=30_000)


def test_sign_up_and_start_a_game(page, shot, assert_accessible):
    sign_up(page)
    shot(page, "games-empty")
    assert_accessible(page)
    start_computer_game(page)
    wait_for_my_turn(page)
    assert page.locator(".board .c").count() == 169
    assert page.locator(".rack .tile").count() == 7
    shot(page, "game")
    assert_accessible(page)
