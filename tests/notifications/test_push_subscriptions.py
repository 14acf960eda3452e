"""Push subscriptions through the API: stored per device, validated (nothing stored on a bad
body), listed without keys, deleted with the sign-in; the per-kind switches."""

from __future__ import annotations

import pytest
from django.test import Client

from games.notifications.models import PushSettings, PushSubscription
from games.notifications.push.keys import application_key

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/push/subscriptions"


def test_a_device_subscribes_lists_and_unsubscribes(alice_client, alice, push_double):
    browser = push_double.subscribe()
    answer = alice_client.post(URL, browser.as_json(), format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["endpoint_host"] == "127.0.0.1" and body["failures"] == 0
    row = PushSubscription.objects.get()
    assert (row.user, row.endpoint, row.p256dh, row.auth) == (
        alice, browser.endpoint, browser.p256dh, browser.auth)
    assert row.device is not None  # tied to the token's sign-in

    again = alice_client.post(URL, browser.as_json(), format="json")
    assert again.status_code == 200 and PushSubscription.objects.count() == 1

    listed = alice_client.get(URL).json()
    assert [s["id"] for s in listed] == [body["id"]]
    assert not {"endpoint", "p256dh", "auth", "keys"} & set(listed[0])  # no keys, no URL

    assert alice_client.delete(f"{URL}/{body['id']}").status_code == 204
    assert not PushSubscription.objects.exists()
    missing = alice_client.delete(f"{URL}/{body['id']}")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "push_subscription_not_found"


def test_someone_else_s_subscription_cannot_be_deleted(
    alice_client, bob, push_double, subscribe_device
):
    subscribe_device(bob, push_double)
    row = PushSubscription.objects.get()
    assert alice_client.delete(f"{URL}/{row.pk}").status_code == 404
    assert PushSubscription.objects.filter(pk=row.pk).exists()


def _with(body, **changes):
    body = {**body, "keys": dict(body["keys"])}
    for name, value in changes.items():
        if name in ("p256dh", "auth"):
            body["keys"][name] = value
        elif value is None:
            body.pop(name)
        else:
            body[name] = value
    return body


@pytest.mark.parametrize(
    ("changes", "private_allowed", "code"),
    [
        ({"keys": None}, True, "invalid"),
        ({"endpoint": None}, True, "invalid"),
        ({"p256dh": "AAAA"}, True, "push_key_invalid"),
        ({"p256dh": "B" * 87}, True, "push_key_invalid"),  # 65 bytes, not a curve point
        ({"auth": "c2hvcnQ"}, True, "push_auth_invalid"),
        ({"auth": "x" * 41}, True, "invalid"),  # oversize
        ({"endpoint": "https://push.example.com/" + "a" * 1000}, True, "invalid"),
        ({"endpoint": "ftp://push.example.com/x"}, True, "push_endpoint_insecure"),
        ({"endpoint": "http://push.example.com/x"}, False, "push_endpoint_insecure"),
        ({"endpoint": "https://127.0.0.1/x"}, False, "push_endpoint_private"),
        ({"endpoint": "https://[::1]/x"}, False, "push_endpoint_private"),
        ({"endpoint": "https://10.1.2.3/x"}, False, "push_endpoint_private"),
        ({"endpoint": "https://192.168.0.9:8443/x"}, False, "push_endpoint_private"),
        ({"endpoint": "https://localhost/x"}, False, "push_endpoint_private"),
        ({"endpoint": "https://user:pw@push.example.com/x"}, True, "push_endpoint_invalid"),
    ],
)
def test_a_bad_subscription_is_refused_and_stores_nothing(
    alice_client, push_double, settings, changes, private_allowed, code
):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = private_allowed
    body = _with(push_double.subscribe().as_json(), **changes)
    answer = alice_client.post(URL, body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == code
    assert not PushSubscription.objects.exists()


def test_a_public_https_endpoint_is_taken_in_production(
    alice_client, push_double, settings, dns
):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    dns["fcm.googleapis.com"] = ["142.250.185.74", "2a00:1450:4001:82b::200a"]
    body = _with(push_double.subscribe().as_json(),
                 endpoint="https://fcm.googleapis.com/fcm/send/abc")
    assert alice_client.post(URL, body, format="json").status_code == 201
    assert dns.asked == ["fcm.googleapis.com"]


def test_signing_out_deletes_the_devices_subscription(
    alice, alice_client, make_client, push_double
):
    other = make_client(alice)
    alice_client.post(URL, push_double.subscribe().as_json(), format="json")
    other.post(URL, push_double.subscribe().as_json(), format="json")
    assert PushSubscription.objects.count() == 2
    assert alice_client.post("/api/v1/auth/logout").status_code == 204
    assert PushSubscription.objects.count() == 1  # only the other device's

    # Revoking the other device deletes its subscription too.
    device_id = PushSubscription.objects.get().device_id
    me = make_client(alice)
    assert me.delete(f"/api/v1/me/devices/{device_id}").status_code == 204
    assert not PushSubscription.objects.exists()


def test_signing_out_of_the_web_session_deletes_its_subscription(alice, push_double):
    browser = Client()
    browser.force_login(alice)
    answer = browser.post(URL, push_double.subscribe().as_json(),
                          content_type="application/json")
    assert answer.status_code == 201, answer.content
    row = PushSubscription.objects.get()
    assert row.session_key and row.device_id is None
    browser.post("/signout")
    assert not PushSubscription.objects.exists()


def test_push_settings_are_read_and_switched(alice_client, alice):
    body = alice_client.get("/api/v1/me/push").json()
    key = application_key()
    assert key is not None and body["public_key"] == key.public_key
    assert body["turn"] is body["chat"] is True and body["email_too"] is False
    changed = alice_client.patch("/api/v1/me/push", {"chat": False, "email_too": True},
                                 format="json")
    assert changed.status_code == 200
    assert changed.json()["chat"] is False and changed.json()["turn"] is True
    row = PushSettings.objects.get(user=alice)
    assert (row.chat, row.email_too, row.turn) == (False, True, True)
    bad = alice_client.patch("/api/v1/me/push", {"chat": "maybe"}, format="json")
    assert bad.status_code == 400
    assert PushSettings.objects.get(user=alice).chat is False


def test_deleting_the_account_deletes_its_subscriptions(alice, bob, push_double,
                                                        subscribe_device):
    from accounts import services as accounts
    from tests.helpers import PASSWORD

    subscribe_device(alice, push_double)
    subscribe_device(bob, push_double)
    accounts.delete_account(user_id=alice.pk, password=PASSWORD)
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_browser_taken_over_by_another_person_drops_the_previous_person_s_pushes(
    alice, bob, human_game, push_double
):
    """Bob signs in on the browser alice used: a push still waiting for alice's turn must not
    appear on bob's screen."""
    from games.notifications.models import PushDelivery, PushKind, PushStatus
    from games.notifications.services import push
    from tests.notifications.push_double import BrowserSubscription

    browser = BrowserSubscription(push_double)
    endpoint = browser.endpoint
    mine, _created = push.subscribe(user=alice, endpoint=endpoint, p256dh=browser.p256dh,
                                    auth=browser.auth)
    waiting = push.claim(event=f"turn:{human_game.pk}:2", kind=PushKind.TURN, user_id=alice.pk,
                         game_id=human_game.pk, move_number=2)
    assert [d.subscription_id for d in waiting] == [mine.pk]
    push.subscribe(user=bob, endpoint=endpoint, p256dh=browser.p256dh, auth=browser.auth)
    statuses = set(PushDelivery.objects.filter(subscription=mine).values_list("status", flat=True))
    assert statuses == {PushStatus.GONE}
    assert PushSubscription.objects.get(pk=mine.pk).user_id == bob.pk
