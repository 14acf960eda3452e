"""A third game kind, added by following ARCHITECTURE.md's checklist and registered through the
settings only (tests/kinds/tictactoe, ``EXTRA_GAME_KINDS``), runs through everything the two
real kinds do: creation against the computer, a person by name and random pairing; move,
preview, history, resign, timeout; the live events; the your-turn and result emails; the admin
page; the web pages (tests/browser/test_third_kind.py plays it in Chromium)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import kinds, services
from games.models import Game, Move
from games.notifications.models import SentNotification
from games.notifications.services import outbox, sending
from live.models import LiveEvent

pytestmark = pytest.mark.django_db
KIND = "tictactoe"


@pytest.fixture(autouse=True)
def _live_in_the_database(settings):
    settings.LIVE_BACKEND = "db"


def create(client, **body):
    return client.post("/api/v1/games", {"kind": KIND, **body}, format="json")


def play(client, game_id: int, square: str, expected: int, **headers):
    return client.post(f"/api/v1/games/{game_id}/moves",
                       {"square": square, "expected_move_number": expected},
                       format="json", **headers)


def run_computer(ai_queue, capture) -> None:
    while ai_queue:
        game_id, number = ai_queue.pop(0)
        with capture(execute=True):
            services.play_ai_turn(game_id=game_id, expected_move_number=number)


def test_it_is_registered_through_the_settings_only():
    kind = kinds.get(KIND)
    assert kind.name in kinds.names() and type(kind).__module__ == "tests.kinds.tictactoe.kind"
    assert kinds.default().name == "crazy10s"


def test_against_the_computer_through_the_api(alice_client, ai_queue,
                                              django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = create(alice_client, seats=[{"you": True}, {"computer": "first"}])
    assert created.status_code == 201, created.content
    view = created.json()
    assert view["kind"] == KIND and view["status"] == "active"
    assert (view["your_seat"], view["to_move"], view["your_turn"]) == (0, 0, True)
    assert view["position"] == {"board": ["...", "...", "..."], "your_mark": "X"}
    game_id = view["id"]

    preview = alice_client.post(f"/api/v1/games/{game_id}/preview", {"square": "b2"},
                                format="json").json()
    assert preview == {"kind": KIND, "legal": True, "score": 0, "error": None}
    with django_capture_on_commit_callbacks(execute=True):
        played = play(alice_client, game_id, "b2", 0)
    assert played.status_code == 201, played.content
    body = played.json()
    assert body["kind"] == KIND and body["square"] == "b2" and body["game"]["to_move"] == 1
    run_computer(ai_queue, django_capture_on_commit_callbacks)  # the computer takes a1
    view = alice_client.get(f"/api/v1/games/{game_id}").json()
    assert view["position"]["board"] == ["O..", ".X.", "..."] and view["your_turn"] is True

    taken = alice_client.post(f"/api/v1/games/{game_id}/preview", {"square": "a1"},
                              format="json").json()
    assert (taken["legal"], taken["error"]["code"]) == (False, "square_taken")
    refused = play(alice_client, game_id, "a1", 2)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "square_taken"
    wrong_kind = alice_client.post(f"/api/v1/games/{game_id}/moves",
                                   {"move": "pass", "expected_move_number": 2}, format="json")
    assert wrong_kind.status_code == 400
    assert wrong_kind.json()["error"]["code"] == "not_this_kind"
    assert Move.objects.filter(game_id=game_id).count() == 2  # refusals changed nothing

    history = alice_client.get(f"/api/v1/games/{game_id}/moves").json()
    assert [(m["seat"], m["kind"], m["notation"]) for m in history] == [
        (0, "place", "b2"), (1, "place", "a1"),
    ]
    howto = alice_client.get(f"/api/v1/games/{game_id}/how-to-play").json()
    assert howto["kind"] == KIND and howto["title"] == "Tic-tac-toe"
    assert alice_client.get(f"/api/v1/games/{game_id}/hint").json()["error"]["code"] == (
        "no_hints"
    )
    listed = alice_client.get("/api/v1/games").json()["results"]
    assert [(g["kind"], g["your_turn"], g["to_move"], g["your_seat"]) for g in listed] == [
        (KIND, True, 0, 0)
    ]
    for square, expected in (("a2", 2), ("c2", 4)):  # the computer answers b1, then...
        with django_capture_on_commit_callbacks(execute=True):
            assert play(alice_client, game_id, square, expected).status_code == 201
        run_computer(ai_queue, django_capture_on_commit_callbacks)
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    assert game.result["termination"] == "line" and game.result["winners"] == [0]
    over = alice_client.get(f"/api/v1/games/{game_id}").json()
    assert over["result"]["outcome"] == "win" and over["your_turn"] is False


def test_against_a_person_by_name_with_events_and_emails(
    alice, bob, alice_client, bob_client, ai_queue, django_capture_on_commit_callbacks,
    monkeypatch,
):
    monkeypatch.setattr("games.notifications.services._common._enqueue_send", lambda n: None)
    for user in (alice, bob):
        user.email_verified = True
        user.save(update_fields=["email_verified"])
    with django_capture_on_commit_callbacks(execute=True):
        created = create(alice_client, seats=[{"you": True}, {"username": "bob"}], turn_hours=24)
    game_id = created.json()["id"]
    assert created.json()["players"][1]["username"] == "bob"
    with django_capture_on_commit_callbacks(execute=True):
        assert play(alice_client, game_id, "a1", 0).status_code == 201
    (move,) = [e.data for e in LiveEvent.objects.filter(user=bob, type="move")]
    assert (move["kind"], move["notation"], move["your_turn"]) == ("place", "a1", True)
    assert "own" not in move  # another player's copy
    (mine,) = [e.data for e in LiveEvent.objects.filter(user=alice, type="move")]
    assert mine["by_you"] is True and mine["own"] == {}

    bob_turn = _emails(bob, "turn")
    assert len(bob_turn) == 1 and "Your turn in game" in bob_turn[0].subject
    assert "alice" in bob_turn[0].body.lower()

    with django_capture_on_commit_callbacks(execute=True):
        resigned = bob_client.post(f"/api/v1/games/{game_id}/resign")
    assert resigned.status_code == 200 and resigned.json()["result"]["outcome"] == "loss"
    assert [e.type for e in LiveEvent.objects.filter(user=alice, type="game_finished")] == [
        "game_finished"
    ]
    (won,) = _emails(alice, "finished")
    assert "You won game" in won.body


def _emails(user, kind: str):
    """Decide the outbox's events and send what was claimed for ``user`` (as the worker)."""
    for event_id in outbox.NotificationEvent.objects.filter(
        processed_at__isnull=True
    ).values_list("pk", flat=True):
        outbox.process_event(event_id=event_id, now=timezone.now() + timedelta(hours=1))
    mail.outbox.clear()
    for notice in SentNotification.objects.filter(user=user, kind=kind):
        sending.deliver(notification_id=notice.pk)
    return list(mail.outbox)


