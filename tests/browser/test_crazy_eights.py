"""Crazy Eights in a real browser, at phone and desktop size: a solo match against computer
regulars (play a card, an 8 with a named suit, draw), and a two-person table (one browser
opens it, a second joins through the share link after signing up, the host deals, both play
cards). The computer's turns run on the real worker; the page follows over the event stream."""

from __future__ import annotations

import contextlib
import re
import time
from urllib.parse import urlparse

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from config.errors import ApiError
from games.crazy_eights.engine.cards import RANK, TWO
from games.crazy_eights.messages import card_words
from games.models import Game, Move
from games.tables import services as tables
from tests.browser.c8_helpers import (
    engine_of,
    pair_of,
    plain_fit_of,
    rig_hand,
    seat_of,
    with_a_pair,
    with_a_plain_fit,
    with_an_eight,
    with_nothing_that_fits,
)
from tests.browser.conftest import VIEWPORTS, sign_up
from tests.browser.helpers import new_game_form, wait_for_my_turn
from tests.helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def last_move_of(game_id: int, seat: int) -> Move:
    return Move.objects.filter(game_id=game_id, seat=seat).order_by("-number").first()


def my_turn_with(page, game_id: int, seat: int, choose) -> tuple[int, list[str]]:
    """Wait for my turn, arrange my hand, reload: the page shows the arranged hand."""
    wait_for_my_turn(page)
    hand = rig_hand(game_id, seat, choose)
    page.reload()
    return wait_for_my_turn(page), hand


def test_a_solo_match_against_the_regulars(page, shot, assert_accessible):
    name = sign_up(page)
    form = new_game_form(page, "crazy_eights")
    form.get_by_label("Player 2").select_option("cautious")
    form.get_by_label("Player 3").select_option("aggressive")
    form.get_by_label("Action cards (Draw 2, Skip, Reverse)").uncheck()
    shot(page, "c8-new-game")
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    seat = seat_of(game_id, name)
    assert page.locator(".seats .seat").count() == 3

    # play a card that fits: tap it, then Play
    number, hand = my_turn_with(page, game_id, seat, with_a_plain_fit)
    card = plain_fit_of(engine_of(game_id), hand)
    page.evaluate("window.__same_page = true")  # gone if anything reloads the page
    assert page.locator(".hand .card").count() == len(hand)
    page.locator(f'.hand .card[data-card="{card}"]').click()
    assert page.locator(f'.hand .card[data-card="{card}"]').get_attribute("aria-pressed") == "true"
    shot(page, "c8-game")
    assert_accessible(page)
    page.get_by_role("button", name="Play", exact=True).click()
    wait_for_my_turn(page, after=number)  # the regulars' replies arrive without a reload
    assert page.evaluate("window.__same_page") is True
    played = Move.objects.get(game_id=game_id, number=number + 1)
    assert (played.seat, played.kind, played.notation) == (seat, "play", card)
    page.locator("#history summary").click()
    assert page.locator(".c8-log li").count() >= 2

    # two cards of one rank at once: the first fits, the second follows in the order tapped
    number, hand = my_turn_with(page, game_id, seat, with_a_pair)
    lead, second = pair_of(engine_of(game_id), hand)
    page.locator(f'.hand .card[data-card="{lead}"]').click()
    page.locator(f'.hand .card[data-card="{second}"]').click()
    # said in words, as the cards' labels say them ("5 of clubs, 5 of diamonds")
    with translation.override("en"):
        shown = ", ".join(card_words(c) for c in (lead, second))
    assert page.locator("#selection").inner_text().endswith(shown)
    page.get_by_role("button", name="Play", exact=True).click()
    wait_for_my_turn(page, after=number)
    assert Move.objects.get(game_id=game_id, number=number + 1).notation == f"{lead} {second}"

    # an 8, naming hearts in the suit picker
    number, hand = my_turn_with(page, game_id, seat, with_an_eight)
    eight = next(c for c in hand if c.startswith("8"))
    page.locator(f'.hand .card[data-card="{eight}"]').click()
    page.get_by_role("button", name="Play", exact=True).click()
    page.locator("#suit-dialog[open]").wait_for()
    shot(page, "c8-suit")
    page.locator("#suit-dialog").get_by_role("button", name="hearts").click()
    wait_for_my_turn(page, after=number)
    assert Move.objects.get(game_id=game_id, number=number + 1).notation == f"{eight}/H"

    # nothing fits: the page offers only Draw (and a hint says so)
    number, _hand = my_turn_with(page, game_id, seat, with_nothing_that_fits)
    assert page.locator(".hand .card.fits").count() == 0
    page.get_by_role("button", name="Hint").click()
    page.locator("#hint-out:not(:empty)").wait_for()
    assert "draw" in page.locator("#hint-out").inner_text().lower()
    # cards and suits in words, never in notation ("QS", "(D)")
    assert not re.search(r"\b(10|[2-9JQKA])[CDHS]\b|\([CDHS]\)",
                         page.locator("#hint-out").inner_text())
    page.get_by_role("button", name="Draw a card").click()
    page.wait_for_function(
        "n => Number(document.getElementById('game-panel').dataset.move) > n", arg=number)
    assert Move.objects.get(game_id=game_id, number=number + 1).kind == "draw"
    assert page.locator(".hand .card").count() == len(_hand) + 1

    # resign with the confirmation: the match ends, the standings show
    page.get_by_role("button", name="Resign").click()
    page.locator("#confirm-dialog").get_by_role("button", name="Yes").click()
    page.locator("#final-title").wait_for()
    assert Game.objects.get(pk=game_id).status == "finished"
    shot(page, "c8-over")
    assert_accessible(page)


