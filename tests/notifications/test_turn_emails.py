"""Turn emails: preferences, no computer seats, "they are looking", one email per turn."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.models import Seat
from games.notifications import services
from games.notifications.models import Kind, SentNotification, Status

pytestmark = pytest.mark.django_db


def turn_of(game):
    game.refresh_from_db()
    return {"game_id": game.pk, "seat_index": game.current_seat, "move_number": game.move_number}


def test_a_move_claims_one_turn_email_for_the_opponent(human_game, alice, bob, play, queued_sends):
    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(**turn_of(human_game))
    assert (n.kind, n.status, n.user, n.move_number) == (Kind.TURN, Status.PENDING, bob, 1)
    assert n.key == f"turn:{human_game.pk}:1:{bob.pk}"
    assert queued_sends == [n.pk]
    # The same event again (a redelivered task) claims nothing and queues nothing.
    assert services.notify_turn(**turn_of(human_game)) is None
    assert queued_sends == [n.pk]


def test_delivering_twice_sends_one_email(human_game, alice, bob, play, queued_sends):
    play(human_game, alice, "g7=5 h7=5")
    n = services.notify_turn(**turn_of(human_game))
    assert services.deliver(notification_id=n.pk) is True
    assert services.deliver(notification_id=n.pk) is False
    assert len(mail.outbox) == 1
    n.refresh_from_db()
    assert n.status == Status.SENT and n.sent_at is not None
    assert mail.outbox[0].to == [bob.email]


def test_turn_emails_off_sends_nothing(human_game, alice, bob, play, queued_sends):
    bob.turn_emails = "off"
    bob.save()
    play(human_game, alice, "g7=5 h7=5")
    assert services.notify_turn(**turn_of(human_game)) is None
    assert not SentNotification.objects.exists()


def test_nothing_for_a_player_looking_at_the_game(human_game, alice, bob, play, queued_sends):
    play(human_game, alice, "g7=5 h7=5")
    Seat.objects.filter(game=human_game, user=bob).update(
        last_seen_at=timezone.now() - timedelta(seconds=90)
    )
    assert services.notify_turn(**turn_of(human_game)) is None
    Seat.objects.filter(game=human_game, user=bob).update(
        last_seen_at=timezone.now() - timedelta(seconds=150)
    )
    assert services.notify_turn(**turn_of(human_game)) is not None


def test_never_to_a_computer_seat(alice, ai_queue, fixed_seed, play, queued_sends):
    from games import services as game_services

    game = game_services.create_game(user=alice, opponent={"ai": "beginner"})
    play(game, alice, "g7=5 h7=5")
    assert game.current_seat == 1
    assert services.notify_turn(**turn_of(game)) is None
    assert not SentNotification.objects.exists()


def test_a_turn_already_over_is_not_announced(human_game, alice, bob, play, queued_sends):
    play(human_game, alice, "g7=5 h7=5")
    stale = turn_of(human_game)
    play(human_game, bob)
    assert services.notify_turn(**stale) is None


def test_the_first_turn_is_left_to_the_started_email(human_game, queued_sends):
    assert services.notify_turn(**turn_of(human_game)) is None


def test_no_address_no_email(human_game, alice, bob, play, queued_sends):
    bob.email = ""
    bob.save()
    play(human_game, alice, "g7=5 h7=5")
    assert services.notify_turn(**turn_of(human_game)) is None


def test_started_email_goes_to_the_invited_player_not_the_creator(human_game, bob, queued_sends):
    claimed = services.notify_started(game_id=human_game.pk)
    assert [n.user for n in claimed] == [bob]
    assert services.notify_started(game_id=human_game.pk) == []  # once


def test_result_emails_follow_the_preference(human_game, alice, bob, queued_sends):
    from games import services as game_services

    alice.result_emails = False
    alice.save()
    game_services.resign(game_id=human_game.pk, user=bob)
    claimed = services.notify_finished(game_id=human_game.pk)
    assert [n.user for n in claimed] == [bob]
    services.deliver(notification_id=claimed[0].pk)
    assert "lost" in mail.outbox[0].body
