"""Turn and result emails through a real Celery worker, the real Redis and a real SMTP server.

The worker consumes a queue of its own (GAMES_AI_QUEUE = NOTIFY_QUEUE), so other workers on
the same Redis never take these tasks; it reads the test database through DATABASE_URL and
sends to the aiosmtpd server started here through EMAIL_HOST/EMAIL_PORT.
"""

import re
import time
import uuid

import pytest
from django.test import Client

from games import clocks, services
from games.models import Game
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


@pytest.fixture(scope="module")
def smtp():
    controller, inbox = start_smtp()
    yield controller, inbox
    controller.stop()


@pytest.fixture(scope="module")
def _mail_worker_process(smtp, django_db_setup, django_db_blocker):
    """(queue, inbox): one worker for this module's tests (starting one costs seconds); each
    test gets an empty inbox and makes its own games (ids are never reused)."""
    controller, inbox = smtp
    queue = f"c10s-notify-{uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    proc = start_worker(
        queue=queue,
        db_url=db_url,
        extra_env={
            "EMAIL_HOST": controller.hostname,
            "EMAIL_PORT": str(controller.port),
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        },
    )
    inbox.worker = proc
    yield queue, inbox
    stop_worker(proc)
    remove_log(proc)


@pytest.fixture
def mail_worker(settings, _mail_worker_process):
    queue, inbox = _mail_worker_process
    settings.GAMES_AI_QUEUE = settings.NOTIFY_QUEUE = queue
    inbox.clear()
    return inbox


def test_a_move_emails_the_opponent_once_in_their_language(
    mail_worker, alice, bob, fixed_seed, make_client
):
    inbox = mail_worker
    bob.language = "fr"
    bob.save()
    game = services.create_game(user=alice, opponent={"username": "bob"})
    response = make_client(alice).post(
        f"/api/v1/games/{game.pk}/moves",
        {"move": "g7=5 h7=5", "expected_move_number": 0},
        format="json",
    )
    assert response.status_code == 201, response.content

    [turn] = inbox.wait_for(f"turn:{game.pk}:1:")
    assert turn.to == [bob.email]
    subject = " ".join(str(turn.message["Subject"]).split())  # unfolded
    assert subject == f"À vous de jouer dans la partie n°{game.pk} contre Alice"
    text, html = turn.part("text/plain"), turn.part("text/html")
    assert "Bonjour Bob," in text and "Ouvrir la partie" in html
    assert turn.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # the link opens the game's page in the web client (signed in: the game itself)
    game_link = re.search(r"http://127\.0\.0\.1:8000(/games/\d+)\s", text).group(1)
    browser = Client()
    browser.force_login(bob)
    shown = browser.get(game_link)
    assert shown.status_code == 200 and f'data-game="{game.pk}"' in shown.content.decode()

    unsubscribe = turn.message["List-Unsubscribe"].strip("<>").split("8000", 1)[1]
    assert unsubscribe in text

    assert Client().post(unsubscribe, {"List-Unsubscribe": "One-Click"}).status_code == 200
    bob.refresh_from_db()
    assert bob.turn_emails == "off"

    time.sleep(1.5)  # anything duplicated would have arrived by now
    assert len(inbox.matching("turn:")) == 1
    assert [m.to for m in inbox.matching("started:")] == [[bob.email]]
    assert not [m for m in inbox.messages if m.to == [alice.email]]


def test_a_game_left_alone_ends_by_timeouts_with_result_emails(
    mail_worker, alice, bob, fixed_seed
):
    inbox = mail_worker
    game = services.create_game(user=alice, opponent={"username": "bob"})
    for number in range(1, 7):
        Game.objects.filter(pk=game.pk).update(turn_deadline=game.created_at)
        assert clocks.sweep_expired_turns() == 1
        if number <= 2:  # the first two timeouts each tell the next player it is their turn
            [turn] = inbox.wait_for(f"turn:{game.pk}:{number}:")
            assert turn.to == [(bob if number == 1 else alice).email]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["termination"] == "scoreless_turns"
    assert game.result["scores"] == [-21, -30] and game.result["winner"] == 0

    results = inbox.wait_for(f"finished:{game.pk}:", count=2)
    by_recipient = {m.to[0]: m.part("text/plain") for m in results}
    assert f"You won game #{game.pk} against Bob, -21 to -30." in by_recipient[alice.email]
    assert f"You lost game #{game.pk} against Alice, -30 to -21." in by_recipient[bob.email]
    # Later turns came within the gather window of those emails: they are held (and dropped
    # when the window ends, the game being over).
    assert len(inbox.matching("turn:")) == 2
