"""A move that waited for another write's lock on its game plays with the seats as that write
left them (PostgreSQL re-reads the locked game row after the wait, not rows merely joined to
it): here bob's seat is taken over by the computer while alice's move waits, and her move
then hands the turn to the computer (a computer turn is queued), not to bob."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from games import services
from games.models import Game, Seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_a_move_that_waited_sees_the_seats_the_other_write_left(human_game, alice, ai_queue):
    locked, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def other_write() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update(no_key=True).get(pk=human_game.pk)
                Seat.objects.filter(game=human_game, index=1).update(away=True)
                locked.set()
                release.wait(20)
        except BaseException as exc:
            failures.append(exc)
            locked.set()
        finally:
            connection.close()

    thread = threading.Thread(target=other_write)
    thread.start()
    assert locked.wait(20) and not failures, failures
    timer = threading.Timer(1.0, release.set)  # the move below waits for the lock meanwhile
    timer.start()
    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0)
    thread.join(20)
    assert not failures, failures
    assert ai_queue == [(human_game.pk, 1)]  # the away seat is played by the server at once


@pytest.mark.parametrize("first_seat_taken", [True, False])
def test_the_locked_game_has_its_state_whichever_seats_are_taken(alice, first_seat_taken):
    """The lock query carries the state on seat 0's row: a game waiting for seat 0's player
    (no such row yet) reads its state when asked, instead of finding none."""
    from games.services._common import _lock_game_and_seats

    seats = [{"you": True}, {"random": True}]
    game = services.create_game(user=alice, seats=seats if first_seat_taken else seats[::-1])
    with transaction.atomic():
        locked, locked_seats = _lock_game_and_seats(game.pk)
        assert [s.index for s in locked_seats] == ([0] if first_seat_taken else [1])
        assert locked.state == Game.objects.get(pk=game.pk).state != {}
