"""A missed turn at a Crazy Eights table in a real browser, at phone and desktop size: when the
30-second deadline passes, the computer plays the seat and the page says so without a reload;
"I'm back" gives the seat back and the player's next turn is theirs again. The deadline is
moved into the past and its timer task sent to the stack's worker at once (the real task and
service, without waiting 30 seconds)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks, turn_locks
from games.models import Game, Move, Seat
from tests.browser.c8_helpers import seat_of
from tests.browser.conftest import sign_up
from tests.browser.helpers import wait_for_my_turn
from tests.browser.test_crazy_eights import close_the_table

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_a_missed_turn_and_taking_the_seat_back(page, stack_queue, shot, assert_accessible):
    host = sign_up(page)
    page.goto("/games/new")
    page.get_by_role("button", name="Open a table").click()
    page.wait_for_url(re.compile(r".*/tables/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    try:
        page.get_by_role("button", name="Deal").click()  # three computer regulars join
        page.wait_for_url(re.compile(r".*/games/\d+$"))
        game_id = int(page.url.rsplit("/", 1)[1])
        seat = seat_of(game_id, host)
        number = wait_for_my_turn(page)
        page.evaluate("window.__same_page = true")  # gone if anything reloads the page
        assert page.locator(".away-note").count() == 0

        # The computers (no pause between their turns here) would play the away seat to the
        # end of the game before a person can click: this session holds the game's turn lock,
        # as a worker playing it would, so every computer turn after the takeover stands back
        # (games/turn_locks.py) until the seat is given back; then the turn is sent again, as
        # the sweep would.
        with turn_locks.playing(game_id) as held:
            assert held
            Game.objects.filter(pk=game_id).update(
                turn_deadline=timezone.now() - timedelta(seconds=1))
            tasks.expire_turn.apply_async((game_id, number), queue=stack_queue)
            page.locator(".away-note").wait_for()
            assert "The computer is playing your seat." in page.locator(".away-note").inner_text()
            taken = Move.objects.get(game_id=game_id, number=number + 1)
            assert (taken.seat, taken.kind) == (seat, "timeout")
            assert Seat.objects.get(game_id=game_id, index=seat).away
            shot(page, "c8-takeover")
            assert_accessible(page)

            page.get_by_role("button", name="I'm back").click()
            page.locator(".away-note").wait_for(state="detached")
            assert not Seat.objects.get(game_id=game_id, index=seat).away
        game = Game.objects.get(pk=game_id)
        if game.current_seat == seat:
            # The stand-in only drew a card: the rest of this turn is mine (its clock started
            # again when I came back).
            again = wait_for_my_turn(page, after=number)
        else:  # the computers play on to my next turn, which waits for me again
            tasks.play_ai_turn.apply_async((game_id, game.move_number), queue=stack_queue)
            again = wait_for_my_turn(page, after=game.move_number)
        moves_since = list(Move.objects.filter(game_id=game_id, number__gt=number)
                           .order_by("number").values_list("number", "seat", "kind", "notation"))
        assert Game.objects.get(pk=game_id).current_seat == seat, (again, moves_since)
        assert Move.objects.filter(game_id=game_id, number__gt=again).count() == 0
        assert page.evaluate("window.__same_page") is True
    finally:
        close_the_table(code)
