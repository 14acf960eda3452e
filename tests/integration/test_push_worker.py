"""Pushes through a real Celery worker and the real Redis to the push-service double (VAPID
and decryption checked as a push service does): a committed move ends with exactly one push
per subscribed device, the email waits, the mover's devices get the clear push; a push
service that is down when the move is made gets the push once it is back."""

from __future__ import annotations

import time
import uuid

import pytest

from games import services
from games.notifications.models import PushDelivery, PushStatus, SentNotification, Status
from games.notifications.push.keys import application_key
from games.notifications.services import push
from tests.integration.workers import remove_log, start_worker, stop_worker, worker_database_url
from tests.integration.workers import worker_log as read_log
from tests.notifications.push_double import BrowserSubscription, PushServiceDouble

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def push_worker(settings):
    queue = f"c10s-push-{uuid.uuid4().hex[:8]}"
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    proc = start_worker(queue=queue, db_url=worker_database_url())
    yield proc
    stop_worker(proc)
    remove_log(proc)


@pytest.fixture
def double():
    key = application_key()
    assert key is not None
    service = PushServiceDouble(key.public_key)
    yield service
    service.close()
    assert not service.rejected, service.rejected


def _subscribe(user, browser: BrowserSubscription) -> None:
    push.subscribe(user=user, endpoint=browser.endpoint, p256dh=browser.p256dh,
                   auth=browser.auth)


def _move(client, game_id: int, move: str, number: int) -> None:
    answer = client.post(f"/api/v1/games/{game_id}/moves",
                         {"move": move, "expected_move_number": number}, format="json")
    assert answer.status_code == 201, answer.content


def test_a_committed_move_pushes_once_per_device(
    push_worker, double, alice, bob, fixed_seed, make_client
):
    phone, laptop = double.subscribe(), double.subscribe()
    _subscribe(bob, phone)
    _subscribe(bob, laptop)
    alices = double.subscribe()
    _subscribe(alice, alices)
    game = services.create_game(user=alice, opponent={"username": "bob"})
    _move(make_client(alice), game.pk, "g7=5 h7=5", 0)

    received = double.wait_for(2)
    time.sleep(1.5)  # a second push would have come by now
    assert sorted(r.token for r in double.received) == sorted([phone.token, laptop.token]), (
        read_log(push_worker))
    assert {r.payload["type"] for r in received} == {"turn"}
    assert all(r.payload["body"] == "Alice played for 20 points. Your move!" for r in received)
    # The turn email waits (PUSH_EMAIL_DELAY_MINUTES): the push reached a device.
    assert SentNotification.objects.get(kind="turn").status == Status.HELD

    # Bob moves: his devices' notification is cleared, alice's device hears of her turn.
    _move(make_client(bob), game.pk, "pass", 1)
    double.wait_for(5)
    time.sleep(1.5)
    by_token: dict[str, list[str]] = {}
    for r in double.received:
        by_token.setdefault(r.token, []).append(r.payload["type"])
    assert by_token == {phone.token: ["turn", "clear"], laptop.token: ["turn", "clear"],
                        alices.token: ["turn"]}, read_log(push_worker)
    assert set(PushDelivery.objects.values_list("status", flat=True)) == {PushStatus.SENT}


def test_a_push_service_down_at_the_move_gets_the_push_when_it_is_back(
    push_worker, alice, bob, fixed_seed, make_client
):
    key = application_key()
    assert key is not None
    first = PushServiceDouble(key.public_key)
    port = first.server.server_address[1]
    browser = first.subscribe("back-later")
    _subscribe(bob, browser)
    first.close()  # nothing listens on its port now: connections are refused

    game = services.create_game(user=alice, opponent={"username": "bob"})
    _move(make_client(alice), game.pk, "g7=5 h7=5", 0)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        row = PushDelivery.objects.first()
        if row is not None and row.attempts >= 1 and row.status == PushStatus.PENDING:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(read_log(push_worker))

    back = PushServiceDouble(key.public_key, port=port)
    back.subscriptions[browser.token] = browser
    try:
        (received,) = back.wait_for(1, timeout=30)
        assert received.payload["type"] == "turn"
        assert not back.rejected
    finally:
        back.close()
    row = PushDelivery.objects.get()
    assert row.status == PushStatus.SENT and row.attempts >= 2
