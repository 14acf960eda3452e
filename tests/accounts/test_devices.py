"""Devices: one token per sign-in, named after the client; listed with their last use; revoked
one by one or all at once; logout ends only the current one; 90 idle days expire a token."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import Device
from tests.accounts.conftest import login
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db

DEVICES = "/api/v1/me/devices"
ME = "/api/v1/me"
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_each_sign_in_is_a_device_named_after_its_client(alice):
    phone = client_with(login(APIClient(), "alice", device="Pixel 8"))
    browser = APIClient(HTTP_USER_AGENT=FIREFOX)
    laptop = client_with(login(browser, "alice"))
    cli = client_with(login(APIClient(HTTP_USER_AGENT="curl/8.5.0"), "alice"))

    listed = phone.get(DEVICES).json()
    assert [d["name"] for d in listed] == ["curl/8.5.0", "Firefox/128.0", "Pixel 8"]
    assert [d["current"] for d in listed] == [False, False, True]
    assert set(listed[0]) == {"id", "name", "created", "last_used", "expires", "current"}
    assert all(d["last_used"] for d in listed)
    for client in (phone, laptop, cli):
        assert client.get(ME).status_code == 200


def test_keys_are_stored_as_digests_only(alice):
    key = login(APIClient(), "alice")
    device = Device.objects.get(user=alice)
    assert key not in {device.digest, device.token_key} and device.digest == tokens.digest_of(key)


def test_logout_ends_only_the_current_device(alice):
    phone = client_with(login(APIClient(), "alice", device="phone"))
    laptop = client_with(login(APIClient(), "alice", device="laptop"))
    assert phone.post("/api/v1/auth/logout").status_code == 204
    assert_error(phone.get(ME), 401, "authentication_failed")
    assert laptop.get(ME).status_code == 200
    assert [d["name"] for d in laptop.get(DEVICES).json()] == ["laptop"]


def test_revoke_one_device(alice, bob):
    phone = client_with(login(APIClient(), "alice", device="phone"))
    laptop = client_with(login(APIClient(), "alice", device="laptop"))
    bobs = client_with(login(APIClient(), "bob"))
    laptop_id = next(d["id"] for d in phone.get(DEVICES).json() if d["name"] == "laptop")
    bobs_id = Device.objects.get(user=bob).pk

    # Someone else's device, or none: 404 and nothing revoked.
    assert_error(phone.delete(f"{DEVICES}/{bobs_id}"), 404, "device_not_found")
    assert_error(phone.delete(f"{DEVICES}/999999"), 404, "device_not_found")
    assert bobs.get(ME).status_code == 200 and laptop.get(ME).status_code == 200

    assert phone.delete(f"{DEVICES}/{laptop_id}").status_code == 204
    assert_error(laptop.get(ME), 401, "authentication_failed")
    assert phone.get(ME).status_code == 200
    assert_error(phone.delete(f"{DEVICES}/{laptop_id}"), 404, "device_not_found")


def test_revoke_all_devices(alice, bob):
    phone = client_with(login(APIClient(), "alice", device="phone"))
    laptop = client_with(login(APIClient(), "alice", device="laptop"))
    bobs = client_with(login(APIClient(), "bob"))
    assert phone.delete(DEVICES).json() == {"revoked": 2}
    assert_error(phone.get(ME), 401, "authentication_failed")
    assert_error(laptop.get(ME), 401, "authentication_failed")
    assert bobs.get(ME).status_code == 200


def test_a_token_unused_for_90_days_expires_and_use_keeps_it(alice):
    now = timezone.now()
    used = client_with(login(APIClient(), "alice", device="used"))
    idle = client_with(login(APIClient(), "alice", device="idle"))
    with time_machine.travel(now + timedelta(days=80)):
        assert used.get(ME).status_code == 200
        listed = {d["name"]: d for d in used.get(DEVICES).json()}
        assert listed["used"]["last_used"] > listed["idle"]["last_used"]
    with time_machine.travel(now + timedelta(days=91)):
        assert_error(idle.get(ME), 401, "authentication_failed")
        assert used.get(ME).status_code == 200  # 11 days since its last use
        assert [d["name"] for d in used.get(DEVICES).json()] == ["used"]
    with time_machine.travel(now + timedelta(days=91 + 91, hours=1)):  # 90 days after that
        assert_error(used.get(ME), 401, "authentication_failed")


def test_the_sweep_deletes_expired_devices(alice):
    from accounts.services import purge_expired_devices

    login(APIClient(), "alice")
    assert purge_expired_devices() == 0
    assert purge_expired_devices(now=timezone.now() + timedelta(days=91)) == 1
    assert not Device.objects.filter(user=alice).exists()


def test_last_use_is_written_at_most_once_a_minute(alice, django_assert_num_queries):
    client = client_with(login(APIClient(), "alice"))
    with django_assert_num_queries(1):  # the token (with its user), nothing written
        client.get("/api/v1/games/computer-levels")
    with time_machine.travel(timezone.now() + timedelta(minutes=2)):
        with django_assert_num_queries(2):  # and the one write of the last use
            client.get("/api/v1/games/computer-levels")


def test_a_key_is_checked_whole_not_by_its_stored_prefix(alice):
    """The devices of a key are read by a compiled statement (accounts.tokens): the key's
    prefix finds the device, the whole key's digest must still match."""
    key = login(APIClient(), "alice")
    assert client_with(key).get(ME).status_code == 200
    forged = key[:-4] + ("aaaa" if not key.endswith("aaaa") else "bbbb")
    assert_error(client_with(forged).get(ME), 401, "authentication_failed")
    assert_error(client_with("x" * len(key)).get(ME), 401, "authentication_failed")
    assert client_with(key).get(ME).status_code == 200
