"""A stale Crazy Eights page in a real browser, at phone and desktop size (issue 26): the page
does not hear of a move (its event stream and its polling are cut off) and the player acts on
what it still shows; the page then shows the game as it is now by itself — no "Reload and try
again", no reload, nothing played twice. A page that only believes in an older move number
keeps the chosen card through that refresh, and it plays; the page follows the game again once
it hears again."""

from __future__ import annotations

import re
import time

import pytest

from accounts.models import User
from games import services
from games.models import Game, Move, Seat
from tests.browser.c8_helpers import engine_of, plain_fit_of, rig_hand, with_a_plain_fit
from tests.browser.conftest import sign_up
from tests.browser.helpers import wait_for_my_turn

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

MOVED_ON = "The game moved on meanwhile: here it is now."
MOVE_ABOVE = "n => Number(document.getElementById('game-panel').dataset.move) > n"

# The panel asked for again and settled: a new #game-panel element (the old one is marked).
REFRESH = """() => {
    window.__settled = false;
    document.getElementById('game-panel').__old = true;
    document.addEventListener('htmx:afterSettle', () => { window.__settled = true; }, {once: true});
    window.C10S.refreshPanel();
}"""
REFRESHED = "() => window.__settled && !document.getElementById('game-panel').__old"


def my_turn_in_the_database(game_id: int, seat: int, timeout: float = 45) -> int:
    """Until the computers have played round to ``seat``: the move number."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = Game.objects.get(pk=game_id)
        if game.current_seat == seat and game.status == Game.Status.ACTIVE:
            return game.move_number
        time.sleep(0.2)
    raise AssertionError(f"not seat {seat}'s turn within {timeout} s")


def shown_hand(page) -> list[str]:
    return page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def test_a_stale_crazy_eights_page_shows_the_game_as_it_is_now_by_itself(page, stack_queue,
                                                                          settings, shot):
    settings.GAMES_AI_QUEUE = stack_queue  # the computers' turns after my move, on the stack
    user = User.objects.get(username=sign_up(page))
    game = services.create_game(user=user, kind="crazy_eights", opponents=["cautious"],
                                options={"rules": {"actions": False}})
    # no action cards: a Queen or an Ace would give me the next turn at once
    assert not Game.objects.get(pk=game.pk).options["actions"]
    seat = Seat.objects.get(game=game, user=user).index
    number = my_turn_in_the_database(game.pk, seat)
    hand = rig_hand(game.pk, seat, with_a_plain_fit)
    card = plain_fit_of(engine_of(game.pk), hand)

    # the page hears nothing from now on: no event stream, no polling of the game
    cut_off = re.compile(rf".*/api/v1/(events|games/{game.pk})(\?.*)?$")
    page.route(cut_off, lambda route: route.abort())
    page.goto(f"/games/{game.pk}")
    assert page.locator("#game-panel").get_attribute("data-move") == str(number)
    page.evaluate("window.__same_page = true")  # gone if anything reloads the page

    # the card is played in another tab; the computer answers; this page still shows my turn
    services.submit_move(game_id=game.pk, user=user, move=card, expected_move_number=number)
    assert page.locator("#game-panel").get_attribute("data-your-turn") == "1"
    page.locator(f'.hand .card[data-card="{card}"]').click()
    page.get_by_role("button", name="Play", exact=True).click()

    # the panel comes again by itself, as the game is now: the card is gone from the hand
    page.wait_for_function(MOVE_ABOVE, arg=number)
    error = page.locator("#move-error")
    error.wait_for()
    assert error.inner_text() == MOVED_ON
    assert "Reload" not in page.locator("body").inner_text()
    assert page.evaluate("window.__same_page") is True
    shown = shown_hand(page)
    assert card not in shown
    assert sorted(shown) == sorted(c for c in hand if c != card)
    played = Move.objects.filter(game_id=game.pk, seat=seat, number__gt=number)
    assert [(m.number, m.notation) for m in played] == [(number + 1, card)]  # once
    shot(page, "c8-stale-refreshed")

    # a page that believes in another move number while it is still my turn (still cut
    # off, so nothing else refreshes it meanwhile): the chosen card stays chosen through the
    # refresh, and Play then plays it
    number = my_turn_in_the_database(game.pk, seat)
    rig_hand(game.pk, seat, with_a_plain_fit)
    page.evaluate(REFRESH)  # as an event would
    page.wait_for_function(REFRESHED)
    assert page.locator("#game-panel").get_attribute("data-move") == str(number)
    card = plain_fit_of(engine_of(game.pk), shown_hand(page))
    page.locator(f'.hand .card[data-card="{card}"]').click()
    page.evaluate(f"document.getElementById('game-panel').dataset.move = '{number + 3}'")
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function(
        f"document.getElementById('game-panel').dataset.move === '{number}'")
    error.wait_for()
    assert error.inner_text() == MOVED_ON
    assert "Reload" not in page.locator("body").inner_text()
    chosen = page.locator(f'.hand .card[data-card="{card}"]')
    assert chosen.get_attribute("aria-pressed") == "true"
    assert Game.objects.get(pk=game.pk).move_number == number  # nothing played
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function(MOVE_ABOVE, arg=number)
    move = Move.objects.get(game_id=game.pk, number=number + 1)
    assert (move.seat, move.notation) == (seat, card)

    # once the page hears again (its polling), it follows the game to my next turn
    page.unroute(cut_off)
    wait_for_my_turn(page, after=number + 1)
    assert sorted(shown_hand(page)) == sorted(
        Seat.objects.get(game=game, index=seat).private["hand"])
    assert page.evaluate("window.__same_page") is True
    services.resign(game_id=game.pk, user=user)  # no computer plays on after the test
