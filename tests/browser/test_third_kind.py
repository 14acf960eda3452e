"""The test-only third kind (tests/kinds/tictactoe) played in Chromium at phone and desktop
size: the new-game page offers it, its own widget (template + script, shipped with the kind)
draws the board, a tap plays through the API, the computer's reply arrives without a reload,
and the game ends with a line. Nothing generic was edited to add it."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.browser.conftest import sign_up
from tests.browser.helpers import new_game_form

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

MY_TURN_AT = """n => {
    const p = document.getElementById('game-panel');
    return p && p.dataset.yourTurn === '1' && Number(p.dataset.move) === n; }"""


def test_tic_tac_toe_against_the_computer(page, shot, assert_accessible):
    sign_up(page)
    form = new_game_form(page, "tictactoe")
    form.get_by_label("Opponent").select_option("first")
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    assert page.locator(".ttt-square").count() == 9
    shot(page, "third-kind-start")
    assert_accessible(page)
    # X in the middle column; the computer takes the first free square each time (a1, c1).
    for number, square in ((0, "b1"), (2, "b2"), (4, "b3")):
        page.wait_for_function(MY_TURN_AT, arg=number, timeout=30_000)
        page.locator(f'.ttt-square[data-square="{square}"]').click()
    page.get_by_text("Game over: you won.").wait_for(timeout=30_000)
    shot(page, "third-kind-won")
    game = Game.objects.get(pk=game_id)
    assert game.kind == "tictactoe" and game.result["termination"] == "line"
    assert game.state["board"] == "OXO.X..X."
