"""services.create_game: against the computer, a named player, or a random opponent."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from config.errors import ApiError
from games import services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def test_game_against_the_computer_starts_at_once(alice, fixed_seed, ai_queue):
    before = timezone.now()
    game = services.create_game(user=alice, opponent={"ai": "casual"}, turn_hours=24)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seed == fixed_seed
    assert game.state["seed"] == fixed_seed and game.state["move_number"] == 0
    assert game.current_seat == 0
    assert game.started_at >= before
    assert game.turn_deadline == game.turn_started_at + timedelta(hours=24)
    seats = list(game.seats.order_by("index"))
    assert [(s.index, s.user_id, s.ai_level) for s in seats] == [
        (0, alice.pk, None),
        (1, None, "casual"),
    ]
    assert seats[0].private == {"rack": ["0", "1", "2", "3", "5", "5", "5"]}


def test_the_computer_moving_first_is_queued_on_commit(
    alice, monkeypatch, ai_queue, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)  # seat 1 moves first
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(user=alice, opponent={"ai": "beginner"})
    assert game.current_seat == 1
    assert ai_queue == [(game.pk, 0)]


def test_human_moving_first_queues_nothing(
    alice, fixed_seed, ai_queue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.create_game(user=alice, opponent={"ai": "beginner"})
    assert ai_queue == []


def test_start_effects_come_after_commit(
    alice, bob, fixed_seed, game_effects, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = services.create_game(user=alice, opponent={"username": "bob"})
    assert game_effects == []  # nothing before commit
    for callback in callbacks:
        callback()
    assert [(name, g, d["seat"], d["move_number"]) for name, g, d in game_effects] == [
        ("turn_started", game.pk, 0, 0), ("game_started", game.pk, 0, 0),
    ]


def test_game_against_a_named_player(alice, bob, fixed_seed):
    game = services.create_game(
        user=alice, opponent={"username": "bob"}, options={"layout": "random"}
    )
    assert game.status == Game.Status.ACTIVE
    assert game.options["layout"] == "random"
    assert list(game.seats.values_list("user__username", flat=True)) == ["alice", "bob"]


@pytest.mark.parametrize(
    ("opponent", "turn_hours", "layout", "code"),
    [
        ({"username": "nobody"}, 72, "classic", "unknown_player"),
        ({"username": "alice"}, 72, "classic", "cannot_play_yourself"),
        ({"ai": "grandmaster"}, 72, "classic", "invalid"),
        ({"ai": "casual"}, 5, "classic", "invalid"),
        ({"ai": "casual"}, 72, "hexagonal", "invalid"),
        ({"ai": "casual", "username": "bob"}, 72, "classic", "invalid"),
        ({"random": False}, 72, "classic", "invalid"),
    ],
)
def test_bad_requests_create_nothing(alice, bob, opponent, turn_hours, layout, code):
    with pytest.raises(ApiError) as caught:
        services.create_game(
            user=alice, opponent=opponent, turn_hours=turn_hours, options={"layout": layout}
        )
    assert (caught.value.status, caught.value.code) == (400, code)
    assert Game.objects.count() == 0 and Seat.objects.count() == 0


def test_random_pairing(alice, bob, carol):
    waiting_alice = services.create_game(user=alice, opponent={"random": True})
    assert waiting_alice.status == Game.Status.WAITING
    assert waiting_alice.seats.count() == 1 and waiting_alice.turn_deadline is None
    # alice again: never paired with herself, so a second request waits too
    waiting_alice2 = services.create_game(user=alice, opponent={"random": True})
    assert waiting_alice2.pk != waiting_alice.pk
    # other options do not pair
    other = services.create_game(user=bob, opponent={"random": True}, turn_hours=24)
    assert other.status == Game.Status.WAITING
    # bob with the same options joins alice's OLDEST request
    paired = services.create_game(user=bob, opponent={"random": True})
    assert paired.pk == waiting_alice.pk
    paired.refresh_from_db()
    assert paired.status == Game.Status.ACTIVE and paired.turn_deadline is not None
    assert list(paired.seats.values_list("index", "user__username")) == [
        (0, "alice"),
        (1, "bob"),
    ]
    assert len(paired.seats.get(index=1).private["rack"]) == 7
    # carol takes the next one
    assert services.create_game(user=carol, opponent={"random": True}).pk == waiting_alice2.pk


def test_random_pairing_skips_a_suspended_players_request(alice, bob, carol):
    suspended = services.create_game(user=alice, opponent={"random": True})
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    bobs = services.create_game(user=bob, opponent={"random": True})
    assert bobs.pk != suspended.pk and bobs.status == Game.Status.WAITING
    assert services.create_game(user=carol, opponent={"random": True}).pk == bobs.pk
    suspended.refresh_from_db()
    assert suspended.status == Game.Status.WAITING and suspended.seats.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_random_requests_are_paired(alice, bob, fixed_seed, monkeypatch):
    """Both requests search before either commits; without the pool lock each would wait."""
    start = threading.Barrier(2)
    inside = threading.Barrier(2)  # reached by both only if both are creating a waiting game

    def seed_after_both_searched() -> int:
        try:
            inside.wait(timeout=0.5)
        except threading.BrokenBarrierError:
            pass  # serialized: the other request is (rightly) blocked on the pool lock
        return fixed_seed

    monkeypatch.setattr("games.services.creation._new_seed", seed_after_both_searched)
    failures: list[BaseException] = []

    def request(user) -> None:
        try:
            start.wait(timeout=10)
            services.create_game(user=user, opponent={"random": True})
        except BaseException as exc:  # re-raised in the main thread
            failures.append(exc)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=request, args=(u,)) for u in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not failures, failures
    assert not Game.objects.filter(status=Game.Status.WAITING).exists()
    (game,) = Game.objects.all()
    assert game.status == Game.Status.ACTIVE
    assert set(game.seats.values_list("user__username", flat=True)) == {"alice", "bob"}


def test_an_option_the_kind_does_not_know_is_refused_from_python_too(alice, ai_queue):
    """The API refuses unknown fields by name; a Python caller (a command, a test, another
    service) used to have them ignored: ``{"actions": False}`` dealt a game with actions."""
    with pytest.raises(ApiError) as refused:
        services.create_game(user=alice, kind="crazy_eights", opponents=["chaotic"],
                             options={"actions": False})
    assert refused.value.code == "unknown_fields"
    assert refused.value.details == {"fields": ["actions"]}
    assert not Game.objects.exists()
    game = services.create_game(user=alice, kind="crazy_eights", opponents=["chaotic"],
                                options={"rules": {"actions": False}})
    assert game.options["actions"] is False  # the engine's options, as the API would store
