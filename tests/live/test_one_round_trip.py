"""After its commit a move talks to Redis once (issue 28): its players' live events and its
Celery messages (the outbox nudge, the analysis) go in one pipeline when the live backend is
Redis and the broker is its database. When that pipeline fails, the move still stands and each
part says once that it was not sent."""

from __future__ import annotations

import uuid

import pytest
import redis
from django.conf import settings
from redis.client import Pipeline

from config import celery_wire, redis_health
from games import dispatch
from live.backends import _backend
from live.backends.redis import stream_key

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def redis_live(settings):
    settings.LIVE_BACKEND = "redis"
    _backend.cache_clear()
    yield
    _backend.cache_clear()


@pytest.fixture
def queues(settings):
    queue_names = {"notify": f"c10s-notify-{uuid.uuid4().hex[:8]}",
                   "analysis": f"c10s-analysis-{uuid.uuid4().hex[:8]}"}
    settings.NOTIFY_QUEUE = queue_names["notify"]
    settings.GAMES_ANALYSIS_QUEUE = queue_names["analysis"]
    # Their messages are background work: on the queues' lower-priority lists.
    names = {kind: celery_wire.queue_list(name, dispatch.BACKGROUND_PRIORITY)
             for kind, name in queue_names.items()}
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    yield names, broker
    broker.delete(*names.values())


@pytest.fixture
def pipelines(monkeypatch):
    executed: list[list[str]] = []
    original = Pipeline.execute

    def counting(self, *args, **kwargs):
        executed.append([str(command[0][0]) for command in self.command_stack])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", counting)
    return executed


def _move(client, game, body):
    return client.post(f"/api/v1/games/{game.pk}/moves", body, format="json")


def test_a_move_sends_its_events_and_messages_in_one_pipeline(
    redis_live, queues, pipelines, human_game, alice, bob, alice_client
):
    names, broker = queues
    before = {user.pk: broker.xlen(stream_key(user.pk)) for user in (alice, bob)}
    queued = {name: broker.llen(name) for name in names.values()}  # the game's start
    pipelines.clear()
    response = _move(alice_client, human_game, {"move": "g7=5 h7=5", "expected_move_number": 0})
    assert response.status_code == 201, response.json()

    (commands,) = pipelines
    assert "XADD" in commands and "PUBLISH" in commands and "LPUSH" in commands
    assert commands.count("PEXPIRE") == 2  # one per player, however many events each got
    assert broker.llen(names["notify"]) == queued[names["notify"]] + 1
    assert broker.llen(names["analysis"]) == queued[names["analysis"]] + 1
    for user in (alice, bob):
        assert broker.xlen(stream_key(user.pk)) > before[user.pk]


def test_a_failed_pipeline_leaves_the_move_standing(
    redis_live, queues, human_game, alice_client, monkeypatch, caplog
):
    names, broker = queues
    queued = {name: broker.llen(name) for name in names.values()}  # the game's start

    def refuse(self, *args, **kwargs):
        raise redis.ConnectionError("refused (test)")

    monkeypatch.setattr(Pipeline, "execute", refuse)
    monkeypatch.setattr(dispatch, "_last_refusal", float("-inf"))  # restored afterwards
    try:
        response = _move(alice_client, human_game,
                         {"move": "g7=5 h7=5", "expected_move_number": 0})
        assert redis_health.failed_recently()
    finally:
        redis_health.forget()
    assert response.status_code == 201, response.json()
    human_game.refresh_from_db()
    assert human_game.move_number == 1
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len([line for line in lines if line.startswith("live: publishing")]) == 1, lines
    assert len([line for line in lines if line.startswith("could not queue")]) == 1, lines
    assert {name: broker.llen(name) for name in names.values()} == queued
    assert settings.CELERY_BROKER_URL == settings.REDIS_URL


def test_a_refused_command_costs_only_its_own_part(
    redis_live, queues, human_game, alice, alice_client, caplog
):
    """A queue Redis refuses to push to (here a key of another type): the live events are
    stored all the same, the messages are logged once as not queued, and Redis is not taken
    for down (the throttles and the next moves keep using it)."""
    names, broker = queues
    broker.delete(names["notify"])
    broker.set(names["notify"], "not a list")  # LPUSH answers WRONGTYPE
    before = broker.xlen(stream_key(alice.pk))
    response = _move(alice_client, human_game, {"move": "g7=5 h7=5", "expected_move_number": 0})
    assert response.status_code == 201, response.json()
    assert broker.xlen(stream_key(alice.pk)) > before
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert [line for line in lines if line.startswith("could not queue")], lines
    assert not [line for line in lines if line.startswith("live: publishing")], lines
    assert not redis_health.failed_recently()


def test_a_message_that_cannot_be_written_leaves_the_events(
    redis_live, queues, human_game, alice, alice_client, monkeypatch, caplog
):
    names, broker = queues

    def broken(*args, **kwargs):
        raise TypeError("not JSON (test)")

    monkeypatch.setattr("config.celery_wire.task_message", broken)
    monkeypatch.setattr(dispatch, "_last_refusal", float("-inf"))  # restored afterwards
    before = broker.xlen(stream_key(alice.pk))
    response = _move(alice_client, human_game, {"move": "g7=5 h7=5", "expected_move_number": 0})
    assert response.status_code == 201, response.json()
    assert broker.xlen(stream_key(alice.pk)) > before
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len([line for line in lines if line.startswith("could not queue")]) == 1, lines
    assert not redis_health.failed_recently()
