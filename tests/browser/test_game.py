"""A Crazy10s game against the computer in a real browser, at phone and desktop size:
sign up, start, tap tiles in, see the preview, play, see the computer's reply arrive without
reloading, swap, resign."""

import re

import pytest

from games.models import Game
from tests.browser.conftest import sign_up
from tests.browser.helpers import (
    move_number,
    start_computer_game,
    start_playable_game,
    tap_move,
    wait_for_my_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_play_a_game_against_the_computer(page, shot, assert_accessible):
    sign_up(page)
    shot(page, "games-empty")
    game_id, number, move = start_playable_game(page)
    assert page.locator(".board .c").count() == 169
    assert page.locator(".rack .tile").count() == 7
    page.evaluate("window.__same_page = true")  # gone if anything reloads the page

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

    # The badge counts the games waiting on me: this one, and any started before it whose
    # first rack held no placement (start_playable_game leaves those at my turn).
    me = Game.objects.get(pk=game_id).seats.get(user__isnull=False).user
    started = Game.objects.filter(seats__user=me, status=Game.Status.ACTIVE).count()
    assert page.locator("#waiting-badge").inner_text() == str(started)

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
    if started == 1:  # the nav's badge follows, no reload
        assert page.locator("#waiting-badge").count() == 0
    else:
        assert page.locator("#waiting-badge").inner_text() == str(started - 1)
    assert Game.objects.get(pk=game_id).status == "finished"
    assert page.evaluate("window.__same_page") is True
    shot(page, "game-over")
    assert_accessible(page)


def test_keyboard_placement(page):
    """Without a mouse: arrows move on the board, a digit key lays a rack tile of that digit
    (a wild's digit is typed too), Backspace takes it back, Enter on Play plays."""
    sign_up(page)
    game_id, number, move = start_playable_game(page)
    tiles = re.findall(r"([a-z]\d+)=(\*?)(\d)", move)

    def type_tile(wild: str, digit: str) -> None:
        page.keyboard.press("*" if wild else digit)
        if wild:
            page.locator("#wild-dialog[open]").wait_for()
            page.keyboard.press(digit)

    page.locator('.board .c[tabindex="0"]').focus()
    for square, wild, digit in tiles:
        here = page.evaluate("document.activeElement.dataset.sq")
        dx = ord(square[0]) - ord(here[0])
        dy = int(square[1:]) - int(here[1:])
        for _ in range(abs(dx)):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        for _ in range(abs(dy)):
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
        assert page.evaluate("document.activeElement.dataset.sq") == square
        type_tile(wild, digit)
        page.locator(f'.board .c.staged[data-sq="{square}"]').wait_for()

    page.keyboard.press("Backspace")  # the square just laid keeps the focus: it comes back
    assert page.locator(".board .c.staged").count() == len(tiles) - 1
    type_tile(tiles[-1][1], tiles[-1][2])
    page.locator('#preview[data-legal="true"]').wait_for()
    page.locator("#play").focus()
    page.keyboard.press("Enter")
    wait_for_my_turn(page, after=number + 1)
    assert move_number(game_id) >= number + 2


def test_without_an_event_stream_the_page_polls(page, browser, stack):
    """A browser or proxy without Server-Sent Events: the computer's reply still appears
    without a reload, through polling with the ETag."""
    page.add_init_script("delete window.EventSource")
    sign_up(page)
    game_id, number, move = start_playable_game(page)
    assert page.evaluate("document.body.dataset.live") == "poll"
    page.evaluate("window.__same_page = true")
    tap_move(page, move)
    page.locator('#preview[data-legal="true"]').wait_for()
    page.get_by_role("button", name="Play", exact=True).click()
    number = wait_for_my_turn(page, after=number + 1)
    assert move_number(game_id) == number
    assert page.evaluate("window.__same_page") is True


def test_pages_are_accessible_and_fit_the_screen(page, shot, assert_accessible):
    page.goto("/signin")
    assert_accessible(page)
    shot(page, "signin")
    sign_up(page)
    game_id = start_computer_game(page)
    wait_for_my_turn(page)
    for url, name in [(f"/games/{game_id}", "game"), ("/", "games"), ("/games/new", "new-game"),
                      ("/settings", "settings")]:
        page.goto(url)
        assert_accessible(page)
        shot(page, name)
        assert page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth"
        ), f"{url} scrolls sideways"


def test_the_board_fits_a_360_px_phone_with_readable_digits(browser, stack, transactional_db,
                                                            shot):
    context = browser.new_context(base_url=stack, viewport={"width": 360, "height": 640},
                                  extra_http_headers={"Accept-Language": "en"})
    small = context.new_page()
    small.viewport_name = "360"
    try:
        sign_up(small)
        start_computer_game(small)
        wait_for_my_turn(small)
        board = small.locator(".board").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= 360
        assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        cell = small.locator(".board .c").first.bounding_box()
        assert cell["width"] >= 24  # a thumb can hit it
        font = small.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.board .c')).fontSize)")
        assert font >= 14
        rack = small.locator(".rack").bounding_box()
        assert rack["x"] + rack["width"] <= 360
        shot(small, "game")
    finally:
        context.close()
