"""The last stock in a real browser, at phone and desktop size (issue 24): after the third
rebuild the stock says it is the last one; once it is empty the page says nobody draws any more
and offers Pass instead of Draw."""

from __future__ import annotations

import copy
import re

import pytest
from django.db import transaction

from games.crazy_eights.engine.state import MAX_REBUILDS
from games.models import Game
from tests.browser.c8_helpers import rig_hand, seat_of, with_nothing_that_fits
from tests.browser.conftest import sign_up
from tests.browser.helpers import new_game_form, wait_for_my_turn

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def rig_engine(game_id: int, *, empty_stock: bool) -> None:
    """The stock rebuilt for the last time (and, with ``empty_stock``, run out: its cards
    under the top card of the discard pile, where a round would have put them)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        data = copy.deepcopy(game.state)
        engine = data["engine"]
        engine["rebuilds"] = MAX_REBUILDS
        # A plain start of the turn, from the first rig on: had the computer just played a
        # Draw 2 at us, the page would rightly offer Take (the penalty), not Pass (a CI failure
        # at phone size), and the hand rigged meanwhile would be one that only misses a Two
        # (a CI failure at desktop size: a card of it fitted once the penalty was gone).
        engine["penalty"], engine["draws"], engine["drawn"] = 0, 0, None
        if empty_stock:
            engine["discard"] = engine["stock"] + engine["discard"]
            engine["stock"] = []
        game.state = data
        game.save(update_fields=["state"])


def test_the_last_stock_is_shown_and_then_nobody_draws(page, shot, assert_accessible):
    name = sign_up(page)
    form = new_game_form(page, "crazy_eights")
    form.get_by_label("Player 2").select_option("cautious")
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    seat = seat_of(game_id, name)

    wait_for_my_turn(page)
    assert page.locator(".stock .last-stock").count() == 0
    rig_engine(game_id, empty_stock=False)
    page.reload()
    wait_for_my_turn(page)
    tag = page.locator(".stock .last-stock")
    assert tag.inner_text() == "last stock"
    assert "rebuilt three times" in (tag.get_attribute("title") or "")

    rig_hand(game_id, seat, with_nothing_that_fits)
    rig_engine(game_id, empty_stock=True)
    page.reload()
    wait_for_my_turn(page)
    assert page.locator(".stock strong").inner_text() == "0"
    assert page.locator(".stock .last-stock").inner_text() == "no more drawing"
    assert page.locator("#draw").count() == 0
    assert page.get_by_role("button", name="Pass", exact=True).is_visible()
    shot(page, "c8-last-stock")
    assert_accessible(page)

    page.get_by_role("button", name="Pass", exact=True).click()
    page.locator(".c8-log li", has_text=f"{name} passed").wait_for(state="attached")
