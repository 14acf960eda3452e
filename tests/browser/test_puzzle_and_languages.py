"""The Daily Puzzle with its best move drawn; the game screen in German, where a bad move
shows the translated error and changes nothing."""

import re

import pytest
from django.utils import translation

from games.crazy10s.messages import message_for
from games.crazy10s.puzzles.models import Puzzle
from games.crazy10s.puzzles.selectors import utc_today
from games.models import Game
from tests.browser.conftest import sign_up
from tests.browser.helpers import tap_move, wait_for_my_turn

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_daily_puzzle_shows_the_best_move(page, shot, assert_accessible):
    sign_up(page)
    page.get_by_role("link", name="Daily Puzzle").first.click()
    page.wait_for_url("**/puzzle")
    puzzle = Puzzle.objects.get(date=utc_today())
    assert page.locator(".board .c").count() == 121
    assert "".join(page.locator(".rack .tile").all_inner_texts()) == puzzle.rack
    assert page.locator("#best-move").count() == 0  # no solution before the attempt
    shot(page, "puzzle")
    assert_accessible(page)

    tap_move(page, puzzle.best_move)
    page.get_by_role("button", name="Submit my move").click()
    page.locator("#puzzle-result").wait_for()
    assert int(page.locator("#your-score").inner_text()) == puzzle.best_score
    assert int(page.locator("#best-score").inner_text()) == puzzle.best_score
    assert page.locator("#best-move").inner_text() == puzzle.best_move
    # the best move is drawn on the board: its squares hold its digits, highlighted
    for square, digit in re.findall(r"([a-z]\d+)=\*?(\d)", puzzle.best_move):
        cell = page.locator(f'.board .c.last[data-sq="{square}"]')
        assert cell.inner_text() == digit
    assert page.locator("#leaderboard li.you").count() == 1
    assert "1" in page.locator(".streak").inner_text()
    shot(page, "puzzle-result")
    assert_accessible(page)


def test_german_screen_and_a_bad_move_changes_nothing(page, shot, assert_accessible):
    sign_up(page)
    page.get_by_label("Language").select_option("de")  # the switcher submits itself
    page.wait_for_function("document.documentElement.lang === 'de'")
    game_id = start_computer_game_de(page)
    number = wait_for_my_turn(page)
    assert page.get_by_role("button", name="Spielen").is_visible()
    rack = page.locator(".rack .tile").all_inner_texts()

    # one tile alone in a corner: not the centre / not touching anything
    tile = next(t for t in rack if t != "*")
    page.locator(f'.rack .tile[data-t="{tile}"]').first.click()
    page.locator('.board .c[data-sq="a13"]').click()
    page.get_by_role("button", name="Spielen").click()
    error = page.locator("#move-error")
    error.wait_for()
    # the same refusal straight from the API (the session's language, German): the page shows
    # its message, and it is not the English one
    answer = page.request.post(
        f"/api/v1/games/{game_id}/moves",
        data={"move": f"a13={tile}", "expected_move_number": number},
        headers={"X-CSRFToken": page.evaluate("document.body.dataset.csrf")},
    ).json()["error"]
    assert error.get_attribute("data-code") == answer["code"]
    assert error.inner_text() == answer["message"]
    with translation.override("de"):
        assert answer["message"] == message_for(answer["code"], answer["details"])
    with translation.override("en"):
        assert answer["message"] != message_for(answer["code"], answer["details"])
    game = Game.objects.get(pk=game_id)
    assert game.move_number == number
    assert page.locator(".board .c.staged").count() == 1  # still staged, nothing sent
    shot(page, "game-german-error")
    assert_accessible(page)


def start_computer_game_de(page) -> int:
    page.goto("/games/new")
    form = page.locator("#new-crazy10s")
    form.get_by_label("Gegner").select_option("beginner")
    form.get_by_role("button", name="Partie starten").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])

