"""Migration accounts 0006: the DRF-era tokens keep working as devices (same
``Authorization: Token <key>``), their plain keys leave the database, and accounts that existed
with an address count as verified."""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import Device, User
from tests.migrations.helpers import apps_at, latest, migrate

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BEFORE = [("accounts", "0005_unique_username_skeleton_email")]


def test_old_tokens_become_devices_and_old_addresses_count_as_verified():
    migrate(BEFORE)
    try:
        state = [*BEFORE, ("authtoken", "0004_alter_tokenproxy_options")]
        old = apps_at(state)
        OldUser, OldToken = old.get_model("accounts", "User"), old.get_model("authtoken", "Token")
        with_email = OldUser.objects.create(
            username="old", username_canonical="old", username_skeleton="old",
            email="old@example.test", email_canonical="old@example.test", password="!",
            unsubscribe_key="k1",
        )
        without = OldUser.objects.create(
            username="quiet", username_canonical="quiet", username_skeleton="quiet",
            email="", password="!", unsubscribe_key="k2",
        )
        key = OldToken.objects.create(key="0123456789abcdef0123456789abcdef01234567",
                                      user=with_email).key
    finally:
        migrate(latest())

    [device] = Device.objects.all()
    assert device.user_id == with_email.pk and device.expiry is not None
    assert device.digest == hashlib.sha512(key.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone() == (0,)  # no plain-text key left
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    me = client.get("/api/v1/me")
    assert me.status_code == 200 and me.json()["username"] == "old"
    assert me.json()["email_verified"] is True
    assert User.objects.get(pk=without.pk).email_verified is False
    devices = client.get("/api/v1/me/devices").json()
    assert [(d["name"], d["current"]) for d in devices] == [("sign-in before devices", True)]
