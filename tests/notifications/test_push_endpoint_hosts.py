"""A push endpoint whose public name resolves inside our network (``127.0.0.1.nip.io``) is
refused when a device subscribes, and checked again right before each push: a name that now
points inside gets nothing posted and its subscription is deleted. DNS is the ``dns`` fixture
(no real lookups)."""

from __future__ import annotations

import logging

import pytest

from games.notifications.models import PushDelivery, PushStatus, PushSubscription
from games.notifications.push import delivery, hosts
from games.notifications.services import push
from tests.notifications.test_push_delivery import _process_turn

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/push/subscriptions"
PUBLIC = "93.184.216.34"


@pytest.mark.parametrize(
    "addresses",
    [
        ["127.0.0.1"],  # loopback
        [PUBLIC, "10.1.2.3"],  # one private address among public ones is enough
        ["172.16.0.9"],
        ["192.168.1.1"],
        ["169.254.169.254"],  # link-local: the cloud metadata service
        ["224.0.0.1"],  # multicast
        ["240.0.0.1"],  # reserved
        ["0.0.0.0"],  # unspecified
        ["::1"],
        ["fe80::1%eth0"],  # link-local with a zone
        ["fd00::1"],  # unique local
        ["::ffff:127.0.0.1"],  # IPv4-mapped loopback
        ["::"],
    ],
)
def test_a_name_resolving_inside_is_refused_and_nothing_stored(
    alice_client, push_double, settings, dns, addresses
):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    dns["127.0.0.1.nip.io"] = addresses
    body = {**push_double.subscribe().as_json(), "endpoint": "https://127.0.0.1.nip.io/p/x"}
    answer = alice_client.post(URL, body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "push_endpoint_private"
    assert dns.asked == ["127.0.0.1.nip.io"]
    assert not PushSubscription.objects.exists()


def test_a_name_that_does_not_resolve_is_refused(alice_client, push_double, settings, dns):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    body = {**push_double.subscribe().as_json(), "endpoint": "https://nowhere.example.org/x"}
    answer = alice_client.post(URL, body, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "push_endpoint_invalid" and "resolve" in error["message"]
    assert dns.asked == ["nowhere.example.org"]
    assert not PushSubscription.objects.exists()


def test_private_endpoints_allowed_skips_the_lookup(alice_client, push_double, settings, dns):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = True
    dns["127.0.0.1.nip.io"] = ["127.0.0.1"]
    body = {**push_double.subscribe().as_json(), "endpoint": "https://127.0.0.1.nip.io/p/x"}
    assert alice_client.post(URL, body, format="json").status_code == 201
    assert dns.asked == []


def test_literal_addresses_and_local_names_need_no_lookup(dns):
    assert hosts.is_private("[::1]") and hosts.is_private("printer.local")
    assert hosts.is_private("intranet") and hosts.is_private("10.0.0.1")
    assert not hosts.is_private(PUBLIC)
    assert dns.asked == []


def test_the_real_resolver_answers_addresses_for_a_literal():
    # A literal address resolves without asking DNS, through the same pool and timeout.
    assert hosts.resolve_host("127.0.0.1") == ["127.0.0.1"]


def test_a_hung_lookup_gives_up_after_the_timeout(monkeypatch):
    import threading
    import time

    release = threading.Event()
    monkeypatch.setattr(hosts.socket, "getaddrinfo", lambda *args: release.wait(5) and [])
    monkeypatch.setattr(hosts, "RESOLVE_TIMEOUT_SECONDS", 0.2)
    started = time.monotonic()
    try:
        with pytest.raises(hosts.Unresolvable):
            hosts.resolve_host("slow.example.net")
        assert time.monotonic() - started < 2
    finally:
        release.set()  # the pool's thread ends


def _turn_push_to(endpoint, human_game, alice, bob, play, push_double, queued_pushes,
                  settings, dns):
    """Bob's subscription with a public name (allowed when stored), a turn push claimed."""
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    dns["push.example.net"] = [PUBLIC]
    browser = push_double.subscribe()
    push.subscribe(user=bob, endpoint=endpoint, p256dh=browser.p256dh, auth=browser.auth)
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    (pk,) = queued_pushes
    dns.asked.clear()
    return pk


def test_a_name_now_resolving_inside_gets_nothing_and_is_deleted(
    human_game, alice, bob, play, push_double, queued_pushes, queued_sends, settings, dns,
    monkeypatch, caplog,
):
    endpoint = "https://push.example.net/secret-device-path"
    pk = _turn_push_to(endpoint, human_game, alice, bob, play, push_double, queued_pushes,
                       settings, dns)
    subscription_id = PushSubscription.objects.get().pk
    posted: list[object] = []
    monkeypatch.setattr(delivery, "webpush", lambda **kwargs: posted.append(kwargs))
    dns["push.example.net"] = [PUBLIC, "127.0.0.1"]  # the name moved inside
    with caplog.at_level(logging.INFO, logger=delivery.__name__):
        assert delivery.deliver_push(delivery_id=pk) == PushStatus.FAILED
    assert posted == [] and dns.asked == ["push.example.net"]
    assert not PushSubscription.objects.exists()
    row = PushDelivery.objects.get(pk=pk)
    assert row.status == PushStatus.FAILED and "private" in row.last_error
    assert str(subscription_id) in caplog.text
    assert "secret-device-path" not in caplog.text and "example.net" not in caplog.text
    assert "secret-device-path" not in row.last_error
    # Delivered again (a redelivered task): nothing more happens.
    assert delivery.deliver_push(delivery_id=pk) == PushStatus.FAILED and posted == []


def test_a_name_still_public_is_posted(
    human_game, alice, bob, play, push_double, queued_pushes, queued_sends, settings, dns,
    monkeypatch,
):
    endpoint = "https://push.example.net/device"
    pk = _turn_push_to(endpoint, human_game, alice, bob, play, push_double, queued_pushes,
                       settings, dns)
    posted: list[dict] = []
    monkeypatch.setattr(delivery, "webpush", lambda **kwargs: posted.append(kwargs))
    assert delivery.deliver_push(delivery_id=pk) == PushStatus.SENT
    assert [p["subscription_info"]["endpoint"] for p in posted] == [endpoint]
    assert dns.asked == ["push.example.net"]


def test_a_name_that_stops_resolving_is_tried_again_later(
    human_game, alice, bob, play, push_double, queued_pushes, queued_sends, settings, dns,
    monkeypatch,
):
    pk = _turn_push_to("https://push.example.net/device", human_game, alice, bob, play,
                       push_double, queued_pushes, settings, dns)
    posted: list[object] = []
    monkeypatch.setattr(delivery, "webpush", lambda **kwargs: posted.append(kwargs))
    del dns["push.example.net"]
    with pytest.raises(delivery.PushRetry):
        delivery.deliver_push(delivery_id=pk)
    assert posted == []
    assert PushDelivery.objects.get(pk=pk).status == PushStatus.PENDING
    assert PushSubscription.objects.get().failures == 1
