"""Account emails through a real Celery worker, the real Redis and a real SMTP server: sign up,
verify with the link, then a turn email reaches the (now verified) address; a password reset
for a known and an unknown address."""

import re
import uuid
from urllib.parse import parse_qs, urlparse

import pytest
from rest_framework.test import APIClient

from games import services
from tests.helpers import PASSWORD
from tests.integration.workers import (
    remove_log,
    start_smtp,
    start_worker,
    stop_worker,
    worker_database_url,
)

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

SITE = "https://c10s.example"


@pytest.fixture(scope="module")
def _mail_worker_process(django_db_setup, django_db_blocker):
    """(queue, inbox): one SMTP server and worker for this module's tests (starting a worker
    costs seconds); each test gets an empty inbox."""
    controller, inbox = start_smtp()
    queue = f"c10s-accounts-{uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    proc = start_worker(
        queue=queue,
        db_url=db_url,
        extra_env={
            "EMAIL_HOST": controller.hostname,
            "EMAIL_PORT": str(controller.port),
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "SITE_BASE_URL": SITE,
        },
    )
    inbox.worker = proc
    yield queue, inbox
    stop_worker(proc)
    remove_log(proc)
    controller.stop()


@pytest.fixture
def mail_worker(settings, _mail_worker_process):
    queue, inbox = _mail_worker_process
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    inbox.clear()
    return inbox


def _token(message, page: str) -> str:
    [url] = re.findall(rf"{re.escape(SITE + page)}\?token=\S+", message.part("text/plain"))
    return parse_qs(urlparse(url).query)["token"][0]


def test_sign_up_verify_then_game_emails_arrive(mail_worker, alice, fixed_seed):
    inbox = mail_worker
    client = APIClient(HTTP_ACCEPT_LANGUAGE="pt-BR")
    body = {"username": "dora", "email": "dora@example.test", "password": PASSWORD}
    response = client.post("/api/v1/auth/register", body, format="json")
    assert response.status_code == 201, response.content
    [verify] = inbox.wait_for("account-verify_email:")
    assert verify.to == ["dora@example.test"]
    subject = " ".join(str(verify.message["Subject"]).split())  # unfolded
    assert subject == "Confirme seu endereço de e-mail no Crazy10s Online"
    assert verify.message["Content-Language"] == "pt-br"

    response = client.post("/api/v1/auth/email/verify",
                           {"token": _token(verify, "/account/verify-email")}, format="json")
    assert response.status_code == 200 and response.json()["email_verified"] is True

    game = services.create_game(user=alice, opponent={"username": "dora"})
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    [turn] = inbox.wait_for(f"turn:{game.pk}:1:")  # the header names no user
    assert turn.to == ["dora@example.test"]


def test_password_reset_email_only_for_a_known_address(mail_worker, alice):
    inbox = mail_worker
    client = APIClient()
    for email in ("nobody@example.test", "alice@example.test"):
        response = client.post("/api/v1/auth/password/reset", {"email": email}, format="json")
        assert response.status_code == 202
    [reset] = inbox.wait_for("account-reset_password:")
    assert reset.to == ["alice@example.test"]
    body = {"token": _token(reset, "/account/reset-password"), "new_password": "fresh-Pass-77"}
    assert client.post("/api/v1/auth/password/reset/confirm", body,
                       format="json").status_code == 204
    assert [m.to for m in inbox.messages] == [["alice@example.test"]]
