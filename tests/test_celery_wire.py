"""config/celery_wire.py writes what Celery itself would put on a Redis queue (issue 28): the
same task sent once by Celery (``dispatch.send`` outside a batch) and once by the batch path
lands on the same list as the same message, key by key, but for its fresh ids."""

from __future__ import annotations

import base64
import json
import uuid
from datetime import datetime

import pytest
import redis
from django.conf import settings

from config import celery_wire
from config.celery import app
from config.logs import request_id_var
from games import dispatch

pytestmark = pytest.mark.redis

# Fresh per message: the task's id (and the root, correlation and delivery ids derived from it).
FRESH = {("headers", "id"), ("headers", "root_id"), ("properties", "correlation_id"),
         ("properties", "delivery_tag")}


@pytest.fixture(autouse=True)
def _fresh_facts():
    celery_wire.forget()
    yield
    celery_wire.forget()


@pytest.fixture
def queue(settings):
    name = f"c10s-wire-{uuid.uuid4().hex[:8]}"
    # The tasks a move's commit sends, each routed there.
    settings.GAMES_ANALYSIS_QUEUE = settings.NOTIFY_QUEUE = settings.GAMES_AI_QUEUE = name
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    yield name, broker
    broker.delete(*celery_wire.queue_lists(name))


def _both(queue, *args, task: str = dispatch.ANALYSE_MOVES, countdown: float = 0
          ) -> tuple[dict, dict]:
    name, broker = queue
    assert dispatch.send(task, *args, countdown=countdown)  # Celery's own
    with dispatch.batched() as batch:
        assert batch is not None, "the batch path needs Redis as the broker, not eager"
        dispatch.send(task, *args, countdown=countdown)
    # Both on the list of the task's priority (its route's); LPUSH puts the newest first.
    listed = celery_wire.queue_list(name, (dispatch.route_task(task, args, {}, {}) or {}).get(
        "priority", 0))
    ours, celerys = (json.loads(raw) for raw in broker.lrange(listed, 0, -1))
    return celerys, ours


def _flat(message: dict) -> dict[tuple[str, ...], object]:
    return {(part, key): value for part in ("headers", "properties")
            for key, value in message[part].items()} | {
        (key,): value for key, value in message.items() if key not in {"headers", "properties"}}


@pytest.mark.parametrize("registered", [False, True])
def test_a_batched_message_is_the_message_celery_writes(queue, registered, monkeypatch):
    if registered:  # imported in this process, as in a worker: its time limits are sent
        import games.tasks  # noqa: F401
    else:  # known by name only, as in a web process that never imported it
        monkeypatch.delitem(app.tasks, dispatch.ANALYSE_MOVES, raising=False)
    token = request_id_var.set("req-wire-1")
    try:
        celerys, ours = _both(queue, 41, None)
    finally:
        request_id_var.reset(token)
    if registered:
        assert ours["headers"]["timelimit"] == [
            settings.CELERY_TASK_TIME_LIMIT, settings.CELERY_TASK_SOFT_TIME_LIMIT]
    theirs, mine = _flat(celerys), _flat(ours)
    assert theirs.keys() == mine.keys()
    differing = {key for key in theirs if theirs[key] != mine[key]}
    assert differing == FRESH
    assert ours["headers"]["root_id"] == ours["headers"]["id"] == ours["properties"][
        "correlation_id"]
    assert ours["headers"]["request_id"] == "req-wire-1"
    assert ours["properties"]["delivery_info"] == {"exchange": "", "routing_key": queue[0]}
    body = json.loads(base64.b64decode(ours["body"]))
    assert body == [[41, None], {}, {"callbacks": None, "errbacks": None, "chain": None,
                                     "chord": None}]


@pytest.mark.parametrize("task", [dispatch.PROCESS_EVENT, dispatch.EXPIRE_TURN,
                                  dispatch.PLAY_AI_TURN])
def test_the_other_messages_of_a_move_too(queue, task):
    args = (44,) if task == dispatch.PROCESS_EVENT else (45, 3)
    celerys, ours = _both(queue, *args, task=task, countdown=30 if task == dispatch.EXPIRE_TURN
                          else 0)
    theirs, mine = _flat(celerys), _flat(ours)
    assert theirs.keys() == mine.keys()
    differing = {key for key in theirs if theirs[key] != mine[key]}
    assert differing - {("headers", "eta")} == FRESH


def test_the_queues_priority_lists_are_kombus():
    assert celery_wire.queue_list("q") == celery_wire.queue_list("q", 2) == "q"
    assert celery_wire.queue_list("q", 6) == "q\x06\x166"
    assert celery_wire.queue_list("q", 8) == "q\x06\x166"
    assert celery_wire.queue_list("q", 9) == "q\x06\x169"
    assert celery_wire.queue_lists("q") == ["q", "q\x06\x163", "q\x06\x166", "q\x06\x169"]


