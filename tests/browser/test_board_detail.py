"""The Crazy10s page as a player lives in it (issue 26): coordinates around the board, the
squares a refusal names highlighted, and updates that keep what the player is doing (the
Moves list open, a chosen tile and staged tiles, the focus)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import User
from games import kinds, services
from games.crazy10s.engine import EMPTY, IllegalMoveError, check_placement, parse_move
from games.crazy10s.engine.board import square_name
from games.models import Game
from games.tasks import analyse_moves
from tests.browser.conftest import SCREENSHOTS, VIEWPORTS, sign_up
from tests.browser.helpers import (
    TOKEN,
    a_legal_move,
    start_computer_game,
    start_playable_game,
    tap_move,
    wait_for_my_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

# A re-render of the panel that is not a reload: a new #game-panel element, settled (the
# page's scripts restore what they keep on htmx:afterSettle, before this listener runs).
ASK = """() => {
    window.__settled = false;
    document.getElementById('game-panel').__old = true;
    document.addEventListener('htmx:afterSettle', () => { window.__settled = true; }, {once: true});
    window.C10S.refreshPanel();
}"""
SETTLED = "() => window.__settled && !document.getElementById('game-panel').__old"


def rerender(page) -> None:
    """Ask for the panel again as an event would, and wait until the new one is in."""
    page.evaluate(ASK)
    page.wait_for_function(SETTLED)


def a_refused_line(game_id: int) -> tuple[str, dict] | None:
    """A placement of one or two of my rack's digits (no wilds) that the engine refuses
    because a line does not add up to 10: (notation, the refusal's details)."""
    state = kinds.get("crazy10s").load(Game.objects.get(pk=game_id).state)
    board, rack = state.board, state.racks[state.current_player]
    size = board.size
    digits = sorted({t for t in rack if 0 <= t <= 9})
    empty = [i for i, c in enumerate(board.cells) if c == EMPTY]
    candidates = [f"{square_name(i, size)}={d}" for i in empty for d in digits]
    candidates += [f"{square_name(i, size)}={a} {square_name(i + 1, size)}={b}"
                   for i in empty if (i + 1) % size and i + 1 in empty
                   for a in digits for b in digits if a != b or rack.count(a) >= 2]
    for notation in candidates:
        try:
            check_placement(board, parse_move(notation), rack)
        except IllegalMoveError as exc:
            if exc.code == "bad_sum":
                return notation, exc.details
    return None


# The deal of this seed: the player (seat 0) moves first with 0123555 on the rack, so a
# line of the wrong sum is always there to try (f7=0 g7=1 adds up to 1).
PLAYER_FIRST_SEED = 20240602


def test_board_has_coordinates_and_a_refusal_marks_its_squares(page, shot, monkeypatch):
    user = User.objects.get(username=sign_up(page))
    monkeypatch.setattr("games.services.creation._new_seed", lambda: PLAYER_FIRST_SEED)
    game_id = services.create_game(user=user, opponent={"ai": "beginner"}).pk
    page.goto(f"/games/{game_id}")
    number = wait_for_my_turn(page)
    assert page.locator(".board-frame .files span").all_inner_texts() == list("abcdefghijklm")
    assert page.locator(".board-frame .ranks span").all_inner_texts() == [
        str(n) for n in range(1, 14)]
    # the letters stand over their columns and the numbers beside their rows
    for square, file_index, rank_index in (("a1", 0, 0), ("m13", 12, 12), ("g7", 6, 6)):
        cell = page.locator(f'.board .c[data-sq="{square}"]').bounding_box()
        letter = page.locator(".board-frame .files span").nth(file_index).bounding_box()
        number_box = page.locator(".board-frame .ranks span").nth(rank_index).bounding_box()
        assert abs((letter["x"] + letter["width"] / 2) - (cell["x"] + cell["width"] / 2)) < 3
        assert abs((number_box["y"] + number_box["height"] / 2)
                   - (cell["y"] + cell["height"] / 2)) < 3
    # the page still fits the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]

    # a line that does not add up to 10: "The line f6-f7 adds up to 5, not 10."
    found = a_refused_line(game_id)
    assert found is not None, "the seed's rack makes no line of the wrong sum"
    notation, details = found
    tap_move(page, notation)
    page.get_by_role("button", name="Play", exact=True).click()
    page.locator("#move-error").wait_for()
    assert page.locator("#move-error").get_attribute("data-code") == "bad_sum"
    start, end = details["line"]["start"], details["line"]["end"]
    assert f"{start}-{end}" in page.locator("#move-error").inner_text()
    refused = page.locator(".board .c.refused")
    marked = refused.evaluate_all("cells => cells.map(c => c.dataset.sq)")
    assert start in marked and end in marked
    assert len(marked) == len(details["line"]["values"])  # every square of the line
    assert Game.objects.get(pk=game_id).move_number == number  # nothing played
    shot(page, "game-refusal-squares")
    # taking the tiles back clears the marks with the message
    page.get_by_role("button", name="Take back").click()
    assert refused.count() == 0
    assert page.locator("#move-error").is_hidden()


def test_an_update_keeps_open_panels_the_staging_and_the_focus(page, shot):
    sign_up(page)
    start_computer_game(page)
    number = wait_for_my_turn(page)
    page.evaluate("window.__same_page = true")
    page.locator("#history summary").click()
    assert page.locator("#history").get_attribute("open") is not None

    # a chosen tile, then a re-render (as a second event of the same move would bring)
    tiles = page.locator(".rack .tile")
    tiles.nth(0).click()
    rerender(page)
    assert tiles.nth(0).get_attribute("aria-pressed") == "true"
    assert page.locator("#history").get_attribute("open") is not None

    # a staged tile on an empty square survives, with its rack place used, and the focus
    # stays on the square the player was on
    square = page.locator(".board .c:not([data-d])").nth(60).get_attribute("data-sq")
    page.locator(f'.board .c[data-sq="{square}"]').click()
    page.locator(f'.board .c.staged[data-sq="{square}"]').wait_for()
    page.locator(f'.board .c[data-sq="{square}"]').focus()
    rerender(page)
    assert page.locator(".board .c.staged").count() == 1
    assert page.locator(f'.board .c.staged[data-sq="{square}"]').count() == 1
    assert page.locator(".rack .tile.used").count() == 1
    assert page.evaluate("document.activeElement.dataset.sq") == square
    assert page.evaluate("window.__same_page") is True
    assert page.locator("#history").get_attribute("open") is not None
    shot(page, "game-update-keeps-staging")

    # a closed Moves list stays closed too
    page.locator("#history summary").click()
    rerender(page)
    assert page.locator("#history").get_attribute("open") is None
    assert int(page.locator("#game-panel").get_attribute("data-move")) == number


def test_a_game_over_says_what_happened_and_offers_the_same_game_again(page, shot,
                                                                        assert_accessible):
    sign_up(page)
    game_id, number, move = start_playable_game(page)
    tap_move(page, move)
    page.get_by_role("button", name="Play", exact=True).click()
    wait_for_my_turn(page, after=number + 1)
    page.get_by_role("button", name="Resign").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Yes").click()
    over = page.locator("#game-over")
    over.wait_for()
    assert page.locator("#game-ending").inner_text() == "You resigned."
    game = Game.objects.get(pk=game_id)
    scores = page.locator("#final-scores li").all_inner_texts()
    seats = sorted(game.seats.all(), key=lambda s: -s.score)
    assert [str(s.score) in text for s, text in zip(seats, scores, strict=True)] == [True, True]
    # The analysis, run here (the stack's worker does not take analysis: a search still
    # running when a test's database is flushed deadlocks the flush), arrives through the
    # event stream: my move's "% of best" and my best move.
    analyse_moves(game_id)
    analysis = page.locator("#game-analysis", has_text="% of the best available")
    try:
        analysis.wait_for()
    except PlaywrightTimeoutError:
        # In one CI run in random order the live event did not arrive within 15 s (not
        # reproduced since): the summary must then be there on a reload, from the database.
        page.reload()
        analysis.wait_for()
    mine = game.moves.filter(kind="placement", seat=game.seats.get(user__isnull=False).index)
    best = max(mine, key=lambda m: m.score)
    best.refresh_from_db()
    assert f"{best.notation} for {best.score} points" in page.locator("#game-analysis").inner_text()
    assert page.locator("#game-analysis [role=status]").count() == 0  # complete
    shot(page, "game-over-summary")
    assert_accessible(page)

    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(re.compile(rf".*/games/(?!{game_id}$)\d+$"))
    again = Game.objects.get(pk=int(page.url.rsplit("/", 1)[1]))
    assert again.pk != game_id
    assert (again.kind, again.options, again.turn_hours, again.rated) == (
        game.kind, game.options, game.turn_hours, game.rated)
    assert sorted(s.ai_level or "you" for s in again.seats.all()) == sorted(
        s.ai_level or "you" for s in game.seats.all())
    page.locator("#game-panel").wait_for()


def test_drag_a_rack_tile_onto_the_board_and_zoom_on_a_phone(page, shot):
    sign_up(page)
    start_computer_game(page)
    wait_for_my_turn(page)
    # the first game's tips close for good (the rack and the board both in view)
    page.get_by_role("button", name="Got it").click()
    assert page.locator("#first-tips").is_hidden()
    page.reload()
    assert page.locator("#first-tips").is_hidden()
    page.locator(".rack").scroll_into_view_if_needed()
    square = page.locator(".board .c:not([data-d])").nth(40).get_attribute("data-sq")
    tile = page.locator(".rack .tile").first
    digit = tile.get_attribute("data-t")
    start, target = tile.bounding_box(), page.locator(f'.board .c[data-sq="{square}"]')
    goal = target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    for step in range(1, 6):  # a drag, not a tap
        page.mouse.move(start["x"] + (goal["x"] - start["x"]) * step / 5 + goal["width"] / 2,
                        start["y"] + (goal["y"] - start["y"]) * step / 5 + goal["height"] / 2)
    page.mouse.up()
    if digit == "*":
        page.locator("#wild-dialog").get_by_role("button", name="5", exact=True).click()
    page.locator(f'.board .c.staged[data-sq="{square}"]').wait_for()
    assert page.locator(".rack .tile.used").count() == 1
    assert page.locator(".drag-ghost").count() == 0

    zoom = page.locator("#zoom")
    if page.viewport_name == "desktop":
        assert zoom.is_hidden()  # the squares are big enough there
        return
    width = page.viewport_size["width"]
    before = page.locator(".board").bounding_box()["width"]
    zoom.click()
    assert zoom.get_attribute("aria-pressed") == "true"
    assert page.locator(".board").bounding_box()["width"] > 1.5 * before
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # its own scroll
    cell = page.locator(f'.board .c[data-sq="{square}"]').bounding_box()
    assert cell["width"] >= 40
    shot(page, "game-zoomed")
    # an update keeps the zoom and the staged tile
    page.evaluate(ASK)
    page.wait_for_function(SETTLED)
    assert page.locator(".board-scroll.zoomed").count() == 1
    assert page.locator(f'.board .c.staged[data-sq="{square}"]').count() == 1
    zoom.click()
    assert page.locator(".board-scroll.zoomed").count() == 0


def test_a_stale_page_shows_the_game_as_it_is_now_by_itself(page):
    sign_up(page)
    game_id, number, move = start_playable_game(page)
    page.evaluate("window.__same_page = true")
    tap_move(page, move)
    # the page believes in another move number (as after a move played in another tab)
    page.evaluate(f"document.getElementById('game-panel').dataset.move = '{number + 3}'")
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function(f"document.getElementById('game-panel').dataset.move === '{number}'")
    error = page.locator("#move-error")
    error.wait_for()
    assert error.inner_text() == "The game moved on meanwhile: here it is now."
    assert "Reload" not in error.inner_text()
    assert error.get_attribute("data-code") == "stale_move_number"
    assert page.evaluate("window.__same_page") is True  # no reload
    assert Game.objects.get(pk=game_id).move_number == number  # nothing played
    # the staging is still there, and now it plays
    page.locator('#preview[data-legal="true"]').wait_for()
    page.get_by_role("button", name="Play", exact=True).click()
    wait_for_my_turn(page, after=number + 1)


@pytest.fixture
def touch_phone(browser, stack, transactional_db):
    """A phone with a touch screen (390 px): taps and pinches are touches, not clicks."""
    context = browser.new_context(
        base_url=stack, viewport=VIEWPORTS["phone"], locale="en-GB", has_touch=True,
        is_mobile=True, extra_http_headers={"Accept-Language": "en"},
    )
    context.set_default_timeout(15_000)
    tab = context.new_page()
    tab.viewport_name = "touch-phone"
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def double_tap(page, square: str) -> None:
    box = page.locator(f'.board .c[data-sq="{square}"]').bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)


