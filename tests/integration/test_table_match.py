"""A four-seat Crazy Eights table played to the end of its match with a real Celery worker.

Two people sit at the table (the host and a friend); the deal puts computers in the two empty
seats. Turns last TABLES_TURN_SECONDS=2 here, in this process and in the worker. The host plays
the hint's move on each of her turns; the friend never moves. Each of the friend's deadlines
must hand the seat to the computer within 2 s (the view shows the seat away and the timed-out
move), and the friend's ``back`` gives the seat back (the next turn is his, with a deadline
again). After enough cycles the friend stays away, so the computer plays his seat at once and
the match finishes within the test's time budget.
"""

from __future__ import annotations

import time
import uuid
from datetime import datetime

import pytest

from games.models import Move
from tests.integration.workers import (
    remove_log,
    start_worker,
    stop_worker,
    worker_database_url,
    worker_log,
)

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

TURN_SECONDS = 2
TAKEOVER_WITHIN = 2.0  # seconds after the deadline (issue 11)
CYCLES_BUDGET = 35.0  # seconds of miss/back cycles; then the friend stays away
MATCH_LIMIT = 85.0  # seconds for the whole match
MIN_CYCLES = 3


@pytest.fixture
def worker(settings):
    queue = f"c10s-table-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = queue
    settings.TABLES_TURN_SECONDS = TURN_SECONDS
    settings.GAMES_AI_PAUSE_SECONDS = 0
    proc = start_worker(
        queue=queue,
        db_url=worker_database_url(),
        extra_env={
            "TABLES_TURN_SECONDS": str(TURN_SECONDS),
            "GAMES_AI_PAUSE_MS": "0",
            # emails stay off this queue: the worker only plays turns and runs their timers
            "NOTIFY_QUEUE": "",
        },
    )
    yield proc
    stop_worker(proc)
    remove_log(proc)


def _view(client, game_id: int) -> dict:
    r = client.get(f"/api/v1/games/{game_id}")
    assert r.status_code == 200, r.content
    return r.json()


def _deadline(view: dict) -> float:
    assert view["deadline"] is not None, view
    return datetime.fromisoformat(view["deadline"].replace("Z", "+00:00")).timestamp()


def test_table_match_with_a_friend_who_never_answers(
    worker, alice, bob, alice_client, bob_client
):
    r = alice_client.post("/api/v1/tables", {"target": 100, "rules": {}}, format="json")
    assert r.status_code == 201, r.content
    code = r.json()["code"]
    assert bob_client.post(f"/api/v1/tables/{code}/join").status_code == 200
    r = alice_client.post(f"/api/v1/tables/{code}/deal")
    assert r.status_code == 200, r.content
    game_id = r.json()["game_id"]

    host_seat = _view(alice_client, game_id)["your_seat"]
    friend_seat = _view(bob_client, game_id)["your_seat"]
    view = _view(alice_client, game_id)
    assert len(view["players"]) == 4
    assert sum(p["is_computer"] for p in view["players"]) == 2

    started = time.monotonic()
    lateness: list[float] = []  # observed in the view: takeover seen minus deadline
    host_moves = 0
    friend_stays_away = False
    backs_checked = 0  # times the view showed the seat his again right after "back"
    while True:
        elapsed = time.monotonic() - started
        assert elapsed < MATCH_LIMIT, (
            f"match not over after {elapsed:.0f} s (move {view['move_number']})\n"
            + worker_log(worker)
        )
        view = _view(alice_client, game_id)
        if view["status"] != "active":
            break
        players = {p["seat"]: p for p in view["players"]}
        if players[host_seat]["away"]:
            # A slow machine may let the host's own 2 s turn pass: she takes her seat back.
            assert alice_client.post(f"/api/v1/tables/{code}/back").status_code == 200
            continue
        turn = view["to_move"]
        if turn == host_seat:
            hint = alice_client.get(f"/api/v1/games/{game_id}/hint")
            assert hint.status_code == 200, hint.content
            r = alice_client.post(
                f"/api/v1/games/{game_id}/moves",
                {"move": hint.json()["move"], "expected_move_number": view["move_number"]},
                format="json",
            )
            # 409: the 2 s deadline beat the host on a loaded machine; the loop catches up.
            assert r.status_code in (200, 201, 409), r.content
            host_moves += r.status_code != 409
            continue
        if turn == friend_seat and not players[friend_seat]["away"]:
            lateness.append(_await_takeover(alice_client, game_id, view, friend_seat, worker))
            if friend_stays_away:
                continue
            if len(lateness) >= MIN_CYCLES and time.monotonic() - started > CYCLES_BUDGET:
                friend_stays_away = True  # from now on the computer plays his seat at once
                continue
            asked_back = time.monotonic()
            r = bob_client.post(f"/api/v1/tables/{code}/back")
            assert r.status_code == 200, r.content
            mine = _view(bob_client, game_id)
            # The seat is his again, unless the takeover's move ended the match (a finished
            # game's seats stay as they were) or a loaded machine let a whole new 2 s turn of
            # his pass before the view was read.
            if mine["status"] == "active" and time.monotonic() - asked_back < TURN_SECONDS:
                assert not {p["seat"]: p for p in mine["players"]}[friend_seat]["away"], mine
                backs_checked += 1
            continue
        time.sleep(0.03)

    assert view["status"] == "finished", view
    assert view["result"] is not None
    assert len(lateness) >= MIN_CYCLES, lateness
    assert backs_checked >= 1, "no 'back' was ever seen to give the seat back"
    assert host_moves > 0
    print(f"\nfriend's missed deadlines: {len(lateness)}, lateness seen in the view (s): "
          f"max {max(lateness):.3f}, host moves {host_moves}, "
          f"match {time.monotonic() - started:.1f} s")


def _await_takeover(client, game_id: int, view: dict, seat: int, worker) -> float:
    """Wait for the friend's deadline to pass and the computer to play his turn; check it came
    within TAKEOVER_WITHIN of the deadline, in the view and in the move record."""
    n = view["move_number"]
    deadline = _deadline(view)
    give_up = deadline + TAKEOVER_WITHIN + 3
    while time.time() < give_up:
        now_view = _view(client, game_id)
        seen = time.time()
        if now_view["move_number"] > n:
            break
        time.sleep(0.02)
    else:
        raise AssertionError(f"no takeover of move {n + 1}\n{worker_log(worker)}")
    late = seen - deadline
    assert -0.05 < late <= TAKEOVER_WITHIN, (n, late)
    move = Move.objects.get(game_id=game_id, number=n + 1)
    assert move.seat == seat and move.is_timeout, (move.seat, move.is_timeout)
    assert 0 <= move.created_at.timestamp() - deadline <= TAKEOVER_WITHIN
    seat_view = {p["seat"]: p for p in now_view["players"]}[seat]
    assert seat_view["away"], now_view["players"]
    return late
