"""Vacations: the allowance, starting and ending, and the clocks standing still meanwhile."""

from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import ApiError
from games import clocks, services
from games.correspondence import rules
from games.correspondence import selectors as vacation_selectors
from games.correspondence import services as vacations
from games.correspondence.models import Vacation, VacationAllowance
from games.models import Game, Move
from games.notifications.services import reminders
from tests.helpers import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _creator_moves_first(fixed_seed):
    """Seat 0 (the game's creator) is to move first in every game here."""


def _game(alice, bob, **kw) -> Game:
    return services.create_game(user=alice, opponent={"username": bob.username}, **kw)


def _set_turn(game: Game, *, started: timedelta, left: timedelta, now) -> None:
    """The turn began ``started`` ago and has ``left`` to go."""
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=now - started, turn_deadline=now + left
    )


def test_a_new_player_has_seven_days_and_earns_one_a_week_up_to_thirty(user_factory):
    now = timezone.now()
    newcomer = user_factory()
    assert vacation_selectors.state(newcomer, now)["available_days"] == rules.STARTING_DAYS
    regular = user_factory(date_joined=now - timedelta(weeks=10))
    assert vacation_selectors.state(regular, now)["available_days"] == 17
    veteran = user_factory(date_joined=now - timedelta(weeks=200))
    assert vacation_selectors.state(veteran, now)["available_days"] == 30


def test_a_vacation_longer_than_the_days_earned_is_refused_and_changes_nothing(alice):
    with pytest.raises(ApiError) as refused:
        vacations.start(user=alice, days=8)
    assert refused.value.code == "vacation_too_long" and refused.value.status == 409
    assert refused.value.details == {"available_days": 7, "requested_days": 8}
    assert not Vacation.objects.exists()
    assert vacation_selectors.state(alice)["available_days"] == 7
    for days in (0, 31):
        with pytest.raises(ApiError) as invalid:
            vacations.start(user=alice, days=days)
        assert invalid.value.code == "invalid_vacation_days"
    assert not Vacation.objects.exists()


def test_days_are_taken_and_the_unused_part_comes_back(alice):
    start = timezone.now()
    vacations.start(user=alice, days=5, now=start)
    assert vacation_selectors.state(alice, start)["available_days"] == 2
    with pytest.raises(ApiError) as twice:
        vacations.start(user=alice, days=1, now=start)
    assert twice.value.code == "already_on_vacation"
    vacations.end(user=alice, now=start + timedelta(days=2))
    # 2 left + 3 unused + two days of accrual (2/7 of a day)
    assert vacation_selectors.state(alice, start + timedelta(days=2))["available_days"] == 5
    with pytest.raises(ApiError) as again:
        vacations.end(user=alice)
    assert again.value.code == "not_on_vacation"


def test_a_vacation_started_during_your_turn_pauses_it_and_resumes_the_time_left(
    alice, bob, ai_queue
):
    now = timezone.now()
    game = _game(alice, bob, turn_hours=72)  # alice to move
    _set_turn(game, started=timedelta(hours=60), left=timedelta(hours=12), now=now)
    game.seats.update(last_seen_at=None)
    vacations.start(user=alice, days=3, now=now)
    later = now + timedelta(days=2)  # past the old deadline: no timeout, no reminder
    assert clocks.sweep_expired_turns(now=later) == 0
    assert reminders.send_due_reminders(now=now + timedelta(hours=11, minutes=30)) == 0
    assert vacation_selectors.is_paused(game_id=game.pk)
    vacations.end(user=alice, now=later)
    game.refresh_from_db()
    assert game.turn_deadline == later + timedelta(hours=12)
    assert not vacation_selectors.is_paused(game_id=game.pk)
    assert clocks.sweep_expired_turns(now=later + timedelta(hours=11)) == 0
    assert clocks.sweep_expired_turns(now=later + timedelta(hours=12, seconds=1)) == 1
    assert Move.objects.get(game=game).is_timeout


def test_a_turn_that_begins_during_the_vacation_gets_its_whole_time_after_it(
    alice, bob, bob_client, ai_queue
):
    now = timezone.now()
    game = _game(alice, bob, turn_hours=24)
    vacations.start(user=bob, days=2, now=now)
    services.submit_move(game_id=game.pk, user=alice, move="pass", expected_move_number=0)
    game.refresh_from_db()
    assert game.current_seat == 1
    began = game.turn_started_at
    assert clocks.sweep_expired_turns(now=now + timedelta(days=1, hours=1)) == 0
    vacations.end_expired(now=now + timedelta(days=2))
    game.refresh_from_db()
    assert game.turn_deadline == now + timedelta(days=2) + timedelta(hours=24)
    assert began == game.turn_started_at


