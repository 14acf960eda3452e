"""The computer's search runs outside the game's row lock: a player may resign while it thinks
(nobody waits for the search), and a search that the game outran is discarded, not saved."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.crazy10s.kind import Crazy10sKind
from games.models import Game, Move

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

COMPUTER_FIRST = 20240601  # under this seed the computer (seat 1) moves first


@pytest.fixture
def computer_game(alice, monkeypatch, ai_queue):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: COMPUTER_FIRST)
    game = services.create_game(user=alice, opponent={"ai": "casual"})
    assert game.current_seat == 1 and ai_queue == [(game.pk, 0)]
    return game


def _in_other_thread(work) -> list:
    """Run ``work`` on its own connection; fail if it waits on a lock for more than 5 s."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # re-raised below
            outcome.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=5)
    assert not thread.is_alive(), "the player's write waited for the computer's search"
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome


def test_a_resignation_during_the_search_wins_and_the_search_is_discarded(
    computer_game, alice, monkeypatch
):
    real = Crazy10sKind.computer_move
    searched: list[int] = []

    def thinking(self, state, level, rng):
        # While the computer thinks, the player resigns on another connection: this must not
        # wait for the computer (it would, if the search held the row lock).
        _in_other_thread(lambda: services.resign(game_id=computer_game.pk, user=alice))
        searched.append(state.move_number)
        return real(self, state, level, rng)

    monkeypatch.setattr(Crazy10sKind, "computer_move", thinking)
    assert services.play_ai_turn(game_id=computer_game.pk, expected_move_number=0) is None
    assert searched == [0]
    game = Game.objects.get(pk=computer_game.pk)
    assert game.status == Game.Status.FINISHED and game.result["termination"] == "resignation"
    assert game.result["winners"] == [1]
    assert list(Move.objects.filter(game=game).values_list("number", "kind")) == [(1, "resign")]


def test_a_human_move_meanwhile_discards_the_search(alice, bob, human_game, monkeypatch):
    """A game moved on (move number changed) during the search: nothing is saved."""
    real = Crazy10sKind.computer_move

    def thinking(self, state, level, rng):
        Game.objects.filter(pk=human_game.pk).update(move_number=99)  # someone else moved
        return real(self, state, level, rng)

    monkeypatch.setattr(Crazy10sKind, "computer_move", thinking)
    from games.models import Seat

    Seat.objects.filter(game=human_game, index=0).update(user=None, ai_level="casual")
    before = Game.objects.get(pk=human_game.pk).state
    assert services.play_ai_turn(game_id=human_game.pk, expected_move_number=0) is None
    game = Game.objects.get(pk=human_game.pk)
    assert game.state == before and not Move.objects.filter(game=game).exists()


def test_the_turn_is_played_once_however_often_the_task_runs(computer_game):
    first = services.play_ai_turn(game_id=computer_game.pk, expected_move_number=0)
    assert first is not None and first.number == 1 and first.seat == 1
    assert services.play_ai_turn(game_id=computer_game.pk, expected_move_number=0) is None
    assert Move.objects.filter(game=computer_game).count() == 1
    assert Game.objects.get(pk=computer_game.pk).current_seat == 0
