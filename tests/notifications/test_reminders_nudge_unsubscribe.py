"""Reminder timing (time frozen), the nudge rate limit, unsubscribe links, SMTP retries."""

from datetime import timedelta
from smtplib import SMTPServerDisconnected

import pytest
import time_machine
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from games.notifications import emails, services
from games.notifications.models import Kind, SentNotification, Status
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("turn_hours", "lead"),
    [(1, timedelta(minutes=12)), (8, timedelta(hours=1)), (72, timedelta(hours=1)),
     (336, timedelta(hours=1))],
)
def test_reminder_when_a_fifth_or_an_hour_is_left_whichever_is_later(
    make_game, alice, bob, play, queued_sends, turn_hours, lead
):
    game = make_game(bob, turn_hours=turn_hours)
    play(game, alice, "g7=5 h7=5")
    deadline = game.turn_deadline
    assert services.reminder_at(game) == deadline - lead
    with time_machine.travel(deadline - lead - timedelta(seconds=1), tick=False):
        assert services.send_due_reminders() == 0
    with time_machine.travel(deadline - lead, tick=False):
        assert services.send_due_reminders() == 1
    with time_machine.travel(deadline - lead + timedelta(seconds=30), tick=False):
        assert services.send_due_reminders() == 0  # once per (game, move number)
    reminder = SentNotification.objects.get(kind=Kind.REMINDER)
    assert (reminder.user, reminder.move_number) == (bob, 1)
    assert reminder.key == f"reminder:{game.pk}:1:{bob.pk}"


def test_no_reminder_when_switched_off_or_past_the_deadline(
    make_game, alice, bob, play, queued_sends
):
    game = make_game(bob, turn_hours=8)
    play(game, alice, "g7=5 h7=5")
    with time_machine.travel(game.turn_deadline + timedelta(seconds=1), tick=False):
        assert services.send_due_reminders() == 0
    bob.reminder_emails = False
    bob.save()
    with time_machine.travel(game.turn_deadline - timedelta(minutes=5), tick=False):
        assert services.send_due_reminders() == 0


def test_nudge_once_per_day_per_game(human_game, alice, bob, play, make_client, queued_sends):
    play(human_game, alice, "g7=5 h7=5")  # bob's turn now
    url = f"/api/v1/games/{human_game.pk}/nudge"
    client = make_client(alice)
    now = human_game.turn_started_at
    with time_machine.travel(now, tick=False):
        response = client.post(url)
        assert response.status_code == 202, response.content
    with time_machine.travel(now + timedelta(hours=23), tick=False):
        error = assert_error(client.post(url), 429, "nudge_too_soon")
        assert error["details"]["retry_after"] == 3600 + 1
    with time_machine.travel(now + timedelta(hours=24), tick=False):
        assert client.post(url).status_code == 202
    nudges = SentNotification.objects.filter(kind=Kind.NUDGE)
    assert [(n.user, n.sender, n.status) for n in nudges] == [(bob, alice, Status.PENDING)] * 2


def test_nudge_refusals(human_game, alice, bob, carol, play, make_client, queued_sends):
    url = f"/api/v1/games/{human_game.pk}/nudge"
    assert_error(make_client(alice).post(url), 409, "not_opponents_turn")  # alice's own turn
    assert_error(make_client(carol).post(url), 403, "not_a_player")
    assert_error(make_client(alice).post("/api/v1/games/999999/nudge"), 404, "not_found")


def test_nudge_refused_while_waiting_for_a_random_opponent(alice, make_client, queued_sends):
    from games import services as game_services

    game = game_services.create_game(user=alice, opponent={"random": True})
    assert game.status == "waiting"
    assert_error(make_client(alice).post(f"/api/v1/games/{game.pk}/nudge"), 409,
                 "not_opponents_turn")
    assert not SentNotification.objects.filter(kind=Kind.NUDGE).exists()


def test_nudge_refused_against_the_computer(alice, ai_queue, fixed_seed, play, make_client):
    from games import services as game_services

    game = game_services.create_game(user=alice, opponent={"ai": "beginner"})
    play(game, alice, "g7=5 h7=5")
    assert_error(make_client(alice).post(f"/api/v1/games/{game.pk}/nudge"), 409,
                 "not_opponents_turn")


@pytest.fixture
def bobs_turn_email(human_game, alice, bob, play, queued_sends):
    bob.language = "de"
    bob.save()
    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)
    services.deliver(notification_id=n.pk)
    return mail.outbox[-1]


def test_email_is_text_and_html_in_the_users_language(bobs_turn_email, human_game):
    message = bobs_turn_email
    assert message.subject == f"Du bist am Zug in Partie #{human_game.pk} gegen Alice"
    assert "Hallo Bob," in message.body
    assert f"http://127.0.0.1:8000/games/{human_game.pk}" in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and "Partie öffnen" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Nothing private: not the opponent's rack, not the seed.
    human_game.refresh_from_db()
    assert str(human_game.seed) not in message.body + html


def test_one_click_unsubscribe_without_login(bobs_turn_email, bob):
    link = bobs_turn_email.extra_headers["List-Unsubscribe"].strip("<>")
    path = link.removeprefix("http://127.0.0.1:8000")
    assert path in bobs_turn_email.body
    client = Client(enforce_csrf_checks=True)
    page = client.get(path)
    assert page.status_code == 200 and "Abbestellen" in page.content.decode()
    bob.refresh_from_db()
    assert bob.turn_emails == "each"  # a GET (link preview, scanner) changes nothing
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    bob.refresh_from_db()
    assert bob.turn_emails == "off"


def test_unsubscribe_link_per_preference_and_forged_tokens(bob):
    Client().post(emails.unsubscribe_url(bob, "result_emails").split("8000", 1)[1])
    bob.refresh_from_db()
    assert (bob.result_emails, bob.reminder_emails, bob.turn_emails) == (False, True, "each")
    token = emails.unsubscribe_token(bob, "reminder_emails")
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    assert Client().post(f"/api/v1/notifications/unsubscribe/{forged}").status_code == 400
    bob.refresh_from_db()
    assert bob.reminder_emails is True


def test_smtp_failure_keeps_the_claim_and_a_retry_sends_once(
    human_game, alice, bob, play, queued_sends, monkeypatch
):
    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)
    real_send = EmailMultiAlternatives.send

    def broken(self, fail_silently=False):
        raise SMTPServerDisconnected("connection lost")

    monkeypatch.setattr(EmailMultiAlternatives, "send", broken)
    with pytest.raises(SMTPServerDisconnected):
        services.deliver(notification_id=n.pk)
    n.refresh_from_db()
    assert (n.status, n.attempts) == (Status.PENDING, 1)
    monkeypatch.setattr(EmailMultiAlternatives, "send", real_send)
    assert services.deliver(notification_id=n.pk) is True
    assert services.deliver(notification_id=n.pk) is False
    assert len(mail.outbox) == 1


def test_a_send_interrupted_mid_smtp_is_never_repeated(human_game, alice, play, queued_sends):
    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(game_id=human_game.pk, seat_index=1, move_number=1)
    SentNotification.objects.filter(pk=n.pk).update(status=Status.SENDING)  # worker died here
    assert services.deliver(notification_id=n.pk) is False
    assert mail.outbox == []
