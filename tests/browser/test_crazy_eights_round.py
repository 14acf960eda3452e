"""The end of a Crazy Eights round in a real browser, at phone and desktop size: the player
lays their last card, and without a reload the page shows who went out, each hand's cards and
points, and the next round (the regulars' turns run on the real worker)."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Move
from tests.browser.c8_helpers import engine_of, plain_fit_of, rig_hand, seat_of, with_a_plain_fit
from tests.browser.conftest import sign_up
from tests.browser.helpers import new_game_form, wait_for_my_turn

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_going_out_ends_the_round_and_the_next_one_is_dealt(page, shot, assert_accessible):
    name = sign_up(page)
    form = new_game_form(page, "crazy_eights")
    form.get_by_label("Player 2").select_option("cautious")
    form.get_by_label("Player 3").select_option("aggressive")
    form.get_by_label("Action cards (Draw 2, Skip, Reverse)").uncheck()
    form.get_by_label("The match ends at").select_option("200")  # one round cannot end it
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    seat = seat_of(game_id, name)

    wait_for_my_turn(page)
    (last,) = rig_hand(game_id, seat, with_a_plain_fit, size=1)
    assert plain_fit_of(engine_of(game_id), [last]) == last
    page.reload()
    number = wait_for_my_turn(page)
    assert page.locator(".hand .card").count() == 1
    page.evaluate("window.__same_page = true")  # gone if anything reloads the page

    page.locator(f'.hand .card[data-card="{last}"]').click()
    page.get_by_role("button", name="Play", exact=True).click()
    page.locator("#round-over[open]").wait_for()
    assert page.evaluate("window.__same_page") is True
    summary = page.locator("#round-over summary").inner_text()
    assert summary == f"Round 1 is over: {name} went out.", summary
    assert Move.objects.get(game_id=game_id, number=number + 1).notation == last

    # One row per seat, in seat order: the hands shown to everyone, and the round's points,
    # which are the match's scores after its first round.
    rows = page.locator("#round-over tbody tr")
    assert rows.count() == 3
    mine = page.locator("#round-over tr.you")
    assert mine.locator("th").inner_text() == name
    assert mine.locator("td.mini").inner_text() == "—"  # I have no card left
    shown = [int(rows.nth(i).locator("td").last.inner_text().lstrip("+")) for i in range(3)]
    game = Game.objects.get(pk=game_id)
    assert game.status == "active"
    assert shown == game.state["engine"]["scores"] and sum(shown) > 0
    page.locator(".meta", has_text="Round 2").wait_for()
    shot(page, "c8-round-over")
    assert_accessible(page)
