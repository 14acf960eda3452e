"""The installable app's server side: the manifest, the service worker at the root scope (its
version follows the app shell), the offline page in every language, the push switches in the
settings beside the email ones."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders

from games.notifications.models import PushSettings
from web.views import app

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_icons_and_the_readers_language(client, alice):
    alice.language = "de"
    alice.save()
    client.force_login(alice)
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    body = json.loads(answer.content)
    assert (body["start_url"], body["scope"], body["display"]) == ("/", "/", "standalone")
    assert body["lang"] == "de" and body["short_name"] == "Crazy10s"
    assert body["theme_color"] == "#1f2d3d" and body["background_color"] == "#f7f5ef"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in body["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in body["icons"]:
        path = icon["src"].removeprefix("/static/")
        found = finders.find(path)
        assert found, icon["src"]
        with open(found, "rb") as png:
            header = png.read(24)
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(header[16:20], "big")
        assert f"{width}x{width}" == icon["sizes"]


def test_every_page_links_the_manifest_and_loads_the_worker_script(client, alice):
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "web/push.js" in page and 'data-signed-in="1"' in page


def test_the_worker_is_served_at_the_root_scope_with_its_version(client, monkeypatch):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"]
    text = answer.content.decode()
    version = app.worker_version()
    assert f'const VERSION = "{version}";' in text
    for url in app.shell_urls():
        assert f'"{url}"' in text
    assert '"/offline/pt-br"' in text
    # A deploy that changes the shell (a static file's hashed name) is a new worker.
    monkeypatch.setattr(app, "SHELL_STATIC", (*app.SHELL_STATIC, "web/social.js"))
    assert app.worker_version() != version
    assert version not in client.get("/sw.js").content.decode()


@pytest.mark.parametrize(("language", "title"), [
    ("en", "You are offline"), ("de", "Du bist offline"), ("fr", "Vous êtes hors ligne"),
    ("pt-br", "Você está offline"),
])
def test_the_offline_page_in_every_language(client, language, title):
    answer = client.get(f"/offline/{language}")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert f'<html lang="{language}">' in page and title in page
    assert "csrf" not in page  # cached for anyone on the device: nothing of a session


def test_the_settings_save_the_push_switches_beside_the_email_ones(client, alice):
    client.force_login(alice)
    page = client.get("/settings").content.decode()
    assert 'name="push_turn" checked' in page and 'id="push-enable"' in page
    answer = client.post("/settings", {
        "display_name": "Alice", "email": alice.email, "language": "en",
        "turn_emails": "each", "result_emails": "on",
        "push_turn": "on", "push_result": "on", "push_email_too": "on",
    })
    assert answer.status_code == 302
    row = PushSettings.objects.get(user=alice)
    assert (row.turn, row.result, row.email_too, row.chat, row.nudge) == (
        True, True, True, False, False)
    # A refused form changes no push switch either.
    refused = client.post("/settings", {"display_name": "Alice", "email": "not-an-address",
                                        "language": "en", "turn_emails": "each"})
    assert refused.status_code == 400
    assert PushSettings.objects.get(user=alice).turn is True