def sign_up_through_the_link(page, share_link: str) -> str:
    """A signed-out friend opens the share link: sign-in, then sign-up, then the table."""
    path = urlparse(share_link).path
    page.goto(path)
    page.wait_for_url(re.compile(r".*/signin\?next="))
    page.get_by_role("link", name="Sign up").last.click()
    name = "friend" + path.rsplit("/", 1)[1].lower()
    page.get_by_label("Username").fill(name)
    page.get_by_label("Email").fill(f"{name}@example.test")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(rf".*{path}$"))
    return name


def play_a_card(page, game_id: int, username: str) -> bool:
    """Play a card that fits; False when a Draw 2 is pending and no 2 is left to rig into the
    hand (the other seats or the pile hold them all): then take the penalty instead."""
    seat = seat_of(game_id, username)
    number = wait_for_my_turn(page)
    engine = engine_of(game_id)
    if engine["penalty"] and not any(RANK[c] == TWO for c in engine["hands"][seat] +
                                     engine["stock"]):
        page.locator("#take").click()
        page.wait_for_function(
            "n => Number(document.getElementById('game-panel').dataset.move) > n", arg=number)
        return False
    number, hand = my_turn_with(page, game_id, seat, with_a_plain_fit)
    card = plain_fit_of(engine_of(game_id), hand)
    page.locator(f'.hand .card[data-card="{card}"]').click()
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function(
        "n => Number(document.getElementById('game-panel').dataset.move) > n", arg=number)
    move = Move.objects.get(game_id=game_id, number=number + 1)
    assert (move.seat, move.kind, move.notation) == (seat, "play", card)
    return True


def wait_for_a_person(game_id: int, seats: set[int], timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        turn = Game.objects.values_list("current_seat", flat=True).get(pk=game_id)
        if turn in seats:
            return turn
        time.sleep(0.2)
    raise AssertionError("no person's turn came")


def close_the_table(code: str) -> None:
    """Everybody leaves: the table closes and its match is aborted (no computer plays on
    after the test)."""
    for seat in tables.show(tables.get_table(code=code))["seats"]:
        if seat["username"]:
            user = get_user_model().objects.get(username=seat["username"])
            with contextlib.suppress(ApiError):
                tables.leave(user=user, code=code)


def test_a_table_with_a_friend(page, browser, stack, shot, assert_accessible):
    host = sign_up(page)
    page.goto("/games/new")
    page.get_by_role("button", name="Open a table").click()
    page.wait_for_url(re.compile(r".*/tables/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    share = page.locator("#share-link").input_value()
    assert share.endswith(f"/tables/{code}")
    assert page.locator(".table-seats li.taken").count() == 1

    friend_context = browser.new_context(base_url=stack, viewport=VIEWPORTS[page.viewport_name],
                                         locale="en-GB",
                                         extra_http_headers={"Accept-Language": "en"})
    friend_context.set_default_timeout(15_000)
    friend = friend_context.new_page()
    friend.viewport_name = page.viewport_name
    errors: list[str] = []
    friend.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        friend_name = sign_up_through_the_link(friend, share)
        friend.get_by_role("button", name="Take a seat").click()
        friend.locator(".table-seats li.you").wait_for()
        # the host's lobby shows the friend without a reload (the table_joined event)
        page.locator(".table-seats li.taken", has_text=friend_name).wait_for()
        shot(page, "c8-table")
        assert_accessible(page)

        page.get_by_role("button", name="Deal").click()
        page.wait_for_url(re.compile(r".*/games/\d+$"))
        game_id = int(page.url.rsplit("/", 1)[1])
        friend.wait_for_url(re.compile(rf".*/games/{game_id}$"))  # the table_dealt event
        assert page.locator(".seats .seat").count() == 4
        assert page.locator(".timer").count() == 1  # 30-second turns at a table

        # both play cards, each on their own turn (computer regulars in the other two seats)
        people = {seat_of(game_id, host): (page, host),
                  seat_of(game_id, friend_name): (friend, friend_name)}
        done = set()
        while len(done) < 2:
            turn = wait_for_a_person(game_id, set(people))
            tab, name = people[turn]
            if play_a_card(tab, game_id, name):
                done.add(name)
        assert done == {host, friend_name}
        shot(friend, "c8-table-game")
        assert_accessible(friend)
    finally:
        friend_context.close()
        close_the_table(code)
    assert not errors, f"JavaScript errors: {errors}"
