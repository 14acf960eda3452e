"""Every kind of push, through the push-service double (VAPID checked, body decrypted), in each
of the four languages: a nudge, a deadline reminder, a table invitation and the deal, a chat
message (who wrote, never what), with their TTL, Urgency and Topic; each kind's switch."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from games.notifications import services
from games.notifications.models import PushDelivery, PushKind, SentNotification, Status
from games.notifications.push import delivery
from games.notifications.services import push
from games.notifications.texts import text
from games.tables import services as tables
from social.services import chat

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "fr", "pt-br"]


def _send_all(queued: list[int]) -> None:
    for pk in queued:
        assert delivery.deliver_push(delivery_id=pk) == "sent"
    queued.clear()


def _speaks(user, language: str) -> None:
    user.language = "" if language == "en" else language
    user.save(update_fields=["language"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_nudge(language, human_game, alice, bob, play, make_client, push_double,
                 subscribe_device, queued_pushes, queued_sends):
    _speaks(bob, language)
    subscribe_device(bob, push_double)
    play(human_game, alice, "g7=5 h7=5")
    queued_pushes.clear()  # the turn's push (not processed here: no outbox run)
    assert make_client(alice).post(f"/api/v1/games/{human_game.pk}/nudge").status_code == 202
    _send_all(queued_pushes)
    (r,) = push_double.wait_for(1)
    assert r.payload["type"] == "nudge"
    assert r.payload["title"] == text(language, "push_nudge_title", opponent="Alice")
    assert r.payload["body"] == text(language, "push_nudge", game=human_game.pk)
    assert (r.ttl, r.urgency, r.topic) == (12 * 3600, "normal", f"game-{human_game.pk}")
    if language != "en":
        assert r.payload["title"] != text("en", "push_nudge_title", opponent="Alice")


def test_a_nudge_from_a_blocked_player_is_never_pushed(
    human_game, alice, bob, play, make_client, push_double, subscribe_device, queued_pushes,
    queued_sends,
):
    from social.models import Block

    Block.objects.create(blocker=bob, blocked=alice)
    subscribe_device(bob, push_double)
    play(human_game, alice, "g7=5 h7=5")
    queued_pushes.clear()
    assert make_client(alice).post(f"/api/v1/games/{human_game.pk}/nudge").status_code == 202
    assert not PushDelivery.objects.filter(kind=PushKind.NUDGE).exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_deadline_reminder(language, make_game, alice, bob, play, push_double,
                             subscribe_device, queued_pushes, queued_sends):
    _speaks(bob, language)
    bob.reminder_emails = False  # pushed, not emailed
    bob.save(update_fields=["reminder_emails"])
    subscribe_device(bob, push_double)
    game = make_game(bob, turn_hours=8)
    play(game, alice, "g7=5 h7=5")
    queued_pushes.clear()
    with time_machine.travel(game.turn_deadline - timedelta(minutes=30), tick=False):
        assert services.send_due_reminders() == 0  # no email
        assert services.send_due_reminders() == 0
    assert len(queued_pushes) == 1  # decided once
    assert SentNotification.objects.get(kind="reminder").status == Status.DROPPED
    _send_all(queued_pushes)
    (r,) = push_double.wait_for(1)
    assert r.payload["type"] == "reminder"
    assert r.payload["title"] == text(language, "push_reminder_title", game=game.pk)
    assert "Alice" in r.payload["body"]
    assert (r.ttl, r.urgency, r.topic) == (3600, "high", f"game-{game.pk}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_invitation_and_the_deal(language, alice, bob, carol, push_double,
                                         subscribe_device, queued_pushes, queued_sends):
    _speaks(bob, language)
    subscribe_device(bob, push_double)
    table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
    tables.invite(user=alice, code=table.code, username="bob")
    tables.invite(user=alice, code=table.code, username="bob")  # once per table and person
    _send_all(queued_pushes)
    (invite,) = push_double.wait_for(1)
    assert invite.payload["type"] == "invite" and invite.payload["url"] == f"/tables/{table.code}"
    assert invite.payload["title"] == text(language, "push_invite_title", host="Alice")
    assert table.code in invite.payload["body"]
    assert (invite.ttl, invite.urgency, invite.topic) == (
        6 * 3600, "high", f"invite-{table.code}")

    tables.join(user=bob, code=table.code)
    dealt = tables.deal(user=alice, code=table.code)
    _send_all(queued_pushes)
    received = push_double.wait_for(2)
    deal = received[1]
    assert deal.payload["type"] == "dealt" and deal.payload["game"] == dealt.game_id
    assert deal.payload["title"] == text(language, "push_dealt_title", code=table.code)
    assert deal.payload["body"] == text(language, "push_dealt", host="Alice",
                                        game=dealt.game_id)
    assert (deal.ttl, deal.urgency, deal.topic) == (600, "high", f"game-{dealt.game_id}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_chat_message_says_who_wrote_but_not_what(
    language, human_game, alice, bob, push_double, subscribe_device, queued_pushes,
    queued_sends, django_capture_on_commit_callbacks,
):
    _speaks(bob, language)
    subscribe_device(bob, push_double)
    subscribe_device(alice, push_double)
    with django_capture_on_commit_callbacks(execute=True):  # the chat is published then
        chat.post(game_id=human_game.pk, user=alice, text="secret plans for 7s")
    assert [d.user_id for d in PushDelivery.objects.all()] == [bob.pk]  # not to the author
    _send_all(queued_pushes)
    (r,) = push_double.wait_for(1)
    assert r.payload["type"] == "chat"
    assert r.payload["title"] == text(language, "push_chat_title", author="Alice",
                                      game=human_game.pk)
    assert "secret" not in str(r.payload)
    # Its own topic: a chat line never replaces a queued "your turn".
    assert (r.ttl, r.urgency, r.topic) == (3600, "normal", f"chat-{human_game.pk}")


@pytest.mark.parametrize("switch", ["nudge", "reminder", "invite", "chat"])
def test_each_kind_has_its_switch(switch, human_game, make_game, alice, bob, play,
                                  make_client, push_double, subscribe_device, queued_pushes,
                                  queued_sends, django_capture_on_commit_callbacks):
    push.update_settings(user_id=bob.pk, **{switch: False})
    subscribe_device(bob, push_double)
    if switch == "nudge":
        play(human_game, alice, "g7=5 h7=5")
        make_client(alice).post(f"/api/v1/games/{human_game.pk}/nudge")
    elif switch == "reminder":
        game = make_game(bob, turn_hours=8)
        play(game, alice, "g7=5 h7=5")
        with time_machine.travel(game.turn_deadline - timedelta(minutes=30), tick=False):
            services.send_due_reminders()
    elif switch == "invite":
        table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
        tables.invite(user=alice, code=table.code, username="bob")
    else:
        with django_capture_on_commit_callbacks(execute=True):
            chat.post(game_id=human_game.pk, user=alice, text="hi")
    assert not PushDelivery.objects.filter(kind=switch).exists()
    # Switched on again, the same event is pushed (the switch was what held it back).
    push.update_settings(user_id=bob.pk, **{switch: True})
    if switch == "chat":
        with django_capture_on_commit_callbacks(execute=True):
            chat.post(game_id=human_game.pk, user=alice, text="hi again")
        assert PushDelivery.objects.filter(kind=switch).exists()