def test_random_pairing_and_a_timeout(alice, bob, alice_client, bob_client, ai_queue):
    waiting = create(alice_client, seats=[{"you": True}, {"random": True}]).json()
    assert waiting["status"] == "waiting" and waiting["your_turn"] is False
    other = create(bob_client, seats=[{"random": True}, {"you": True}], rated=True).json()
    assert other["id"] == waiting["id"] and other["your_seat"] == 1
    game = Game.objects.get(pk=waiting["id"])
    assert game.status == Game.Status.ACTIVE and game.rated is True
    game.turn_deadline = timezone.now() - timedelta(seconds=1)
    game.save(update_fields=["turn_deadline"])
    services.play_timeout(game_id=game.pk, expected_move_number=0)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["termination"] == "timeout" and game.result["winners"] == [1]
    assert Move.objects.get(game=game).is_timeout


def test_the_admin_shows_the_position(client, user_factory, alice, ai_queue):
    game = services.create_game(user=alice, kind=KIND, seats=[{"you": True},
                                                              {"computer": "first"}])
    staff = user_factory("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "<pre class='tictactoe'>" in page or '<pre class="tictactoe">' in page


def test_the_web_pages_offer_and_show_it(client, alice, ai_queue):
    client.force_login(alice)
    page = client.get("/games/new").content.decode()
    assert 'id="new-tictactoe"' in page and "Tic-tac-toe" in page
    response = client.post("/games/new", {"kind": KIND, "seat1": "first", "turn_hours": "24"})
    assert response.status_code == 302, response.content.decode()[:2000]
    game_page = client.get(response.url).content.decode()
    assert 'class="ttt-square"' in game_page and "tictactoe/board.js" in game_page
    panel = client.get(response.url + "/panel").content.decode()
    assert panel.count('class="ttt-square"') == 9
