"""Account flows through the API with the emails read from a real SMTP server (aiosmtpd).

The email tasks run in this process (Celery eager, as a worker would run them: the test worker
flow is tests/integration/test_account_emails.py) and Django's SMTP backend delivers to the
server; the tests read the messages it received. Requests run in real transactions
(``transaction=True``) so that the emails queued on commit are sent.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from celery import current_app

from tests.helpers import PASSWORD
from tests.integration.workers import Received, start_smtp

SITE = "https://c10s.example"


@pytest.fixture
def inbox(settings):
    # Registered in this process, so that the eager app runs them (else it sends by name).
    import accounts.tasks  # noqa: F401
    import games.notifications.tasks  # noqa: F401
    import games.tasks  # noqa: F401

    controller, box = start_smtp()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = controller.hostname, controller.port
    settings.SITE_BASE_URL = SITE
    conf = current_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True
    yield box
    conf.task_always_eager, conf.task_eager_propagates = saved
    controller.stop()


def link_token(message: Received, page: str) -> str:
    """The token of the link to ``page`` (e.g. "/account/verify-email"), the same in the text
    and the HTML part."""
    text, html = message.part("text/plain"), message.part("text/html")
    [url] = set(re.findall(rf"{re.escape(SITE + page)}\?token=[^\s\"<]+", text))
    assert url.replace("&", "&amp;") in html or url in html
    [token] = parse_qs(urlparse(url).query)["token"]
    return token


def register(client, username: str = "dora", email: str = "dora@example.test", **extra):
    body = {"username": username, "email": email, "password": PASSWORD, **extra}
    return client.post("/api/v1/auth/register", body, format="json")


def login(client, username: str, password: str = PASSWORD, device: str | None = None) -> str:
    body = {"username": username, "password": password}
    if device is not None:
        body["device"] = device
    response = client.post("/api/v1/auth/token", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()["token"]
