"""Pushes through a real Celery worker and the real Redis to the push-service double (VAPID
and decryption checked as a push service does): a committed move ends with exactly one push
per subscribed device, the email waits, the mover's devices get the clear push; a push
service that is down, answers 500/503 or hangs when the move is made gets the push once it is
back; Redis down when the move commits (or dying with its message) loses no push and doubles
none (the outbox sweep, through the fault harness's private redis-server)."""

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
    # The worker records the delivery once the push service has answered: a moment after the
    # double received it.
    deadline = time.monotonic() + 10
    while (row := PushDelivery.objects.get()).status != PushStatus.SENT:
        assert time.monotonic() < deadline, (row.status, read_log(push_worker))
        time.sleep(0.05)
    assert row.attempts >= 2


def test_a_lost_message_is_pushed_once_by_the_outbox_sweep(
    push_worker, double, alice, bob, fixed_seed, make_client, monkeypatch
):
    """Redis refused the move's message (down at that moment): the outbox row is still there,
    the sweep decides it later and the worker pushes it, once."""
    from datetime import timedelta

    from django.utils import timezone

    from games import dispatch
    from games.notifications import services as notifications

    phone = double.subscribe()
    _subscribe(bob, phone)
    game = services.create_game(user=alice, opponent={"username": "bob"})
    real_send = dispatch.send
    monkeypatch.setattr(dispatch, "send", lambda name, *args, **kw: False)  # broker down
    _move(make_client(alice), game.pk, "g7=5 h7=5", 0)
    time.sleep(1.0)
    assert double.received == []
    monkeypatch.setattr(dispatch, "send", real_send)  # back
    later = timezone.now() + notifications.outbox_age() + timedelta(seconds=1)
    assert notifications.sweep_outbox(now=later) >= 1
    assert notifications.sweep_outbox(now=later) == 0
    (received,) = double.wait_for(1)
    time.sleep(1.5)
    assert len(double.received) == 1, read_log(push_worker)
    assert received.token == phone.token and received.payload["type"] == "turn"


@pytest.mark.parametrize("trouble", ["500", "hung"])
def test_a_push_service_failing_at_the_move_pushes_once_when_it_recovers(
    push_worker, double, alice, bob, fixed_seed, make_client, trouble
):
    """The push service answers 500 and 503, or holds the request unanswered past the
    timeout, when the move is made; the worker tries again (backoff) and the device gets the
    push once when it answers."""
    phone = double.subscribe()
    _subscribe(bob, phone)
    if trouble == "500":
        double.answers[phone.token] = [500, 503]
    else:
        double.hang[phone.token] = 30.0  # longer than PUSH_TIMEOUT_SECONDS
    game = services.create_game(user=alice, opponent={"username": "bob"})
    _move(make_client(alice), game.pk, "g7=5 h7=5", 0)

    deadline = time.monotonic() + 30
    while double.attempts.get(phone.token, 0) < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert double.attempts.get(phone.token) == 1, read_log(push_worker)
    double.hang.pop(phone.token, None)  # the service recovers (the held request stays held)
    deadline = time.monotonic() + 60
    while not double.accepted and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.5)  # a second push would have come by now
    (accepted,) = double.accepted
    assert accepted.token == phone.token and accepted.payload["type"] == "turn", (
        read_log(push_worker))
    if trouble == "500":
        assert [r.status for r in double.received] == [500, 503, 201]
    row = PushDelivery.objects.get()
    assert row.status == PushStatus.SENT
    assert row.attempts == (3 if trouble == "500" else 2)


def test_redis_down_at_the_move_loses_no_push_and_doubles_none():
    """The service as production runs it (web, worker and beat: tests/integration/faults.py)
    on a private redis-server. Redis is down when a move commits: its push waits in the
    outbox and is pushed once Redis is back. Then a move's message sits in Redis (no worker
    running) when Redis dies with it: the sweep pushes that one too. Exactly one push per
    subscribed device and event, none twice."""
    from tests.integration.faults import ROOT, Rig

    key = application_key()
    assert key is not None
    service = PushServiceDouble(key.public_key)
    try:
        # The processes inherit the tests' VAPID key and PUSH_ALLOW_PRIVATE_ENDPOINTS (the
        # double is on loopback): tests/django_env.py.
        with Rig(ROOT, worker_database_url()) as rig:
            probe = rig.probe
            table = probe.table()
            first, second = table.to_move, next(t for t in table.tokens if t != table.to_move)
            devices = {first: [service.subscribe()],
                       second: [service.subscribe(), service.subscribe()]}
            for token, browsers in devices.items():
                for browser in browsers:
                    answer = probe.request("POST", "/me/push/subscriptions", token,
                                           json=browser.as_json())
                    assert answer is not None and answer.status_code == 201, answer
            [(second_phone, second_laptop)] = [devices[second]]
            (first_tablet,) = devices[first]

            # 1. Redis is down when the first player moves: the move commits all the same.
            # The worker is paused meanwhile (as in faults.redis_restart): killed Redis under
            # a worker that is acknowledging a task, Celery's Redis transport can stop the
            # worker for good ("Unrecoverable error: AttributeError ... 'hostname'"), which is
            # not what this test is about.
            rig.worker.pause()
            try:
                rig.redis.kill()
                assert probe.pass_turn(table, timeout=10) == 201, rig.logs()
                time.sleep(2)
                assert service.received == []
                rig.redis.start()
            finally:
                rig.worker.resume()
            service.wait_for(2, timeout=90)
            time.sleep(3)  # a second push would have come by now
            assert sorted((r.token, r.payload["type"]) for r in service.received) == sorted(
                [(second_phone.token, "turn"), (second_laptop.token, "turn")]), rig.logs()

            # 2. The second player moves while no worker runs: the message waits in Redis,
            # and Redis dies with it (no persistence). (A stopped worker, not a paused one: a
            # paused worker's pending fetch could already hold the message.)
            rig.worker.stop()
            assert probe.pass_turn(table, timeout=10) == 201, rig.logs()
            rig.redis.kill()
            rig.redis.start()
            rig.worker = rig.start_worker()
            service.wait_for(5, timeout=90)
            time.sleep(3)
            by_token: dict[str, list[str]] = {}
            for r in service.received:
                by_token.setdefault(r.token, []).append(r.payload["type"])
            assert by_token == {
                second_phone.token: ["turn", "clear"], second_laptop.token: ["turn", "clear"],
                first_tablet.token: ["turn"],
            }, rig.logs()
            assert all(r.payload["game"] == table.game_id for r in service.received)
            assert all(r.status == 201 for r in service.received)
    finally:
        service.close()
    assert not service.rejected, service.rejected