def test_both_players_on_vacation_each_pauses_only_their_own_turns(alice, bob, ai_queue):
    now = timezone.now()
    alices_turn = _game(alice, bob, turn_hours=24)
    bobs_turn = _game(bob, alice, turn_hours=24)
    for game in (alices_turn, bobs_turn):
        _set_turn(game, started=timedelta(hours=20), left=timedelta(hours=4), now=now)
    vacations.start(user=alice, days=2, now=now)
    vacations.start(user=bob, days=5, now=now)
    assert clocks.sweep_expired_turns(now=now + timedelta(days=1)) == 0
    vacations.end_expired(now=now + timedelta(days=2))  # alice's ran out, bob's runs on
    alices_turn.refresh_from_db()
    bobs_turn.refresh_from_db()
    assert alices_turn.turn_deadline == now + timedelta(days=2, hours=4)
    assert bobs_turn.turn_deadline == now + timedelta(hours=4)  # still paused
    assert vacation_selectors.is_paused(game_id=bobs_turn.pk)
    assert clocks.sweep_expired_turns(now=now + timedelta(days=3)) == 1  # alice's only
    assert Move.objects.filter(game=alices_turn).count() == 1
    assert not Move.objects.filter(game=bobs_turn).exists()


def test_a_sweep_after_the_end_time_but_before_the_vacation_is_ended_times_nothing_out(
    alice, bob, ai_queue
):
    now = timezone.now()
    game = _game(alice, bob, turn_hours=24)
    _set_turn(game, started=timedelta(hours=23), left=timedelta(hours=1), now=now)
    vacations.start(user=alice, days=1, now=now)
    end = now + timedelta(days=1)
    # The clock sweep runs first at the very moment the vacation is over...
    assert clocks.sweep_expired_turns(now=end) == 0
    assert clocks.time_out(game_id=game.pk, move_number=0, now=end) is False
    # ... then the vacation sweep ends it; the turn has its hour again.
    assert vacations.end_expired(now=end + timedelta(seconds=30)) == 1
    game.refresh_from_db()
    assert game.turn_deadline == end + timedelta(hours=1)
    assert vacations.end_expired(now=end + timedelta(minutes=1)) == 0  # idempotent


def test_a_table_game_is_not_paused(alice, bob, ai_queue):
    now = timezone.now()
    game = _game(alice, bob, turn_hours=24)
    Game.objects.filter(pk=game.pk).update(
        turn_seconds=30, turn_deadline=now - timedelta(seconds=1)
    )
    vacations.start(user=alice, days=1, now=now)
    assert not vacation_selectors.is_paused(game_id=game.pk)
    assert [g for g, _ in clocks.expired_turns(now=now)] == [game.pk]


def test_a_moderator_ends_a_vacation_and_it_is_recorded(alice, bob, user_factory, ai_queue):
    moderator = user_factory("mod", is_staff=True)
    vacations.start(user=alice, days=3)
    vacation = vacations.end(user=alice, by=moderator)
    assert vacation.ended_by == moderator and vacation.ended_at is not None
    assert VacationAllowance.objects.get(user=alice).balance_seconds >= 7 * rules.DAY_SECONDS - 60


def test_the_views_and_lists_say_until_when(alice, bob, alice_client, bob_client, ai_queue):
    game = _game(alice, bob)
    vacations.start(user=bob, days=2)
    view = alice_client.get(f"/api/v1/games/{game.pk}").json()
    assert [p["vacation_until"] is not None for p in view["players"]] == [False, True]
    assert view["to_move"] == 0 and view["deadline"] is not None  # alice's clock runs
    services.submit_move(game_id=game.pk, user=alice, move="pass", expected_move_number=0)
    paused = alice_client.get(f"/api/v1/games/{game.pk}").json()
    assert paused["to_move"] == 1 and paused["deadline"] is None  # bob's stands still
    assert alice_client.get("/api/v1/games").json()["results"][0]["deadline"] is None
    vacations.end(user=bob)
    assert alice_client.get(f"/api/v1/games/{game.pk}").json()["deadline"] is not None
    vacations.start(user=bob, days=1)
    until = Vacation.objects.get(user=bob, ended_at__isnull=True).ends_at
    view = alice_client.get(f"/api/v1/games/{game.pk}").json()
    listed = alice_client.get("/api/v1/games").json()["results"][0]
    assert listed["players"][1]["vacation_until"] == view["players"][1]["vacation_until"]
    assert view["players"][1]["vacation_until"].startswith(until.strftime("%Y-%m-%dT%H:%M"))


def test_the_api_starts_and_ends_a_vacation(alice, alice_client):
    state = alice_client.get("/api/v1/me/vacation").json()
    assert state == {"available_days": 7, "maximum_days": 30, "days_per_week": 1,
                     "vacation": None}
    assert_error(alice_client.post("/api/v1/me/vacation", {"days": 9}, format="json"),
                 409, "vacation_too_long")
    assert_error(alice_client.post("/api/v1/me/vacation", {"days": 0}, format="json"),
                 400, "invalid")
    assert_error(alice_client.post("/api/v1/me/vacation", {"days": 2, "x": 1}, format="json"),
                 400, "unknown_fields")
    assert_error(alice_client.delete("/api/v1/me/vacation"), 409, "not_on_vacation")
    assert not Vacation.objects.exists()
    started = alice_client.post("/api/v1/me/vacation", {"days": 2}, format="json")
    assert started.status_code == 201
    assert started.json()["available_days"] == 5 and started.json()["vacation"]["ends_at"]
    ended = alice_client.delete("/api/v1/me/vacation")
    assert ended.status_code == 200 and ended.json()["vacation"] is None
    assert ended.json()["available_days"] == 6  # almost two days back: whole days shown
