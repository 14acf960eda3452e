"""A real uvicorn server and a real Celery worker: moves reach the other player's open stream,
the computer's reply reaches the human, a resume with Last-Event-ID loses nothing, and an
outsider gets nothing. Both backends: Redis streams, and the embedded default (the database)."""

import time
import uuid

import httpx
import pytest

from accounts import tokens
from games import services
from tests.integration.workers import (
    remove_log,
    start_worker,
    stop_worker,
    worker_database_url,
)
from tests.live.server import SseClient, start_server, stop_server

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(scope="module", params=["redis", "db"])
def _stack_processes(request, django_db_setup, django_db_blocker):
    """(backend, queue, base URL): a uvicorn server and a worker sharing the backend
    ``request.param``, started once per backend for this module's tests (starting them costs
    several seconds; every test makes its own players and games, and the database is emptied
    between tests while they stay up, as the browser tests' session stack does)."""
    backend = request.param
    queue = f"c10s-live-{uuid.uuid4().hex[:8]}"
    env = {"LIVE_BACKEND": backend, "LIVE_POLL_SECONDS": "0.1", "GAMES_AI_QUEUE": queue,
           "NOTIFY_QUEUE": queue, "LIVE_HEARTBEAT_SECONDS": "1"}
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    worker = start_worker(queue=queue, db_url=db_url, extra_env=env)
    try:
        server, base = start_server(db_url=db_url, extra_env=env)
    except BaseException:
        stop_worker(worker)
        remove_log(worker)
        raise
    yield backend, queue, base
    stop_server(server)
    stop_worker(worker)
    remove_log(worker)


@pytest.fixture
def stack(_stack_processes, settings):
    """(base URL) of a uvicorn server and a worker that share the backend of
    ``_stack_processes``; this test process publishes to the same backend and queue."""
    backend, queue, base = _stack_processes
    settings.LIVE_BACKEND = backend
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    return base


def auth(user) -> dict[str, str]:
    _, key = tokens.issue(user=user, name="tests")
    return {"Authorization": f"Token {key}"}


def post_move(base: str, user, game_id: int, move: str, number: int) -> None:
    response = httpx.post(f"{base}/api/v1/games/{game_id}/moves", headers=auth(user),
                          json={"move": move, "expected_move_number": number}, timeout=30)
    assert response.status_code in (200, 201), response.text


def test_moves_reach_the_opponent_and_resume_loses_nothing(stack, human_game, alice, bob, carol):
    base = stack
    bob_stream = SseClient(f"{base}/api/v1/events", auth(bob)).start()
    outsider = SseClient(f"{base}/api/v1/events", auth(carol)).start()
    game_stream = SseClient(f"{base}/api/v1/games/{human_game.pk}/events", auth(bob)).start()
    assert bob_stream.status == outsider.status == game_stream.status == 200

    post_move(base, alice, human_game.pk, "g7=5 h7=5", 0)
    first = bob_stream.wait_for(lambda e: e.type == "move")
    assert (first.data["game"], first.data["move_number"], first.data["your_turn"]) == (
        human_game.pk, 1, True)
    assert "rack" not in first.data
    game_stream.wait_for(lambda e: e.type == "move")

    # bob goes away; two moves are played; he comes back with the last id he saw.
    bob_stream.wait_for(lambda e: e.type == "your_turn")
    seen = bob_stream.events[-1].id
    bob_stream.close()
    post_move(base, bob, human_game.pk, "pass", 1)
    post_move(base, alice, human_game.pk, "pass", 2)
    again = SseClient(f"{base}/api/v1/events", {**auth(bob), "Last-Event-ID": seen}).start()
    again.wait_for(lambda e: e.type == "move" and e.data["move_number"] == 3)
    time.sleep(0.3)
    assert [e.data["move_number"] for e in again.of_type("move")] == [2, 3]
    assert not again.of_type("resync")
    assert [e.data["by_you"] for e in again.of_type("move")] == [True, False]

    time.sleep(1.5)  # a heartbeat passes: the outsider's stream is open and got nothing
    assert outsider.events == [] and not outsider.ended.is_set()
    for client in (again, outsider, game_stream):
        client.close()


def test_the_computers_reply_reaches_the_human(stack, alice):
    base = stack
    game = services.create_game(user=alice, opponent={"ai": "beginner"})
    stream = SseClient(f"{base}/api/v1/games/{game.pk}/events", auth(alice)).start()
    game.refresh_from_db()
    if game.current_seat == 0:
        post_move(base, alice, game.pk, "pass", game.move_number)
    reply = stream.wait_for(lambda e: e.type == "move" and not e.data["by_you"], timeout=60)
    assert reply.data["seat"] == 1 and "rack" not in reply.data
    stream.wait_for(lambda e: e.type == "your_turn")
    stream.close()
