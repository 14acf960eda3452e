"""The stream endpoints in process, through the project's ASGI application (both backends)."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from accounts import tokens
from accounts.models import Device
from live.shutdown import get_drain
from tests.live.asgi import open_stream
from tests.live.conftest import apublish, run

pytestmark = pytest.mark.django_db(transaction=True)


def token_header(user) -> dict[str, str]:
    _, key = tokens.issue(user=user, name="tests")
    return {"Authorization": f"Token {key}"}


def has_type(kind: str, count: int = 1):
    return lambda s: sum(e.type == kind for e in s.events) >= count


def test_no_credentials_is_401(live_backend):
    async def go():
        stream = await open_stream("/api/v1/events")
        await asyncio.wait_for(stream.done.wait(), 5)
        return stream

    stream = run(go())
    assert stream.status == 401
    assert stream.json()["error"]["code"] == "not_authenticated"


def test_unknown_token_is_401(live_backend, alice):
    async def go():
        stream = await open_stream("/api/v1/events", {"Authorization": "Token nope"})
        await asyncio.wait_for(stream.done.wait(), 5)
        return stream

    stream = run(go())
    assert stream.status == 401
    assert stream.json()["error"]["code"] == "authentication_failed"


def test_token_stream_receives_published_events(live_backend, alice, bob):
    headers = token_header(alice)

    async def go():
        stream = await open_stream("/api/v1/events", headers)
        await apublish(bob.pk, "move", {"game": 1, "secret": "not for alice"}, game_id=1)
        await apublish(alice.pk, "move", {"game": 1, "move_number": 1}, game_id=1)
        await stream.wait_until(has_type("move"))
        await stream.close()
        return stream

    stream = run(go())
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert [(e.type, e.data) for e in stream.events] == [
        ("move", {"type": "move", "game": 1, "move_number": 1})
    ]
    assert stream.events[0].id


def test_session_cookie_authenticates(live_backend, alice):
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def go():
        stream = await open_stream("/api/v1/events", {"Cookie": cookie})
        await apublish(alice.pk, "nudge", {"game": 3}, game_id=3)
        await stream.wait_until(has_type("nudge"))
        await stream.close()
        return stream

    assert run(go()).status == 200


def test_last_event_id_replays_what_was_missed(live_backend, alice):
    headers = token_header(alice)

    async def go():
        first = await open_stream("/api/v1/events", headers)
        await apublish(alice.pk, "move", {"n": 1})
        await first.wait_until(has_type("move"))
        await first.close()
        seen = first.events[-1].id
        for n in (2, 3, 4):
            await apublish(alice.pk, "move", {"n": n})
        again = await open_stream("/api/v1/events", {**headers, "Last-Event-ID": seen})
        await again.wait_until(has_type("move", 3))
        await again.close()
        return again

    again = run(go())
    assert [e.data["n"] for e in again.events] == [2, 3, 4]


@pytest.mark.parametrize("last_id", ["garbage", "1-0", "999999999"])
def test_unknown_or_expired_last_event_id_gets_one_resync(live_backend, alice, last_id):
    headers = {**token_header(alice), "Last-Event-ID": last_id}

    async def go():
        await apublish(alice.pk, "move", {"n": 1})
        stream = await open_stream("/api/v1/events", headers)
        await stream.wait_until(has_type("resync"))
        await apublish(alice.pk, "move", {"n": 2})
        await stream.wait_until(has_type("move"))
        await stream.close()
        return stream

    stream = run(go())
    assert [e.type for e in stream.events] == ["resync", "move"]
    assert stream.events[1].data["n"] == 2


def test_heartbeat_and_revoked_token_closes_stream(live_backend, settings, alice):
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    headers = token_header(alice)

    async def go():
        stream = await open_stream("/api/v1/events", headers)
        await stream.wait_until(lambda s: s.comments.count("heartbeat") >= 2, timeout=5)
        assert not stream.done.is_set()
        await sync_to_async(Device.objects.filter(user=alice).delete)()
        await asyncio.wait_for(stream.done.wait(), 5)
        return stream

    run(go())


def test_suspended_session_user_stream_closes(live_backend, settings, alice):
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def go():
        stream = await open_stream("/api/v1/events", {"Cookie": cookie})
        await stream.wait_until(lambda s: "heartbeat" in s.comments, timeout=5)
        await type(alice).objects.filter(pk=alice.pk).aupdate(is_active=False)
        await asyncio.wait_for(stream.done.wait(), 5)

    run(go())


def test_too_many_streams_is_429(live_backend, settings, alice, bob):
    settings.LIVE_MAX_STREAMS_PER_USER = 2
    headers = token_header(alice)

    async def go():
        open_ones = [await open_stream("/api/v1/events", headers) for _ in range(2)]
        refused = await open_stream("/api/v1/events", headers)
        await asyncio.wait_for(refused.done.wait(), 5)
        other = await open_stream("/api/v1/events", token_header_async := await sync_to_async(
            token_header)(bob))
        assert token_header_async and other.status == 200
        await other.close()
        await open_ones[0].close()
        after_close = await open_stream("/api/v1/events", headers)
        statuses = [s.status for s in open_ones] + [after_close.status]
        for s in (open_ones[1], after_close):
            await s.close()
        return refused, statuses

    refused, statuses = run(go())
    assert refused.status == 429
    assert refused.json()["error"]["code"] == "too_many_streams"
    assert refused.json()["error"]["details"] == {"limit": 2}
    assert statuses == [200, 200, 200]


def test_client_that_never_reads_is_disconnected(live_backend, settings, alice):
    settings.LIVE_QUEUE_SIZE = 3
    settings.LIVE_QUEUE_WAIT_SECONDS = 0.3
    headers = token_header(alice)

    async def go():
        stream = await open_stream("/api/v1/events", headers, never_read=True)
        for n in range(20):
            await apublish(alice.pk, "move", {"n": n, "pad": "x" * 100})
        await asyncio.wait_for(stream.done.wait(), 10)
        return stream

    stream = run(go())
    assert stream.status == 200  # it was open, then the server gave up on it


def test_game_stream_is_for_players_only_and_only_that_game(
    live_backend, human_game, alice, carol
):
    headers = token_header(alice)
    outsider = token_header(carol)

    async def go():
        refused = await open_stream(f"/api/v1/games/{human_game.pk}/events", outsider)
        missing = await open_stream("/api/v1/games/999999/events", headers)
        stream = await open_stream(f"/api/v1/games/{human_game.pk}/events", headers)
        await apublish(alice.pk, "move", {"game": 999}, game_id=999)
        await apublish(alice.pk, "move", {"game": human_game.pk}, game_id=human_game.pk)
        await stream.wait_until(has_type("move"))
        await stream.close()
        for s in (refused, missing):
            await asyncio.wait_for(s.done.wait(), 5)
        return refused, missing, stream

    refused, missing, stream = run(go())
    assert (refused.status, refused.json()["error"]["code"]) == (403, "not_a_player")
    assert (missing.status, missing.json()["error"]["code"]) == (404, "not_found")
    assert [e.data["game"] for e in stream.events] == [human_game.pk]


def test_wsgi_server_refuses_instead_of_buffering_for_ever(db, alice_client):
    response = alice_client.get("/api/v1/events")
    assert response.status_code == 501
    assert response.json()["error"]["code"] == "asgi_required"


def test_revoking_a_device_through_the_api_closes_only_its_stream(live_backend, settings, alice):
    """DELETE me/devices/{id} ends that device's stream at the next heartbeat; a stream of
    another device goes on."""
    from rest_framework.test import APIClient

    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    phone_device, phone_key = tokens.issue(user=alice, name="phone")
    _, laptop_key = tokens.issue(user=alice, name="laptop")
    laptop = APIClient()
    laptop.credentials(HTTP_AUTHORIZATION=f"Token {laptop_key}")

    async def go():
        phone = await open_stream("/api/v1/events", {"Authorization": f"Token {phone_key}"})
        kept = await open_stream("/api/v1/events", {"Authorization": f"Token {laptop_key}"})
        await phone.wait_until(lambda s: s.comments.count("heartbeat") >= 1, timeout=5)
        response = await sync_to_async(laptop.delete)(f"/api/v1/me/devices/{phone_device.pk}")
        assert response.status_code == 204
        await asyncio.wait_for(phone.done.wait(), 5)
        heartbeats = kept.comments.count("heartbeat")
        await kept.wait_until(lambda s: s.comments.count("heartbeat") > heartbeats + 1,
                              timeout=5)
        assert not kept.done.is_set()
        await kept.close()

    run(go())


def test_a_password_change_elsewhere_closes_a_session_stream(live_backend, settings, alice):
    """POST me/password from a device ends every other sign-in: a browser session's stream
    closes too (its password hash is stale), while the device that changed it stays."""
    from rest_framework.test import APIClient

    from tests.helpers import PASSWORD

    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    browser = Client()
    browser.force_login(alice)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    _, key = tokens.issue(user=alice, name="phone")
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {key}")

    async def go():
        stream = await open_stream("/api/v1/events", {"Cookie": cookie})
        await stream.wait_until(lambda s: "heartbeat" in s.comments, timeout=5)
        body = {"current_password": PASSWORD, "new_password": "brand-New-Pass-5"}
        response = await sync_to_async(phone.post)("/api/v1/me/password", body, format="json")
        assert response.status_code == 204
        await asyncio.wait_for(stream.done.wait(), 5)

    run(go())


def test_a_burst_of_openings_uses_a_bounded_number_of_database_connections(
    live_backend, alice, settings, monkeypatch
):
    """Twenty clients at once, three database slots: never more than three openings use the
    database together, and every stream opens (the others wait their turn, no 500)."""
    from live import views

    settings.LIVE_DB_CONNECTIONS = 3
    settings.LIVE_MAX_STREAMS_PER_USER = 50
    real = views._authenticate
    inside = 0
    most = 0

    async def counting(request):
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        try:
            await asyncio.sleep(0.05)
            return await real(request)
        finally:
            inside -= 1

    monkeypatch.setattr(views, "_authenticate", counting)
    headers = token_header(alice)

    async def go():
        streams = await asyncio.gather(
            *(open_stream("/api/v1/events", headers) for _ in range(20)))
        for stream in streams:
            await stream.close()
        return streams

    streams = run(go())
    assert [s.status for s in streams] == [200] * 20
    assert most == 3


def test_a_database_failure_while_opening_is_a_503_with_retry_after(
    live_backend, alice, monkeypatch
):
    from django.db import OperationalError

    from live import views

    async def broken(request):
        raise OperationalError("sorry, too many clients already")

    monkeypatch.setattr(views, "_authenticate", broken)
    headers = token_header(alice)

    async def go():
        stream = await open_stream("/api/v1/events", headers)
        await asyncio.wait_for(stream.done.wait(), 5)
        return stream

    stream = run(go())
    assert stream.status == 503
    assert stream.headers["retry-after"] == "5"
    assert stream.json()["error"]["code"] == "service_unavailable"


def test_an_idle_stream_holds_no_thread_and_no_task_of_its_own(live_backend, settings, alice):
    """Django runs a request's sync calls (its middleware, the admission's ORM calls) on a
    thread of the request's own, kept until the response ends: 1,000 idle streams held 1,000
    threads. Once it streams, a stream gives it back, and waits with no task of its own (the
    ASGI handler's two and the test client's one per stream; the hub's one per process); events
    and heartbeats (their credential checks) still come."""
    settings.LIVE_HEARTBEAT_SECONDS = 0.2
    headers = token_header(alice)

    def request_threads() -> int:  # not the event loop's shared pool ("asyncio_N")
        return sum(not t.name.startswith("asyncio") for t in threading.enumerate())

    async def go():
        before = request_threads()
        tasks_before = len(asyncio.all_tasks())
        streams = [await open_stream("/api/v1/events", headers) for _ in range(4)]
        for stream in streams:
            await stream.wait_until(lambda s: s.comments.count("heartbeat") >= 2)
        for _ in range(100):  # a released thread ends after its last call
            if request_threads() <= before:
                break
            await asyncio.sleep(0.05)
        during = request_threads()
        tasks = len(asyncio.all_tasks()) - tasks_before
        await apublish(alice.pk, "move", {"game": 1, "move_number": 1}, game_id=1)
        for stream in streams:
            await stream.wait_until(has_type("move"))
        for stream in streams:
            await stream.close()
        return before, during, tasks, streams

    before, during, tasks, streams = run(go())
    assert during <= before
    assert tasks <= 3 * len(streams) + 1
    assert all(s.status == 200 for s in streams)


def test_shutdown_ends_open_streams_with_a_reconnect_event(live_backend, alice):
    """What SIGTERM starts (live/shutdown.py): every open stream ends at once with a
    ``reconnect`` event and no id, and a stream admitted meanwhile gets only that."""
    headers = token_header(alice)

    async def go():
        stream = await open_stream("/api/v1/events", headers)
        get_drain().begin()
        await asyncio.wait_for(stream.done.wait(), 5)
        late = await open_stream("/api/v1/events", headers)
        await asyncio.wait_for(late.done.wait(), 5)
        return stream, late

    stream, late = run(go())
    assert [(e.type, e.id) for e in stream.events] == [("reconnect", None)]
    assert stream.events[0].data == {"type": "reconnect", "reason": "shutdown"}
    assert [e.type for e in late.events] == ["reconnect"]
