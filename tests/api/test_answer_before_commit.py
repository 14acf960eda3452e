"""A committed move (or new game) always has its answer: the response body is rendered inside
the transaction, so an answer that cannot be rendered rolls the write back, and an
Idempotency-Key stores only a body that rendered (a retry then plays the move for real)."""

import pytest
from rest_framework.test import APIClient

from games.api import serializers
from games.models import Game, IdempotencyRecord, Move

pytestmark = pytest.mark.django_db


def broken(body):
    raise RuntimeError("the answer cannot be rendered")


def test_a_move_whose_answer_fails_is_not_committed(human_game, alice, monkeypatch):
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(alice)
    url = f"/api/v1/games/{human_game.pk}/moves"
    body = {"move": "g7=5 h7=5", "expected_move_number": 0}
    monkeypatch.setattr(serializers, "render_move_played", broken)
    failed = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert failed.status_code == 500
    assert Move.objects.filter(game=human_game).count() == 0
    assert Game.objects.get(pk=human_game.pk).move_number == 0
    assert not IdempotencyRecord.objects.exists()

    monkeypatch.undo()
    retried = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried
    assert retried.json()["score"] == 20 and retried.json()["game"]["move_number"] == 1
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == retried.json()
    assert Move.objects.filter(game=human_game).count() == 1


def test_a_new_game_whose_answer_fails_is_not_created(alice, monkeypatch, ai_queue):
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(alice)
    body = {"kind": "crazy10s", "seats": [{"you": True}, {"computer": "beginner"}]}
    monkeypatch.setattr(serializers, "render_view", broken)
    failed = client.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY="g-1")
    assert failed.status_code == 500
    assert not Game.objects.exists() and not IdempotencyRecord.objects.exists()
    monkeypatch.undo()
    created = client.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY="g-1")
    assert created.status_code == 201 and Game.objects.count() == 1
