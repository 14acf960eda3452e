"""Changing a password (with the current one) and resetting it by email (a single-use link
valid for an hour); both sign out every other device. Refusals change nothing."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Device, User
from tests.accounts.conftest import SITE, link_token, login
from tests.helpers import PASSWORD, assert_error

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CHANGE = "/api/v1/me/password"
RESET = "/api/v1/auth/password/reset"
CONFIRM = "/api/v1/auth/password/reset/confirm"
ME = "/api/v1/me"
NEW = "another-Secret-9"


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def two_devices(alice, api_client):
    phone = client_with(login(api_client, "alice", device="phone"))
    laptop = client_with(login(api_client, "alice", device="laptop"))
    return phone, laptop


def test_change_needs_the_current_password_and_ends_the_other_devices(two_devices, alice):
    phone, laptop = two_devices
    body = {"current_password": "wrong", "new_password": NEW}
    error = assert_error(phone.post(CHANGE, body, format="json"), 400, "wrong_password")
    assert "password" in error["details"]
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD) and Device.objects.filter(user=alice).count() == 2
    assert laptop.get(ME).status_code == 200

    body = {"current_password": PASSWORD, "new_password": NEW}
    assert phone.post(CHANGE, body, format="json").status_code == 204
    assert phone.get(ME).status_code == 200  # this device stays signed in
    assert_error(laptop.get(ME), 401, "authentication_failed")
    assert [d.name for d in Device.objects.filter(user=alice)] == ["phone"]
    assert_error(APIClient().post("/api/v1/auth/token", {"username": "alice",
                 "password": PASSWORD}, format="json"), 401, "invalid_credentials")
    login(APIClient(), "alice", NEW)


@pytest.mark.parametrize("new,code", [
    ("password", "weak_password"),  # too common
    ("alice-example", "weak_password"),  # too like the name/email
    ("short", "invalid"),  # shorter than the schema's minimum
    ("12345678901", "invalid"),  # all digits
])
def test_a_weak_new_password_is_refused_and_changes_nothing(alice, alice_client, new, code):
    body = {"current_password": PASSWORD, "new_password": new}
    assert_error(alice_client.post(CHANGE, body, format="json"), 400, code)
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_session_change_keeps_that_session_and_ends_the_others(alice, client):
    other = APIClient()
    other.force_login(alice)
    client.force_login(alice)
    body = {"current_password": PASSWORD, "new_password": NEW}
    response = client.post(CHANGE, body, content_type="application/json")
    assert response.status_code == 204, response.content
    assert client.get(ME).status_code == 200
    assert other.get(ME).status_code in (401, 403)


def _reset(client, email):
    return client.post(RESET, {"email": email}, format="json")


def test_reset_answers_the_same_for_known_and_unknown_addresses(api_client, alice, inbox):
    known = _reset(api_client, "alice@example.test")
    unknown = _reset(api_client, "nobody@example.test")
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    assert known.headers.get("Content-Language") == unknown.headers.get("Content-Language")
    [mail] = inbox.wait_for("account-reset_password:")
    assert mail.to == ["alice@example.test"]
    assert inbox.messages == [mail]  # nothing went to the unknown address


def test_reset_link_sets_a_new_password_once_and_signs_out_everywhere(
    api_client, two_devices, alice, inbox
):
    phone, laptop = two_devices
    _reset(api_client, "ALICE@example.test")  # any case
    [mail] = inbox.wait_for("account-reset_password:")
    assert f"{SITE}/account/reset-password?token=" in mail.part("text/plain")
    token = link_token(mail, "/account/reset-password")

    weak = {"token": token, "new_password": "password"}
    assert_error(api_client.post(CONFIRM, weak, format="json"), 400, "weak_password")
    assert phone.get(ME).status_code == 200  # the refusal changed nothing

    body = {"token": token, "new_password": NEW}
    assert api_client.post(CONFIRM, body, format="json").status_code == 204
    assert_error(phone.get(ME), 401, "authentication_failed")
    assert_error(laptop.get(ME), 401, "authentication_failed")
    assert not Device.objects.filter(user=alice).exists()
    key = login(APIClient(), "alice", NEW)

    again = {"token": token, "new_password": "yet-another-Pass-3"}
    assert_error(api_client.post(CONFIRM, again, format="json"), 400, "link_used")
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert client_with(key).get(ME).status_code == 200


def test_an_expired_or_tampered_reset_link_changes_nothing(api_client, alice, inbox):
    _reset(api_client, "alice@example.test")
    token = link_token(inbox.wait_for("account-reset_password:")[0], "/account/reset-password")
    body = {"token": token, "new_password": NEW}
    with time_machine.travel(timezone.now() + timedelta(minutes=61)):
        assert_error(api_client.post(CONFIRM, body, format="json"), 400, "link_expired")
    tampered = {"token": token[:-3] + "abc", "new_password": NEW}
    assert_error(api_client.post(CONFIRM, tampered, format="json"), 400, "link_invalid")
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_a_newer_password_makes_an_older_reset_link_used(api_client, alice, alice_client, inbox):
    _reset(api_client, "alice@example.test")
    token = link_token(inbox.wait_for("account-reset_password:")[0], "/account/reset-password")
    change = {"current_password": PASSWORD, "new_password": NEW}
    assert alice_client.post(CHANGE, change, format="json").status_code == 204
    body = {"token": token, "new_password": "yet-another-Pass-3"}
    assert_error(api_client.post(CONFIRM, body, format="json"), 400, "link_used")
    assert User.objects.get(pk=alice.pk).check_password(NEW)


def test_reset_requests_are_throttled_per_address_asked_for(api_client, alice, inbox):
    for _ in range(3):
        assert _reset(api_client, "alice@example.test").status_code == 202
    assert_error(_reset(api_client, "alice@example.test"), 429, "throttled")
    # An unknown address is throttled the same way (the answer must not differ).
    for _ in range(3):
        assert _reset(api_client, "ghost@example.test").status_code == 202
    assert_error(_reset(api_client, "ghost@example.test"), 429, "throttled")


def test_patch_me_refuses_a_password(alice, alice_client):
    error = assert_error(alice_client.patch(ME, {"password": NEW, "display_name": "X"},
                                            format="json"), 400, "password_not_here")
    assert "password" in error["details"]
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD) and alice.display_name == "Alice"
