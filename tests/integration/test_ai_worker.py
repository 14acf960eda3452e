"""A real Celery worker (subprocess) on the real Redis and PostgreSQL plays the computer's turns.

The worker listens on a queue of its own (GAMES_AI_QUEUE), so other workers sharing the Redis
server never take these tasks, and it reads the test database through DATABASE_URL.
"""

import os
import time
import uuid

import pytest

from games import kinds, services
from games.crazy10s import engine
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

GAME_TIME_LIMIT = 240  # seconds for a whole game; a single reply must come within 60


@pytest.fixture(scope="module")
def _worker_process(django_db_setup, django_db_blocker):
    """(queue, worker): one worker for this module's tests (starting one costs seconds)."""
    queue = f"c10s-it-{uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    proc = start_worker(
        queue=queue,
        db_url=db_url,
        # start_worker routes notifications to the test queue too; this test wants only the
        # computer's turns here, the emails a computer move triggers stay on the usual queue.
        extra_env={"NOTIFY_QUEUE": os.environ.get("NOTIFY_QUEUE", "")},
    )
    yield queue, proc
    stop_worker(proc)
    remove_log(proc)


@pytest.fixture
def worker(settings, _worker_process):
    queue, proc = _worker_process
    settings.GAMES_AI_QUEUE = queue
    settings.GAMES_ANALYSIS_QUEUE = queue  # the move analysis ("% of best") runs there too
    return proc


def wait_for_my_turn(
    client, game_id: int, move_number: int, worker=None, timeout: float = 60
) -> dict:
    """Poll the detail (with If-None-Match, as a mobile client would) until it is my turn."""
    deadline = time.monotonic() + timeout
    etag = None
    while time.monotonic() < deadline:
        headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
        response = client.get(f"/api/v1/games/{game_id}", **headers)
        if response.status_code == 200:
            etag = response["ETag"]
            view = response.json()
            replied = view["your_turn"] and view["move_number"] > move_number
            if view["status"] != "active" or replied:
                return view
        time.sleep(0.2)
    log = worker_log(worker, tail=3000) if worker is not None else ""
    raise AssertionError(
        f"no reply from the computer within {timeout} s after move {move_number}\n{log}"
    )


def my_choice(game_id: int) -> str:
    """The human side: the best-scoring legal placement, else pass."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    kind = kinds.get(game.kind)
    state = kind.load(game.state)
    placements = kind.legal_placements(state)
    if not placements:
        return "pass"
    best = max(placements, key=lambda p: (p.score, engine.format_move(p.move)))
    return engine.format_move(best.move)


def test_the_computer_replies_through_the_worker(worker, alice, alice_client, fixed_seed):
    game = services.create_game(user=alice, opponent={"ai": "beginner"})  # alice moves first
    response = alice_client.post(
        f"/api/v1/games/{game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
    )
    assert response.status_code == 201, response.content
    view = wait_for_my_turn(alice_client, game.pk, 1, worker)
    assert view["move_number"] == 2 and view["your_turn"] is True
    history = alice_client.get(f"/api/v1/games/{game.pk}/moves").json()
    assert [m["seat"] for m in history] == [0, 1]
    assert history[1]["player"] == "Computer (Beginner)"


def test_a_full_game_against_the_computer(worker, alice, alice_client):
    started = time.monotonic()
    view = alice_client.post(
        "/api/v1/games", {"opponent": {"ai": "beginner"}}, format="json"
    ).json()
    game_id = view["id"]
    if not view["your_turn"]:
        view = wait_for_my_turn(alice_client, game_id, -1, worker)
    while view["status"] == "active":
        assert time.monotonic() - started < GAME_TIME_LIMIT, "the game did not finish in time"
        number = view["move_number"]
        response = alice_client.post(
            f"/api/v1/games/{game_id}/moves",
            {"move": my_choice(game_id), "expected_move_number": number},
            format="json",
        )
        assert response.status_code == 201, response.content
        view = response.json()["game"]
        if view["status"] == "active":
            view = wait_for_my_turn(alice_client, game_id, number + 1, worker)
    assert view["status"] == "finished"
    assert view["result"]["termination"] in {"rack_emptied", "scoreless_turns"}
    history = alice_client.get(f"/api/v1/games/{game_id}/moves").json()
    assert len(history) == view["move_number"] and {m["seat"] for m in history} == {0, 1}
    # the stored state is the replay of the move log from the seed
    from games.models import Game, Move

    game = Game.objects.get(pk=game_id)
    notations = [m.notation for m in Move.objects.filter(game=game).order_by("number")]
    replayed = engine.replay(game.seed, engine.Options.from_dict(game.options), notations)
    assert replayed.to_dict() == game.state
    # The worker analysed every move ("% of best"): alice's after each, the computer's at the end.
    analysis = wait_for_analysis(alice_client, game_id, worker)
    moves = analysis["moves"]
    assert len(moves) == len(history) and {m["seat"] for m in moves} == {0, 1}
    for move in moves:
        assert move["best_score"] is not None and move["best_score"] >= move["score"], move
        assert 0 <= move["percent_of_best"] <= 100
    # alice always played the top placement (or passed without one): 100 % on placements
    assert {m["percent_of_best"] for m in moves if m["mine"] and m["kind"] == "placement"} == {
        100.0
    }


def wait_for_analysis(client, game_id: int, worker, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/api/v1/games/{game_id}/analysis").json()
        if body["complete"]:
            return body
        time.sleep(0.2)
    raise AssertionError(f"no complete analysis within {timeout} s\n{worker_log(worker)}")
