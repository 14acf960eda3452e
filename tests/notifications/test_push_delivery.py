"""Pushes through the outbox to a push service that checks them as a real one does (VAPID JWT,
aes128gcm decryption with the browser's keys): your turn, the clear push, the email rules
beside push, and what the push service answers (404/410, 429/5xx, a hung service)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.notifications import services, tasks
from games.notifications.models import (
    EventKind,
    NotificationEvent,
    PushDelivery,
    PushKind,
    PushStatus,
    PushSubscription,
    SentNotification,
    Status,
)
from games.notifications.push import delivery
from games.notifications.services import push
from games.notifications.texts import text

pytestmark = pytest.mark.django_db

PUBLIC_KEYS = {"type", "tag", "badge", "lang", "game", "url", "title", "body"}


def _process_turn(move_number: int) -> None:
    event = NotificationEvent.objects.get(kind=EventKind.TURN, move_number=move_number)
    assert services.process_event(event_id=event.pk) is True


def _send(queued: list[int]) -> list[str]:
    done = [delivery.deliver_push(delivery_id=pk) for pk in queued]
    queued.clear()
    return done


def test_your_turn_reaches_each_device_once_in_the_players_language(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends
):
    bob.language = "de"
    bob.save()
    phone, laptop = subscribe_device(bob, push_double), subscribe_device(bob, push_double)
    subscribe_device(alice, push_double)
    play(human_game, alice, "g7=5 h7=5")  # 20 points
    _process_turn(1)
    assert len(queued_pushes) == 2
    assert _send(list(queued_pushes)) == ["sent", "sent"]
    received = push_double.wait_for(2)
    assert {r.token for r in received} == {phone.token, laptop.token}
    for r in received:
        assert set(r.payload) <= PUBLIC_KEYS
        assert r.payload["type"] == "turn" and r.payload["game"] == human_game.pk
        assert r.payload["title"] == text("de", "push_turn_title", game=human_game.pk)
        assert r.payload["body"] == text("de", "push_turn_points", opponent="Alice", points=20)
        assert r.payload["url"] == f"/games/{human_game.pk}"
        assert r.payload["badge"] == 1 and r.payload["lang"] == "de"
        assert (r.ttl, r.urgency, r.topic) == (24 * 3600, "high", f"game-{human_game.pk}")
        assert r.claims["sub"] == "mailto:push-tests@example.com"
        assert r.claims["aud"] == push_double.origin
    # Redelivered messages: the event is decided once, a sent push is never posted again.
    event = NotificationEvent.objects.get(kind=EventKind.TURN)
    assert services.process_event(event_id=event.pk) is False
    assert push.claim(event=f"turn:{human_game.pk}:1", kind=PushKind.TURN, user_id=bob.pk,
                      game_id=human_game.pk, move_number=1) == []
    first = PushDelivery.objects.first()
    assert first is not None
    assert delivery.deliver_push(delivery_id=first.pk) == "sent"
    assert len(push_double.received) == 2
    subscription = PushSubscription.objects.filter(user=bob).first()
    assert subscription is not None and subscription.last_success_at is not None


def test_no_hidden_information_in_any_payload(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends
):
    subscribe_device(bob, push_double)
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    _send(queued_pushes)
    human_game.refresh_from_db()
    rack = "".join(str(t) for t in human_game.state["racks"][1])
    (received,) = push_double.wait_for(1)
    flat = str(received.payload)
    assert "rack" not in flat and "bag" not in flat and rack not in flat


def test_the_email_waits_when_the_turn_was_pushed(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends,
    settings,
):
    settings.PUSH_EMAIL_DELAY_MINUTES = 15
    subscribe_device(bob, push_double)
    before = timezone.now()
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    email = SentNotification.objects.get(kind="turn")
    assert email.status == Status.HELD and queued_sends == []
    assert email.due_at is not None
    assert timedelta(minutes=15) <= email.due_at - before < timedelta(minutes=16)
    # Still waiting then: it goes out (gathered); had bob moved, it would be dropped.
    assert services.flush_held(now=email.due_at + timedelta(seconds=1)) == 1


def test_email_too_sends_both_and_no_subscription_means_email_at_once(
    human_game, alice, bob, carol, play, push_double, subscribe_device, queued_pushes,
    queued_sends, make_game,
):
    push.update_settings(user_id=bob.pk, email_too=True)
    subscribe_device(bob, push_double)
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    assert SentNotification.objects.get(kind="turn").status == Status.PENDING
    assert len(queued_pushes) == 1


def test_a_switched_off_kind_is_not_pushed(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends
):
    push.update_settings(user_id=bob.pk, turn=False)
    subscribe_device(bob, push_double)
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    assert queued_pushes == [] and not PushDelivery.objects.exists()
    assert SentNotification.objects.get(kind="turn").status == Status.PENDING


def test_moving_clears_the_games_notification_on_every_device(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends
):
    phone, laptop = subscribe_device(bob, push_double), subscribe_device(bob, push_double)
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    _send(queued_pushes)
    play(human_game, bob, "pass")  # on any device: the server sees the move
    _process_turn(2)  # alice's turn; bob's shown "your turn" goes
    kinds = sorted(PushDelivery.objects.filter(user=bob).values_list("kind", flat=True))
    assert kinds == ["clear", "clear", "turn", "turn"]
    _send(queued_pushes)
    clears = [r for r in push_double.wait_for(4) if r.payload["type"] == "clear"]
    assert {r.token for r in clears} == {phone.token, laptop.token}
    for r in clears:
        assert r.payload["tag"] == f"game-{human_game.pk}" and "title" not in r.payload
        assert r.payload["badge"] == 0
        assert (r.urgency, r.topic) == ("low", f"game-{human_game.pk}")
    # Nothing more to clear: the next turn event of the game claims no second clear.
    play(human_game, alice, "pass")
    _process_turn(3)
    assert PushDelivery.objects.filter(user=bob, kind="clear").count() == 2


def test_the_result_is_pushed_when_the_game_ends(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends
):
    subscribe_device(alice, push_double)
    game_services.resign(game_id=human_game.pk, user=bob)
    event = NotificationEvent.objects.get(kind=EventKind.FINISHED)
    services.process_event(event_id=event.pk)
    assert _send(queued_pushes) == ["sent"]
    (received,) = push_double.wait_for(1)
    assert received.payload["type"] == "result"
    assert received.payload["title"] == text("en", "push_result_title", game=human_game.pk)
    assert "won" in received.payload["body"]
    assert (received.ttl, received.urgency) == (3 * 24 * 3600, "normal")


def _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device,
                   queued_pushes, token):
    browser = subscribe_device(bob, push_double, token)
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    (pk,) = queued_pushes
    return browser, pk


@pytest.mark.parametrize("code", [404, 410])
def test_an_expired_subscription_is_deleted(
    code, human_game, alice, bob, play, push_double, subscribe_device, queued_pushes,
    queued_sends,
):
    browser, pk = _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device,
                                 queued_pushes, "expired")
    push_double.answers[browser.token] = [code]
    assert delivery.deliver_push(delivery_id=pk) == "gone"
    assert not PushSubscription.objects.exists()
    assert PushDelivery.objects.get(pk=pk).status == PushStatus.GONE


@pytest.mark.parametrize("code", [429, 500, 503])
def test_a_busy_push_service_is_tried_again(
    code, human_game, alice, bob, play, push_double, subscribe_device, queued_pushes,
    queued_sends,
):
    browser, pk = _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device,
                                 queued_pushes, "busy")
    push_double.answers[browser.token] = [code, code]
    with pytest.raises(delivery.PushRetry):
        delivery.deliver_push(delivery_id=pk)
    row = PushDelivery.objects.get(pk=pk)
    assert (row.status, row.attempts) == (PushStatus.PENDING, 1)
    assert str(code) in row.last_error
    # The task retries (eagerly here: every retry at once) until the service takes it.
    assert tasks.send_push.apply(args=[pk]).get() == "sent"
    assert push_double.attempts[browser.token] == 3
    assert PushDelivery.objects.get(pk=pk).status == PushStatus.SENT
    assert PushSubscription.objects.get().failures == 0


def test_the_retry_waits_for_retry_after_and_backs_off(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends,
    monkeypatch,
):
    browser, pk = _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device,
                                 queued_pushes, "slowdown")
    push_double.answers[browser.token] = [429, 429]
    push_double.retry_after[browser.token] = "40"
    countdowns: list[float] = []

    def fake_retry(*args, countdown, exc, **kwargs):
        countdowns.append(countdown)
        return RuntimeError("retry")

    monkeypatch.setattr(tasks.send_push, "retry", fake_retry)
    with pytest.raises(RuntimeError):
        tasks.send_push.run(pk)
    assert countdowns == [40]
    retry_at = PushDelivery.objects.get(pk=pk).retry_at
    assert retry_at is not None
    assert timedelta(seconds=38) < retry_at - timezone.now() <= timedelta(seconds=40)
    del push_double.retry_after[browser.token]
    with pytest.raises(RuntimeError):
        tasks.send_push.run(pk)
    assert countdowns == [40, 2]  # no Retry-After: the backoff (2, 4, 8... s)


def test_retries_used_up_leave_the_push_failed(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends
):
    browser, pk = _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device,
                                 queued_pushes, "down")
    push_double.answers[browser.token] = [500] * 10
    assert tasks.send_push.apply(args=[pk]).get() == "failed"
    assert push_double.attempts[browser.token] == delivery.MAX_PUSH_ATTEMPTS
    assert PushDelivery.objects.get(pk=pk).status == PushStatus.FAILED
    assert PushSubscription.objects.get().failures == delivery.MAX_PUSH_ATTEMPTS


def test_a_hung_push_service_never_holds_the_worker(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends,
    settings,
):
    import time

    settings.PUSH_TIMEOUT_SECONDS = 1
    browser, pk = _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device,
                                 queued_pushes, "hung")
    push_double.hang[browser.token] = 5
    started = time.monotonic()
    with pytest.raises(delivery.PushRetry):
        delivery.deliver_push(delivery_id=pk)
    assert time.monotonic() - started < 3
    assert PushDelivery.objects.get(pk=pk).status == PushStatus.PENDING  # tried again later


def test_a_refused_message_is_not_retried(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends
):
    browser, pk = _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device,
                                 queued_pushes, "toolarge")
    push_double.answers[browser.token] = [413]
    assert delivery.deliver_push(delivery_id=pk) == "failed"
    assert PushDelivery.objects.get(pk=pk).status == PushStatus.FAILED


def test_a_lost_push_task_is_queued_again_by_the_sweep(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends,
    monkeypatch,
):
    _one_turn_push(human_game, alice, bob, play, push_double, subscribe_device, queued_pushes,
                   "lost")
    requeued: list[int] = []
    monkeypatch.setattr("games.dispatch.enqueue_push", lambda pk: requeued.append(pk) or True)
    assert push.requeue_pushes(age=timedelta(seconds=120)) == 0  # fresh: its task may come
    later = timezone.now() + timedelta(seconds=121)
    assert push.requeue_pushes(now=later, age=timedelta(seconds=120)) == 1
    assert requeued == queued_pushes
    # A push waiting for its task's retry (a busy service's Retry-After) is left to it.
    requeued.clear()
    delivery.retry_later(delivery_id=queued_pushes[0], seconds=300)
    assert push.requeue_pushes(now=later, age=timedelta(seconds=120)) == 0
    much_later = timezone.now() + timedelta(seconds=300 + 121)
    assert push.requeue_pushes(now=much_later, age=timedelta(seconds=120)) == 1  # retry lost


def test_without_a_vapid_key_nothing_is_pushed_and_email_goes_on(
    human_game, alice, bob, play, push_double, subscribe_device, queued_pushes, queued_sends,
    settings,
):
    from games.notifications.push import keys

    subscribe_device(bob, push_double)
    settings.VAPID_PRIVATE_KEY = ""
    keys._load.cache_clear()
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    assert queued_pushes == []
    assert SentNotification.objects.get(kind="turn").status == Status.PENDING