def pinch(page, start: float, end: float, steps: int = 8) -> None:
    """Two fingers on the visible middle of the board, from ``start`` px apart to ``end``,
    as the touch screen sends them (CDP Input.dispatchTouchEvent)."""
    box = page.locator(".board-scroll").bounding_box()
    height = page.viewport_size["height"]
    top, bottom = max(box["y"], 0), min(box["y"] + box["height"], height)
    x, y = box["x"] + box["width"] / 2, (top + bottom) / 2
    cdp = page.context.new_cdp_session(page)

    def fingers(apart: float) -> list[dict]:
        return [{"x": x - apart / 2, "y": y, "id": 0}, {"x": x + apart / 2, "y": y, "id": 1}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(start)})
    for step in range(1, steps + 1):
        apart = start + (end - start) * step / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(apart)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def in_view(page, square: str) -> bool:
    box = page.locator(f'.board .c[data-sq="{square}"]').bounding_box()
    view = page.viewport_size
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= view["width"]
            and box["y"] + box["height"] <= view["height"])


def test_double_tap_and_pinch_zoom_the_board_on_a_touch_phone(touch_phone, monkeypatch, shot):
    page = touch_phone
    user = User.objects.get(username=sign_up(page))
    monkeypatch.setattr("games.services.creation._new_seed", lambda: PLAYER_FIRST_SEED)
    game_id = services.create_game(user=user, opponent={"ai": "beginner"}).pk
    page.goto(f"/games/{game_id}")
    number = wait_for_my_turn(page)
    page.get_by_role("button", name="Got it").tap()
    page.evaluate("window.__same_page = true")
    scroller, board = page.locator(".board-scroll"), page.locator(".board")
    fitted = board.bounding_box()["width"]
    assert page.locator('.board .c[data-sq="l3"]').bounding_box()["width"] < 30

    # a tile chosen, then a double tap on a square far from the middle: the tile is placed
    # once (the first tap) and the board zooms around that square
    page.locator(".rack .tile").first.tap()
    double_tap(page, "l3")

    scroller.and_(page.locator(".zoomed")).wait_for()
    assert page.locator('.board .c.staged[data-sq="l3"]').count() == 1
    assert page.locator(".board .c.staged").count() == 1
    assert page.locator(".rack .tile.used").count() == 1
    assert page.locator("#zoom").get_attribute("aria-pressed") == "true"
    assert page.locator('.board .c[data-sq="l3"]').bounding_box()["width"] >= 40
    assert in_view(page, "l3")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # its own scroll
    assert page.evaluate("window.visualViewport.scale") == 1  # the board zoomed, not the page
    # what the phone shows (a full-page shot resizes the emulated screen and loses the
    # board's scroll)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "game-double-tap-zoom-touch-phone.png"))

    # a double tap on the staged tile zooms out and keeps it staged (the first tap took it
    # back, the second puts it back)
    double_tap(page, "l3")
    page.locator(".board-scroll:not(.zoomed)").wait_for()
    assert page.locator('.board .c.staged[data-sq="l3"]').count() == 1
    assert page.locator(".rack .tile.used").count() == 1
    assert abs(board.bounding_box()["width"] - fitted) < 1

    # two fingers apart: the board grows (up to three times); together: it fits again
    pinch(page, 60, 240)
    grown = board.bounding_box()["width"]
    assert grown > 2.5 * fitted
    assert page.evaluate("window.visualViewport.scale") == 1
    assert page.locator(".board-scroll.zoomed").count() == 1
    pinch(page, 240, 150)
    assert fitted * 1.2 < board.bounding_box()["width"] < grown * 0.8
    pinch(page, 240, 40)
    assert abs(board.bounding_box()["width"] - fitted) < 1
    assert page.locator(".board-scroll.zoomed").count() == 0

    # in the zoomed view, a move is tapped in and played as ever
    page.get_by_role("button", name="Take back").tap()
    assert page.locator(".board .c.staged").count() == 0
    page.get_by_role("button", name="Zoom").tap()
    move = a_legal_move(game_id)
    for square, wild, digit in TOKEN.findall(move):
        page.locator(f'.rack .tile[data-t="{"*" if wild else digit}"]:not(.used)').first.tap()
        cell = page.locator(f'.board .c[data-sq="{square}"]')
        cell.tap()
        if wild:
            page.locator("#wild-dialog").get_by_role("button", name=digit, exact=True).tap()
        page.locator(f'.board .c.staged[data-sq="{square}"]').wait_for()
        assert cell.bounding_box()["width"] >= 40
    page.locator('#preview[data-legal="true"]').wait_for()
    page.get_by_role("button", name="Play", exact=True).tap()
    wait_for_my_turn(page, after=number + 1)
    played = Game.objects.get(pk=game_id).moves.get(number=number + 1).notation
    assert sorted(played.split()) == sorted(move.split())
    assert page.locator(".board-scroll.zoomed").count() == 1  # the update kept the zoom
    assert page.evaluate("window.__same_page") is True
