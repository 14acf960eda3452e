"""The computer-turn sweep and the idempotency purge keep working when the cache is down."""

from datetime import timedelta

import pytest
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError

from games import services, tasks
from games.models import Game, IdempotencyRecord

pytestmark = pytest.mark.django_db


def test_the_sweep_requeues_without_its_duplicate_limit_when_the_cache_is_down(
    alice, monkeypatch, ai_queue
):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)  # computer first
    game = services.create_game(user=alice, opponent={"ai": "beginner"})
    stale = tasks.ai_turn_stale_after() + timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - stale)

    def down(*args, **kwargs):
        raise RedisConnectionError("Connection refused.")

    monkeypatch.setattr("games.tasks.cache.get", down)
    ai_queue.clear()
    assert tasks.sweep_ai_turns() == 1
    assert ai_queue == [(game.pk, 0)]


def test_idempotency_records_are_purged_after_the_retention_period(
    human_game, alice, alice_client, settings
):
    settings.IDEMPOTENCY_RETENTION_DAYS = 30
    response = alice_client.post(
        f"/api/v1/games/{human_game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="old",
    )
    assert response.status_code == 201
    assert tasks.purge_idempotency_records.run() == 0  # recent: kept
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(days=31))
    assert tasks.purge_idempotency_records.run() == 1
    assert not IdempotencyRecord.objects.exists()
    assert Game.objects.filter(pk=human_game.pk).exists()
