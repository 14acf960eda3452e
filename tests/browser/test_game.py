"""A Crazy10s game against the computer in a real browser, at phone and desktop size:
sign up, start, tap tiles in, see the preview, play, see the computer's reply arrive without
reloading, swap, resign."""

import re

import pytest

from games.models import Game
from tests.browser.conftest import sign_up
from tests.browser.helpers import a_legal_move, move_number, tap_move

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


MY_TURN_AFTER = """after => {
    const p = document.getElementById('game-panel');
    return p && p.dataset.yourTurn === '1' && Number(p.dataset.move) > after; }"""


def start_computer_game(page) -> int:
    page.goto("/games/new")
    page.get_by_label("Computer level").select_option("beginner")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def wait_for_my_turn(page, after: int = -1) -> int:
    """Until the panel says it is my turn at a move number above ``after``; returns it."""
    page.wait_for_function(MY_TURN_AFTER, arg=after, timeout=30_000)
    return int(page.locator("#game-panel").get_attribute("data-move"))


def test_play_a_game_against_the_computer(page, shot, assert_accessible):
    sign_up(page)
    shot(page, "games-empty")
    game_id = start_computer_game(page)
    number = wait_for_my_turn(page)
    assert page.locator(".board .c").count() == 169
    assert page.locator(".rack .tile").count() == 7
    page.evaluate("window.__same_page = true")  # gone if anything reloads the page

    move = a_legal_move(game_id)
    tap_move(page, move)
    # the preview of the whole move (earlier ones, of part of it, may say why it is not legal)
    page.locator('#preview[data-legal="true"]').wait_for()
    assert re.search(r"\d", page.locator("#preview").inner_text())
    shot(page, "game-staging")
    assert_accessible(page)

    # "Take back" returns every staged tile; tapping a staged tile returns that one
    page.get_by_role("button", name="Take back").click()
    assert page.locator(".board .c.staged").count() == 0
    assert page.locator(".rack .tile.used").count() == 0
    tap_move(page, move)
    first = re.match(r"[a-z]\d+=\*?\d", move)[0]
    square = first.split("=")[0]
    page.locator(f'.board .c.staged[data-sq="{square}"]').click()
    assert page.locator(f'.board .c.staged[data-sq="{square}"]').count() == 0
    tap_move(page, first)
    page.locator('#preview[data-legal="true"]').wait_for()

    page.get_by_role("button", name="Play", exact=True).click()
    # the computer's reply arrives through the event stream: my turn again, two moves on
    number = wait_for_my_turn(page, after=number + 1)
    assert move_number(game_id) == number
    assert page.evaluate("window.__same_page") is True
    reply = Game.objects.get(pk=game_id).moves.get(number=number)
    highlighted = page.locator(".board .c.last")
    if reply.kind == "placement":  # the computer's tiles are highlighted as the last move
        assert highlighted.count() == reply.notation.count("=")
    else:
        assert highlighted.count() == 0
    page.locator("#history summary").click()
    assert page.locator("#history li").count() == number
    shot(page, "game-reply")

    # swap two tiles
    page.get_by_role("button", name="Swap", exact=True).click()
    page.locator(".rack .tile").nth(0).click()
    page.locator(".rack .tile").nth(1).click()
    page.get_by_role("button", name="Swap chosen tiles").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Yes").click()
    number = wait_for_my_turn(page, after=number + 1)
    game = Game.objects.get(pk=game_id)
    assert game.moves.get(number=number - 1).kind == "swap"

    # resign, with a confirmation
    page.get_by_role("button", name="Resign").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Yes").click()
    page.get_by_text("Game over: you lost.").wait_for()
    assert Game.objects.get(pk=game_id).status == "finished"
    assert page.evaluate("window.__same_page") is True
    shot(page, "game-over")
    assert_accessible(page)
