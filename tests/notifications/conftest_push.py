"""Fixtures of the push tests (imported by tests/notifications/conftest.py)."""

from __future__ import annotations

import pytest

from games.notifications.push import hosts
from games.notifications.push.keys import application_key
from tests.notifications.push_double import PushServiceDouble


@pytest.fixture
def push_double():
    """The push service on loopback, checking VAPID against the server's key."""
    key = application_key()
    assert key is not None, "the tests set VAPID_PRIVATE_KEY (tests/django_env.py)"
    double = PushServiceDouble(key.public_key)
    yield double
    double.close()
    assert not double.rejected, double.rejected


@pytest.fixture
def queued_pushes(monkeypatch):
    """The push deliveries claimed and queued (instead of publishing a task)."""
    queued: list[int] = []
    monkeypatch.setattr("games.notifications.services.push._enqueue", queued.append)
    return queued


@pytest.fixture
def subscribe_device():
    """``subscribe_device(user, double)`` stores a browser subscription of the double for
    ``user`` (as the API does) and answers the browser's half."""
    from games.notifications.services import push

    def run(user, double, token: str | None = None):
        browser = double.subscribe(token)
        push.subscribe(user=user, endpoint=browser.endpoint, p256dh=browser.p256dh,
                       auth=browser.auth)
        return browser

    return run


@pytest.fixture
def dns(monkeypatch):
    """The push endpoints' DNS, by hand: ``dns["push.example.net"] = ["10.0.0.5"]``; a name
    not in it does not resolve (no real lookups in the tests). ``dns.asked`` lists the
    names looked up."""

    class FakeDns(dict[str, list[str]]):
        asked: list[str]

    answers = FakeDns()
    answers.asked = []

    def resolve(host: str) -> list[str]:
        answers.asked.append(host)
        if host not in answers:
            raise hosts.Unresolvable("no such name")
        return answers[host]

    monkeypatch.setattr(hosts, "resolve_host", resolve)
    return answers
