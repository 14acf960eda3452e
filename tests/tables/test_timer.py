"""30-second turns: the deadline's takeover, away seats played by the server, coming back."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from config.errors import ApiError
from games import clocks, dispatch, services
from games.models import Game, Seat
from games.tables import services as tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def timers(monkeypatch):
    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(dispatch, "enqueue_turn_deadline", lambda g, n, d: queued.append((g, n)))
    return queued


@pytest.fixture
def match(alice, bob, ai_queue, timers, settings, django_capture_on_commit_callbacks):
    settings.TABLES_TURN_SECONDS = 30
    table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
    tables.join(user=bob, code=table.code)
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.deal(user=alice, code=table.code)
    return Game.objects.get(pk=table.game_id)


def _legal(game: Game) -> str:
    """A legal move of the seat to move, in notation (what its person might send)."""
    import random

    from games import kinds
    from games.crazy_eights.engine.moves import format_move

    kind = kinds.get(game.kind)
    return format_move(kind.computer_move(kind.load(game.state), "cautious", random.Random(0)))


def _person_to_move(game: Game) -> Seat:
    game.refresh_from_db()
    return Seat.objects.get(game=game, index=game.current_seat)


def _play_server_turns(ai_queue, capture, game):
    while ai_queue:
        gid, n = ai_queue.pop(0)
        with capture(execute=True):
            services.play_ai_turn(game_id=gid, expected_move_number=n)
    game.refresh_from_db()


def test_a_person_turn_has_a_30s_deadline_and_one_timer(
    match, timers, ai_queue, django_capture_on_commit_callbacks
):
    _play_server_turns(ai_queue, django_capture_on_commit_callbacks, match)
    seat = _person_to_move(match)
    assert seat.user_id is not None
    assert match.turn_deadline - match.turn_started_at == timedelta(seconds=30)
    assert (match.pk, match.move_number) in timers


def test_deadline_takes_over_and_server_keeps_playing_until_back(
    match, ai_queue, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    _play_server_turns(ai_queue, capture, match)
    seat = _person_to_move(match)
    before = match.move_number
    assert services.play_timeout(game_id=match.pk, expected_move_number=before) is None  # early
    later = match.turn_deadline + timedelta(milliseconds=1)
    with capture(execute=True):
        move = services.play_timeout(game_id=match.pk, expected_move_number=before, now=later)
    assert move is not None and move.seat == seat.index and move.is_timeout
    seat.refresh_from_db()
    assert seat.away and not seat.left
    # The server plays the seat's later turns at once: its next turn is queued, not timed.
    match.refresh_from_db()
    nxt = Seat.objects.get(game=match, index=match.current_seat)
    assert bool(ai_queue) == nxt.plays_itself  # server-played turns are queued, not timed
    with capture(execute=True):
        services.come_back(game_id=match.pk, user=seat.user)
    seat.refresh_from_db()
    assert not seat.away


def test_move_at_the_deadline_and_takeover_never_both(
    match, ai_queue, bob, django_capture_on_commit_callbacks
):
    _play_server_turns(ai_queue, django_capture_on_commit_callbacks, match)
    seat = _person_to_move(match)
    n = match.move_number
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(
            game_id=match.pk, user=seat.user, move=_legal(match), expected_move_number=n
        )
    late = timezone.now() + timedelta(seconds=60)
    assert services.play_timeout(game_id=match.pk, expected_move_number=n, now=late) is None
    assert match.moves.filter(number=n + 1, is_timeout=False).exists()


def test_sweep_takes_over_a_lost_timer(match, ai_queue, django_capture_on_commit_callbacks):
    _play_server_turns(ai_queue, django_capture_on_commit_callbacks, match)
    seat = _person_to_move(match)
    with django_capture_on_commit_callbacks(execute=True):
        played = clocks.sweep_expired_turns(now=match.turn_deadline + timedelta(seconds=1))
    assert played == 1
    seat.refresh_from_db()
    assert seat.away


def test_back_of_someone_not_seated_is_refused(match, carol):
    with pytest.raises(ApiError) as exc:
        tables.back(user=carol, code=match.table.code)
    assert exc.value.code == "not_seated"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_race_move_vs_takeover_postgres(alice, bob, ai_queue, timers, settings):
    """Threads: a person's move and the takeover for the same turn at the deadline; exactly
    one of them is played (the row lock + the move number)."""
    if connection.vendor != "postgresql":
        raise AssertionError("needs PostgreSQL (marker postgres)")
    settings.TABLES_TURN_SECONDS = 30
    settings.GAMES_AI_PAUSE_SECONDS = 0
    outcomes = []
    for _round in range(5):
        table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
        tables.join(user=bob, code=table.code)
        game = Game.objects.get(pk=tables.deal(user=alice, code=table.code).game_id)
        while ai_queue:
            gid, n = ai_queue.pop(0)
            services.play_ai_turn(game_id=gid, expected_move_number=n)
        game.refresh_from_db()
        seat = Seat.objects.get(game=game, index=game.current_seat)
        n = game.move_number
        at = game.turn_deadline + timedelta(milliseconds=1)
        legal = _legal(game)
        barrier = threading.Barrier(2)
        results: dict[str, object] = {}

        def move(user=seat.user, gid=game.pk, n=n, legal=legal, barrier=barrier, results=results):
            barrier.wait()
            try:
                services.submit_move(game_id=gid, user=user, move=legal, expected_move_number=n)
                results["move"] = True
            except ApiError as exc:
                results["move"] = exc.code
            finally:
                connection.close()

        def takeover(gid=game.pk, n=n, at=at, barrier=barrier, results=results):
            barrier.wait()
            try:
                results["takeover"] = (
                    services.play_timeout(game_id=gid, expected_move_number=n, now=at) is not None
                )
            finally:
                connection.close()

        threads = [threading.Thread(target=move), threading.Thread(target=takeover)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        played = game.moves.filter(number=n + 1).count()
        assert played == 1 and game.moves.filter(number=n + 2).count() <= 1
        assert (results["move"] is True) != (results["takeover"] is True), results
        if results["move"] is not True:
            assert results["move"] == "stale_move_number"
        outcomes.append(results["move"] is True)
