"""The VAPID key: from the environment (raw, DER or PEM) or the file `make run` writes, its
public key derived; without one (or with a broken one) push is off, logged, and email goes on."""

from __future__ import annotations

import io
import logging

import pytest
from cryptography.hazmat.primitives import serialization
from django.core.management import call_command

from games.notifications.push import keys


@pytest.fixture(autouse=True)
def _fresh_cache():
    keys._load.cache_clear()
    yield
    keys._load.cache_clear()


def test_every_spelling_of_a_key_gives_the_same_public_key(settings):
    raw = keys.new_private_key()
    private = keys.parse_private_key(raw)
    der = keys.b64url(private.private_bytes(serialization.Encoding.DER,
                                            serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = keys.public_key_of(private)
    assert len(keys.b64url_decode(public)) == 65 and keys.b64url_decode(public)[0] == 4
    for spelling in (raw, der, pem):
        settings.VAPID_PRIVATE_KEY = spelling
        key = keys.application_key()
        assert key is not None and key.public_key == public


def test_the_key_file_of_make_run(settings, tmp_path):
    out = io.StringIO()
    call_command("vapid_key", stdout=out, stderr=io.StringIO())
    path = tmp_path / "vapid-private-key.txt"
    path.write_text(out.getvalue())
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_PRIVATE_KEY_FILE = str(path)
    key = keys.application_key()
    assert key is not None
    assert key.public_key == keys.public_key_of(keys.parse_private_key(out.getvalue()))
    public = io.StringIO()
    call_command("vapid_key", "--public", stdout=public)
    assert public.getvalue().strip() == key.public_key


@pytest.mark.parametrize("value", ["", "not-a-key", keys.b64url(b"\x01" * 31)])
def test_no_usable_key_turns_push_off_with_a_clear_log_line(settings, caplog, value):
    settings.VAPID_PRIVATE_KEY = value
    settings.VAPID_PRIVATE_KEY_FILE = ""
    with caplog.at_level(logging.ERROR, logger="games.notifications.push.keys"):
        assert keys.application_key() is None
    assert "web push is off" in caplog.text