def test_only_background_work_is_sent_after_the_rest(settings):
    settings.NOTIFY_QUEUE = None
    assert dispatch.route_task(dispatch.PROCESS_EVENT, (), {}, {}) == {
        "queue": "celery", "priority": dispatch.BACKGROUND_PRIORITY}
    # A person waits for these: a verification, a password reset.
    for task in (dispatch.ACCOUNT_EMAIL, dispatch.PASSWORD_RESET_EMAIL):
        assert dispatch.route_task(task, (), {}, {}) is None
        settings.NOTIFY_QUEUE = "mail"
        assert dispatch.route_task(task, (), {}, {}) == {"queue": "mail"}
        settings.NOTIFY_QUEUE = None
    assert dispatch.route_task(dispatch.PLAY_AI_TURN, (), {}, {}) is None


def test_a_worker_takes_a_computer_turn_before_a_backlog_of_emails(queue):
    """A worker restarted after a crash finds the emails of every move made while it was down;
    the computer's turn queued after them (by the sweep) is still the first it takes."""
    from kombu import Queue

    name, broker = queue
    with dispatch.batched():
        for event in range(20):
            dispatch.send(dispatch.PROCESS_EVENT, event)
    for event in range(20, 25):
        dispatch.send(dispatch.PROCESS_EVENT, event)  # Celery's own
    dispatch.send(dispatch.PLAY_AI_TURN, 45, 3)
    with app.connection_for_read() as connection:
        bound = Queue(name, routing_key=name)(connection.default_channel)
        taken = [bound.get(no_ack=True) for _ in range(3)]
    assert [m.headers["task"] for m in taken] == [dispatch.PLAY_AI_TURN] + [
        dispatch.PROCESS_EVENT] * 2
    assert [json.loads(m.body)[0] for m in taken[1:]] == [[0], [1]]  # the emails in order


def test_a_countdown_becomes_the_same_eta(queue):
    celerys, ours = _both(queue, 42, 7, countdown=30)
    eta = datetime.fromisoformat(ours["headers"]["eta"])
    assert eta.utcoffset() is not None
    difference = eta - datetime.fromisoformat(celerys["headers"]["eta"])
    assert abs(difference.total_seconds()) < 2


def test_a_refused_batch_is_logged_once_and_the_caller_goes_on(queue, monkeypatch, caplog):
    from config import redis_health

    monkeypatch.setattr(dispatch, "_last_refusal", float("-inf"))  # restored afterwards
    monkeypatch.setattr(dispatch, "broker_url", lambda: "redis://127.0.0.1:1/0")  # nobody there
    dispatch._broker_client.cache_clear()
    try:
        with dispatch.batched():
            assert dispatch.send(dispatch.ANALYSE_MOVES, 43, None)  # buffered: not sent yet
            assert dispatch.send(dispatch.PROCESS_EVENT, 44)
    finally:
        dispatch._broker_client.cache_clear()
        assert redis_health.failed_recently()
        redis_health.forget()
    refusals = [r.getMessage() for r in caplog.records if "could not queue" in r.getMessage()]
    assert refusals == [
        refusals[0]] and "games.analyse_moves, notifications.process_event" in refusals[0]
    assert dispatch.broker_refused_recently()
    assert queue[1].llen(queue[0]) == 0


@pytest.mark.parametrize("change", ["key_prefix", "task_priority"])
def test_what_the_wire_cannot_write_celery_sends_at_once(queue, change, monkeypatch):
    """A key prefix moves kombu's lists, a task's priority its queue: the batch leaves such a
    message to Celery, which sends it at once, where Celery wants it."""
    name, broker = queue
    if change == "key_prefix":
        monkeypatch.setitem(app.conf, "broker_transport_options",
                            {**app.conf.broker_transport_options, "global_keyprefix": "x:"})
    else:
        import games.tasks  # noqa: F401  (registered, so its options count)

        monkeypatch.setattr(app.tasks[dispatch.ANALYSE_MOVES], "priority", 3)
    celery_wire.forget()
    assert not celery_wire.writable(dispatch.ANALYSE_MOVES)
    assert celery_wire.writable(dispatch.PROCESS_EVENT) == (change == "task_priority")
    with dispatch.batched() as batch:
        assert batch is not None
        assert dispatch.send(dispatch.ANALYSE_MOVES, 46, None)
        assert batch.messages == []  # not buffered: Celery has sent it already
    stored = broker.keys(f"*{name}*")
    assert stored, "Celery sent nothing"
    for key in stored:
        broker.delete(key)
