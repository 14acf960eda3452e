"""The installable app in Chromium: the service worker registers and controls the page after a
reload, the manifest parses with its icons, the offline page shows (in the player's language)
with the network cut, the one-time offer of notifications follows the first move, and a push
delivered to the worker through the DevTools protocol (ServiceWorker.deliverPushMessage, the
payload the server builds for this player) shows the game's notification in the player's
language and sets the app badge, and the clear push removes the notification.

The click on a notification is a real one: Chromium shows the notification through a desktop
notification server on a private D-Bus (tests/browser/notification_daemon.py), the test clicks
it there, and the service worker's own notificationclick handler focuses the game's open tab or
opens the game (a synthetic event is no substitute: Chromium refuses clients.openWindow and
focus outside a real click).

Headless Chromium has no push service (``pushManager.subscribe`` cannot reach one), so the push
arrives through the DevTools protocol; the encryption and VAPID parts are tested against the
push-service double in tests/notifications. It fires no ``beforeinstallprompt`` either: the
screenshot of the install entry shows it as the page shows it when the browser offers it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from accounts.models import User
from games import services as game_services
from games.notifications import services as notifications
from games.notifications.models import (
    EventKind,
    NotificationEvent,
    PushDelivery,
    PushKind,
    PushSubscription,
)
from games.notifications.push import messages
from games.notifications.services import push
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS, sign_up
from tests.browser.helpers import start_playable_game, tap_move
from tests.browser.notification_daemon import NotificationDaemon
from tests.notifications.push_double import b64url

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]

CONTROLLED = "() => navigator.serviceWorker.controller !== null"
STORED_LANGUAGE = """async () => {
    for (const name of await caches.keys()) {
        const hit = await (await caches.open(name)).match("/__c10s/language");
        if (hit) return await hit.text();
    }
    return null;
}"""
NOTIFICATIONS = """async () => {
    const reg = await navigator.serviceWorker.ready;
    return (await reg.getNotifications()).map(n => ({title: n.title, body: n.body, tag: n.tag,
                                                     url: n.data && n.data.url}));
}"""


def _browser_keys() -> tuple[str, str]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(point), b64url(b"0123456789abcdef")


def _wait(page, script: str, expect, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while True:
        value = page.evaluate(script)
        if expect(value) or time.monotonic() > end:
            return value
        time.sleep(0.2)


def test_installable_app_offline_page_and_notifications(
    browser, stack, transactional_db, user_factory, shot, monkeypatch
):
    monkeypatch.setattr(push, "_enqueue", lambda delivery_id: None)  # the CDP delivers here
    context = browser.new_context(base_url=stack, viewport=VIEWPORTS["phone"], locale="en-GB",
                                  extra_http_headers={"Accept-Language": "en"})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.viewport_name = "phone"
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    cdp = context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    try:
        name = sign_up(page)
        user = User.objects.get(username=name)

        # The worker registers; after a reload it controls the page.
        page.goto("/")
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.reload()
        page.wait_for_function(CONTROLLED)
        scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
        assert scope == f"{stack}/"

        # The manifest parses, with its icons.
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{stack}/manifest.webmanifest"
        assert not manifest["errors"], manifest["errors"]
        parsed = json.loads(manifest["data"])
        assert parsed["display"] == "standalone" and parsed["start_url"] == "/"
        for icon in parsed["icons"]:
            status = page.evaluate("async src => (await fetch(src)).status", icon["src"])
            assert status == 200, icon

        # The one-time offer after the first move (permission is asked only on a click).
        game_id, _number, move = start_playable_game(page)
        tap_move(page, move)
        page.get_by_role("button", name="Play", exact=True).click()
        offer = page.locator("#push-offer")
        offer.wait_for(state="visible")
        page.locator(".board .c.staged").first.wait_for(state="detached")  # the move is in
        shot(page, "push-offer")
        page.get_by_role("button", name="Not now").click()
        offer.wait_for(state="hidden")

        # Settings: the switches beside the email ones, this device's button, the install entry
        # (as shown when the browser offers it: headless Chromium never does).
        page.goto("/settings")
        page.locator("#push-enable").wait_for(state="visible")
        page.evaluate("document.getElementById('install-app').hidden = false")
        shot(page, "push-settings")

        # The player reads German: the pages tell the worker, and the offline page follows.
        User.objects.filter(pk=user.pk).update(language="de")
        page.goto("/")
        page.wait_for_function("document.documentElement.lang === 'de'")
        assert _wait(page, STORED_LANGUAGE, lambda code: code == "de") == "de"
        context.set_offline(True)
        page.goto("/games/new")
        assert page.locator("#offline-title").inner_text() == "Du bist offline"
        shot(page, "offline")
        context.set_offline(False)
        page.goto(f"/games/{game_id}")  # a game page: from the network again, never cached
        page.locator("#game-panel").wait_for()

        # A push of the server's own payload for this player (German) shows a notification.
        context.grant_permissions(["notifications"], origin=stack)
        # The settings' button asks the browser to subscribe: headless Chromium has no push
        # service, and the page says so (nothing is stored, no script error).
        page.goto("/settings")
        page.locator("#push-enable").click()
        page.wait_for_function(
            "document.getElementById('push-status').textContent.includes('Push-Dienst')")
        assert not PushSubscription.objects.filter(user__username=name).exists()
        bob = user_factory("pushbob", display_name="Bob")
        monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240602)
        game = game_services.create_game(user=bob, opponent={"username": name})
        assert game.current_seat == 0  # this seed: the first seat (bob) moves first
        game_services.submit_move(game_id=game.pk, user=bob, move="pass",
                                  expected_move_number=0)
        p256dh, auth = _browser_keys()
        push.subscribe(user=User.objects.get(pk=user.pk),
                       endpoint="https://push.example.com/send/browser-test",
                       p256dh=p256dh, auth=auth)
        event = NotificationEvent.objects.get(kind=EventKind.TURN, game=game)
        assert notifications.process_event(event_id=event.pk)
        delivery = PushDelivery.objects.get(game=game, kind=PushKind.TURN)
        payload = messages.build(delivery).payload
        # The badge: the worker's calls of the Badging API are recorded (headless Chromium
        # shows no badge to look at).
        (worker,) = [w for w in context.service_workers if w.url == f"{stack}/sw.js"]
        worker.evaluate("""() => {
            self.__badges = [];
            const record = (value) => { self.__badges.push(value); return Promise.resolve(); };
            Object.defineProperty(WorkerNavigator.prototype, "setAppBadge",
                                  {value: record, configurable: true});
            Object.defineProperty(WorkerNavigator.prototype, "clearAppBadge",
                                  {value: () => record(0), configurable: true});
        }""")
        registration_id = next(r["registrationId"] for r in registrations
                               if r["scopeURL"] == f"{stack}/" and not r["isDeleted"])
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": stack, "registrationId": registration_id, "data": json.dumps(payload)})
        shown = _wait(page, NOTIFICATIONS, lambda n: len(n) == 1)
        assert shown == [{"title": f"Du bist am Zug in Partie #{game.pk}",
                          "body": "Bob hat gezogen. Du bist dran!",
                          "tag": f"game-{game.pk}", "url": f"/games/{game.pk}"}]
        assert payload["badge"] >= 1  # this game waits for the player (and maybe the first)
        assert worker.evaluate("() => self.__badges") == [payload["badge"]]

        # The player moved elsewhere: the clear push takes the notification away.
        clear = {"type": "clear", "tag": f"game-{game.pk}", "game": game.pk, "badge": 0}
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": stack, "registrationId": registration_id, "data": json.dumps(clear)})
        assert _wait(page, NOTIFICATIONS, lambda n: n == []) == []
        assert worker.evaluate("() => self.__badges") == [payload["badge"], 0]
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


HAS_FOCUS = "() => document.hasFocus()"
FOCUS_SPY = """() => {
    self.__focused = [];
    const focus = WindowClient.prototype.focus;
    WindowClient.prototype.focus = async function () {
        try {
            const client = await focus.call(this);
            self.__focused.push({url: client.url, focused: client.focused});
            return client;
        } catch (error) {
            self.__focused.push({url: this.url, error: String(error)});
            throw error;
        }
    };
}"""


def _turn_payload(player: User, user_factory, monkeypatch) -> tuple[int, dict]:
    """A game in which bob (created here) has moved and it is ``player``'s turn, and the push
    payload the server builds for that turn."""
    bob = user_factory("clickbob", display_name="Bob")
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240602)
    game = game_services.create_game(user=bob, opponent={"username": player.username})
    assert game.current_seat == 0  # this seed: the first seat (bob) moves first
    game_services.submit_move(game_id=game.pk, user=bob, move="pass", expected_move_number=0)
    p256dh, auth = _browser_keys()
    push.subscribe(user=player, endpoint="https://push.example.com/send/click-test",
                   p256dh=p256dh, auth=auth)
    event = NotificationEvent.objects.get(kind=EventKind.TURN, game=game)
    assert notifications.process_event(event_id=event.pk)
    delivery = PushDelivery.objects.get(game=game, kind=PushKind.TURN)
    return game.pk, messages.build(delivery).payload


def test_clicking_a_notification_opens_the_game_or_focuses_its_tab(
    browser, stack, transactional_db, user_factory, monkeypatch, tmp_path: Path, request
):
    """A real click (through the desktop's notification server): with no tab of the game open,
    the game opens in a new tab; with one open behind another tab, that tab gets the focus and
    nothing new opens."""
    monkeypatch.setattr(push, "_enqueue", lambda delivery_id: None)  # the CDP delivers here
    daemon = NotificationDaemon()
    request.addfinalizer(daemon.close)  # after the context's close below
    # The browser's regular profile: Chromium routes a click only to its notifications.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": daemon.address}, base_url=stack,
        viewport=VIEWPORTS["desktop"], locale="en-GB",
        extra_http_headers={"Accept-Language": "en"},
    )
    context.set_default_timeout(15_000)
    errors: list[str] = []
    opened: list = []
    context.on("page", lambda new: opened.append(new))
    try:
        home = context.pages[0] if context.pages else context.new_page()
        home.on("pageerror", lambda exc: errors.append(str(exc)))
        cdp = context.new_cdp_session(home)
        registrations: list[dict] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated",
               lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        # Playwright tells every page it has the focus; the browser's own focus is wanted here.
        cdp.send("Emulation.setFocusEmulationEnabled", {"enabled": False})
        name = sign_up(home)
        home.evaluate("async () => { await navigator.serviceWorker.ready; }")
        context.grant_permissions(["notifications"], origin=stack)
        game_id, payload = _turn_payload(User.objects.get(username=name), user_factory,
                                         monkeypatch)
        registration_id = next(r["registrationId"] for r in registrations
                               if r["scopeURL"] == f"{stack}/" and not r["isDeleted"])

        def deliver() -> None:
            cdp.send("ServiceWorker.deliverPushMessage", {
                "origin": stack, "registrationId": registration_id,
                "data": json.dumps(payload)})

        # (a) No tab of the game: the click opens it, and the notification goes away.
        home.goto("/settings")
        shown_before = len(daemon.shown)
        deliver()
        shown = daemon.wait_for(payload["title"], after=shown_before)
        assert _wait(home, NOTIFICATIONS, lambda n: len(n) == 1)[0]["url"] == f"/games/{game_id}"
        pages_before = len(opened)
        daemon.click(shown)
        deadline = time.monotonic() + 15
        while len(opened) == pages_before and time.monotonic() < deadline:
            home.wait_for_timeout(100)
        assert len(opened) == pages_before + 1, "the click opened no page"
        game_tab = opened[-1]
        game_tab.on("pageerror", lambda exc: errors.append(str(exc)))
        game_tab.wait_for_url(f"{stack}/games/{game_id}")
        game_tab.locator("#game-panel").wait_for()
        assert _wait(home, NOTIFICATIONS, lambda n: n == []) == []
        assert home.url == f"{stack}/settings"  # the page the player was on stays as it was

        # (b) The game's tab is open, behind the settings: the click gives it the focus. The
        # worker's calls of WindowClient.focus are recorded (and carried out): headless
        # Chromium keeps telling the page left behind that it has the focus too.
        (worker,) = [w for w in context.service_workers if w.url == f"{stack}/sw.js"]
        worker.evaluate(FOCUS_SPY)
        context.new_cdp_session(game_tab).send("Emulation.setFocusEmulationEnabled",
                                               {"enabled": False})
        home.bring_to_front()
        home.wait_for_function(HAS_FOCUS)
        assert game_tab.evaluate(HAS_FOCUS) is False
        shown_before = len(daemon.shown)
        deliver()
        shown = daemon.wait_for(payload["title"], after=shown_before)
        _wait(home, NOTIFICATIONS, lambda n: len(n) == 1)
        pages_before = len(opened)
        daemon.click(shown)
        game_tab.wait_for_function(HAS_FOCUS)
        assert worker.evaluate("() => self.__focused") == [
            {"url": f"{stack}/games/{game_id}", "focused": True}]
        assert _wait(home, NOTIFICATIONS, lambda n: n == []) == []
        home.wait_for_timeout(1000)  # a wrongly opened tab would have come by now
        assert len(opened) == pages_before, [p.url for p in opened]
        assert [p.url for p in context.pages] == [f"{stack}/settings",
                                                  f"{stack}/games/{game_id}"]
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"
