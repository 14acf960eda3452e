"""Several turns for one user within the gather window go out as one email; digest hourly."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games.notifications import services
from games.notifications.models import Kind, SentNotification, Status

pytestmark = pytest.mark.django_db

T0 = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)


def bob_to_move(game, alice, play):
    play(game, alice, "g7=5 h7=5")
    return services.notify_turn(
        game_id=game.pk, seat_index=game.current_seat, move_number=game.move_number
    )


def test_turns_within_the_window_are_gathered_into_one_email(
    make_game, alice, bob, play, queued_sends
):
    with time_machine.travel(T0, tick=False):
        games = [make_game(bob) for _ in range(3)]
        first = bob_to_move(games[0], alice, play)
    with time_machine.travel(T0 + timedelta(minutes=1), tick=False):
        held = [bob_to_move(g, alice, play) for g in games[1:]]
    assert first.status == Status.PENDING
    assert {n.status for n in held} == {Status.HELD}
    assert {n.due_at for n in held} == {T0 + services.gather_window()}
    assert queued_sends == [first.pk]

    assert services.flush_held(now=T0 + timedelta(minutes=4)) == 0
    assert services.flush_held(now=T0 + timedelta(minutes=5)) == 1
    gathered = SentNotification.objects.get(kind=Kind.GATHERED)
    assert gathered.user == bob and gathered.status == Status.PENDING
    assert sorted(gathered.payload["games"]) == sorted(g.pk for g in games[1:])
    assert {n.status for n in SentNotification.objects.filter(pk__in=[n.pk for n in held])} == {
        Status.MERGED
    }
    assert services.flush_held(now=T0 + timedelta(minutes=6)) == 0  # nothing twice

    services.deliver(notification_id=gathered.pk)
    message = mail.outbox[-1]
    assert message.subject == "2 games are waiting for your move"
    for g in games[1:]:
        assert f"/games/{g.pk}" in message.body


def test_held_notice_for_a_game_that_moved_on_is_dropped(
    make_game, alice, bob, play, queued_sends
):
    with time_machine.travel(T0, tick=False):
        one, two = make_game(bob), make_game(bob)
        bob_to_move(one, alice, play)
        held = bob_to_move(two, alice, play)
        play(two, bob)  # bob answered in the meantime
    assert services.flush_held(now=T0 + timedelta(minutes=5)) == 0
    held.refresh_from_db()
    assert held.status == Status.DROPPED
    assert not SentNotification.objects.filter(kind=Kind.GATHERED).exists()


def test_digest_lists_every_waiting_game_most_urgent_first_at_most_hourly(
    make_game, alice, bob, play, queued_sends
):
    bob.turn_emails = "digest"
    bob.save()
    with time_machine.travel(T0, tick=False):
        slow = make_game(bob, turn_hours=168)
        fast = make_game(bob, turn_hours=8)
        notices = [bob_to_move(slow, alice, play), bob_to_move(fast, alice, play)]
    assert {n.status for n in notices} == {Status.HELD}
    assert queued_sends == []  # nothing sent per turn
    assert services.flush_held(now=T0) == 1
    digest = SentNotification.objects.get(kind=Kind.DIGEST)
    services.deliver(notification_id=digest.pk)
    body = mail.outbox[-1].body
    assert body.index(f"/games/{fast.pk}") < body.index(f"/games/{slow.pk}")  # nearest first

    with time_machine.travel(T0 + timedelta(minutes=10), tick=False):
        third = make_game(bob, turn_hours=24)
        later = bob_to_move(third, alice, play)
    assert later.status == Status.HELD
    assert later.due_at == digest.created_at + services.digest_interval()
    assert services.flush_held(now=T0 + timedelta(minutes=59)) == 0
    assert services.flush_held(now=T0 + timedelta(minutes=60)) == 1
    assert SentNotification.objects.filter(kind=Kind.DIGEST).count() == 2
    newest = SentNotification.objects.filter(kind=Kind.DIGEST).latest("created_at")
    assert sorted(newest.payload["games"]) == sorted([slow.pk, fast.pk, third.pk])


def test_switching_turn_emails_off_drops_held_notices(make_game, alice, bob, play, queued_sends):
    with time_machine.travel(T0, tick=False):
        one, two = make_game(bob), make_game(bob)
        bob_to_move(one, alice, play)
        held = bob_to_move(two, alice, play)
    bob.turn_emails = "off"
    bob.save()
    assert services.flush_held(now=T0 + timedelta(hours=1)) == 0
    held.refresh_from_db()
    assert held.status == Status.DROPPED
