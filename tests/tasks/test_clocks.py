"""The deadline sweep: overdue turns become timeout passes; six of them end the game."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from config.errors import ApiError
from games import clocks, services
from games.crazy10s import engine
from games.models import Game, Move
from games.notifications import tasks as notify_tasks


def expire(game) -> None:
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))


@pytest.mark.django_db
def test_sweep_plays_only_overdue_turns_as_timeouts(human_game, alice, bob, ai_queue):
    other = services.create_game(user=alice, opponent={"username": bob.username})
    assert clocks.sweep_expired_turns() == 0
    expire(human_game)
    assert notify_tasks.sweep_expired_turns.apply().get() == 1
    move = Move.objects.get(game=human_game)
    assert (move.number, move.seat, move.kind, move.is_timeout, move.score) == (
        1, 0, "timeout", True, 0
    )
    human_game.refresh_from_db()
    assert human_game.current_seat == 1 and human_game.turn_deadline > timezone.now()
    assert not Move.objects.filter(game=other).exists()
    assert clocks.sweep_expired_turns() == 0  # idempotent


@pytest.mark.django_db
def test_a_game_left_alone_ends_after_six_timeouts_with_rack_deductions(human_game, fixed_seed):
    for _ in range(6):
        expire(human_game)
        assert clocks.sweep_expired_turns() == 1
    human_game.refresh_from_db()
    assert human_game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=human_game, is_timeout=True).count() == 6
    # Racks 0123555 (21) and 1234668 (30) are subtracted from scores of 0.
    assert human_game.result == {
        "termination": "scoreless_turns",
        "winner": 0,
        "winners": [0],
        "scores": [-21, -30],
        "adjustments": [-21, -30],
    }
    state = engine.new_game_from_seed(fixed_seed, engine.Options())
    for _ in range(6):
        state = engine.apply_move(state, engine.Pass(timeout=True)).state
    assert list(engine.outcome(state).scores) == human_game.result["scores"]
    assert clocks.sweep_expired_turns() == 0  # finished games have no deadline


def _race(*jobs):
    barrier = threading.Barrier(len(jobs))
    outcomes: list = [None] * len(jobs)

    def run(i):
        try:
            barrier.wait()
            outcomes[i] = jobs[i]()
        except ApiError as exc:
            outcomes[i] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(4))
def test_last_second_move_and_timeout_race_plays_exactly_one(human_game, alice, attempt):
    expire(human_game)

    def move():
        return services.submit_move(
            game_id=human_game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0
        ).status

    def timeout():
        return clocks.time_out(game_id=human_game.pk, move_number=0)

    outcomes = _race(move, timeout)
    moves = list(Move.objects.filter(game=human_game))
    assert len(moves) == 1
    if moves[0].is_timeout:
        assert outcomes == ["stale_move_number", True]
    else:
        assert outcomes[0] == 201 and outcomes[1] is False


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_sweeps_time_out_a_turn_once(human_game):
    expire(human_game)
    outcomes = _race(clocks.sweep_expired_turns, clocks.sweep_expired_turns)
    assert sorted(outcomes) == [0, 1]
    assert Move.objects.filter(game=human_game).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sweep_is_not_put_off_by_a_row_that_merely_references_the_game(human_game):
    """Inserting a row with a foreign key to the game (a sent-notification record, say) takes a
    KEY SHARE lock on the game row until commit; the sweep's claim must not skip the game then."""
    expire(human_game)
    locked, release = threading.Event(), threading.Event()

    def hold_key_share_lock():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:  # what an FK insert takes on the game row
                    cursor.execute(
                        f"SELECT id FROM {Game._meta.db_table} WHERE id = %s FOR KEY SHARE",
                        [human_game.pk],
                    )
                locked.set()
                release.wait(timeout=10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_key_share_lock)
    holder.start()
    try:
        assert locked.wait(timeout=10)
        assert clocks.sweep_expired_turns() == 1
    finally:
        release.set()
        holder.join()
    assert Move.objects.filter(game=human_game, is_timeout=True).count() == 1
