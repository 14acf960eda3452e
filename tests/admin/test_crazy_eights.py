"""Crazy Eights games and tables in the admin: every hand and the stock for staff only, and the
moderation actions (abort, award to any seat, re-queue a turn the server plays), recorded."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import kinds
from games.crazy_eights.engine import format_hand
from games.crazy_eights.engine.moves import format_move
from games.models import Game, Seat
from games.moderation.models import ModerationAction
from games.tables import services as tables
from games.tables.models import Table

pytestmark = pytest.mark.django_db

GAMES = reverse("admin:games_game_changelist")
TABLES = reverse("admin:tables_table_changelist")


@pytest.fixture
def solo(alice, ai_queue, monkeypatch):
    """alice (seat 0) against three regulars: a four-seat Crazy Eights game."""
    from games import services

    monkeypatch.setattr("games.services.creation._new_seed", lambda: 5)
    return services.create_game(
        user=alice, kind="crazy_eights", opponents=["cautious", "aggressive", "strong"]
    )


@pytest.fixture
def timers(monkeypatch):
    from games import dispatch

    queued: list[tuple[int, int]] = []
    monkeypatch.setattr(dispatch, "enqueue_turn_deadline", lambda g, n, d: queued.append((g, n)))
    return queued


@pytest.fixture
def table_game(alice, bob, ai_queue, timers, django_capture_on_commit_callbacks) -> Game:
    """A dealt table: alice (host, seat 0) and bob (seat 1), two computer regulars; the
    computers' first turns played, so that a person is to move."""
    from games import services

    table = tables.create_table(user=alice, options={"target": 100, "rules": {"actions": True}})
    tables.join(user=bob, code=table.code)
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.deal(user=alice, code=table.code)
    while ai_queue:
        game_id, number = ai_queue.pop(0)
        with django_capture_on_commit_callbacks(execute=True):
            services.play_ai_turn(game_id=game_id, expected_move_number=number)
    return Game.objects.get(pk=table.game_id)


@pytest.fixture
def finished_announced(game_effects):
    """The games whose end was announced after commit, in order."""
    return lambda: [game for name, game, _ in game_effects if name == "game_finished"]


def _page(client, game: Game) -> str:
    response = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _act(client, action: str, *ids: int):
    response = client.post(GAMES, {"action": action, "_selected_action": [str(i) for i in ids]})
    assert response.status_code == 302, response.content
    return response


def _engine(game: Game):
    game.refresh_from_db()
    return kinds.get("crazy_eights").load(game.state).engine


@pytest.mark.parametrize("which", ["solo", "table_game"])
def test_staff_see_every_hand_and_the_stock_in_draw_order(moderator_client, request, which):
    game = request.getfixturevalue(which)
    engine = _engine(game)
    assert len(engine.hands) == 4 and len(engine.stock) > 10
    page = _page(moderator_client, game)
    for index, hand in enumerate(engine.hands):
        assert re.search(rf"hand of seat {index}</th><td>{re.escape(format_hand(hand))}<", page)
    stock = format_hand(engine.stock)
    assert f"stock (draw order, {len(engine.stock)})</th><td>{stock}<" in page
    for seat in Seat.objects.filter(game=game):  # the seats' mirrors of their hands too
        assert " ".join(seat.private["hand"]) in page


@pytest.mark.parametrize("which", ["solo", "table_game"])
def test_a_player_cannot_open_the_game_page(alice, request, which):
    game = request.getfixturevalue(which)
    client = Client()
    client.force_login(alice)
    response = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert response.status_code == 302 and reverse("admin:login") in response["Location"]
    assert b"stock" not in response.content and b"hand of seat" not in response.content


def test_staff_without_the_game_permission_are_refused(user_factory, solo):
    clerk = user_factory("clerk", is_staff=True)  # staff, but not a moderator
    client = Client()
    client.force_login(clerk)
    response = client.get(reverse("admin:games_game_change", args=[solo.pk]))
    assert response.status_code == 403
    assert b"stock" not in response.content


def test_abort_a_crazy_eights_game(moderator_client, moderator, solo, finished_announced,
                                   django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator_client, "abort_games", solo.pk)
    game = Game.objects.get(pk=solo.pk)
    assert game.status == Game.Status.ABORTED and game.result["winner"] is None
    action = ModerationAction.objects.get()
    assert (action.moderator, action.action, action.game_id) == (moderator, "abort_game", solo.pk)
    assert finished_announced() == [solo.pk]


@pytest.mark.parametrize("seat_index", [0, 1, 2, 3])
def test_award_a_crazy_eights_game_to_any_seat(moderator_client, solo, seat_index,
                                               finished_announced,
                                               django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator_client, f"award_to_seat_{seat_index}", solo.pk)
    game = Game.objects.get(pk=solo.pk)
    assert game.status == Game.Status.FINISHED
    assert (game.result["termination"], game.result["winner"]) == ("awarded", seat_index)
    action = ModerationAction.objects.get()
    assert action.action == "award_game" and action.details["seat_index"] == seat_index
    seat = Seat.objects.get(game=solo, index=seat_index)
    assert action.target_user == seat.user and action.details["ai_level"] == seat.ai_level
    assert finished_announced() == [solo.pk]


def test_award_to_a_seat_a_game_lacks_is_refused(moderator_client, human_game):
    response = moderator_client.post(
        GAMES, {"action": "award_to_seat_3", "_selected_action": [str(human_game.pk)]},
        follow=True,
    )
    assert "refused" in response.content.decode()
    assert Game.objects.get(pk=human_game.pk).status == Game.Status.ACTIVE
    assert not ModerationAction.objects.exists()


def _hand_over_to_a_computer(game: Game, ai_queue, capture) -> None:
    """Let seat 0 (a person) move so that a computer regular is to move."""
    from games import services

    game.refresh_from_db()
    assert game.current_seat == 0
    kind = kinds.get("crazy_eights")
    move = kind.computer_move(kind.load(game.state), "cautious", random.Random(0))
    with capture(execute=True):
        services.submit_move(game_id=game.pk, user=game.seats.get(index=0).user,
                             move=format_move(move), expected_move_number=game.move_number)
    game.refresh_from_db()


def test_requeue_a_computer_turn_of_a_crazy_eights_game(
    moderator_client, solo, ai_queue, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    _hand_over_to_a_computer(solo, ai_queue, capture)
    assert Seat.objects.get(game=solo, index=solo.current_seat).is_computer
    ai_queue.clear()
    with capture(execute=False) as callbacks:
        _act(moderator_client, "requeue_computer_turns", solo.pk)
    assert ai_queue == []  # only after the commit
    for callback in callbacks:
        callback()
    assert ai_queue == [(solo.pk, solo.move_number)]
    action = ModerationAction.objects.get()
    assert action.action == "requeue_ai_turn"
    computer = Seat.objects.get(game=solo, index=solo.current_seat)
    assert action.details == {"move_number": solo.move_number, "seat_index": computer.index,
                              "level": computer.ai_level, "away": False}


def test_requeue_an_away_seat_turn_at_a_table(
    moderator_client, table_game, ai_queue, django_capture_on_commit_callbacks
):
    game = table_game
    person = Seat.objects.get(game=game, index=game.current_seat)
    assert person.user is not None and game.status == Game.Status.ACTIVE
    _act(moderator_client, "requeue_computer_turns", game.pk)  # a person's own turn: refused
    assert not ModerationAction.objects.exists()
    Seat.objects.filter(pk=person.pk).update(away=True)  # they missed their deadline
    ai_queue.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator_client, "requeue_computer_turns", game.pk)
    assert ai_queue == [(game.pk, game.move_number)]
    action = ModerationAction.objects.get()
    assert action.details == {"move_number": game.move_number, "seat_index": person.index,
                              "level": None, "away": True}


def test_abort_and_award_a_table_game(moderator_client, table_game, bob,
                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator_client, "award_to_seat_1", table_game.pk)
    game = Game.objects.get(pk=table_game.pk)
    assert (game.status, game.result["winner"]) == (Game.Status.FINISHED, 1)
    action = ModerationAction.objects.get()
    assert (action.action, action.target_user) == ("award_game", bob)
    _act(moderator_client, "abort_games", table_game.pk)  # over already: refused, unrecorded
    assert ModerationAction.objects.count() == 1


def test_the_stuck_filter_lists_an_away_seat_turn(moderator_client, table_game):
    from datetime import timedelta

    from django.utils import timezone

    Game.objects.filter(pk=table_game.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=5)
    )
    page = moderator_client.get(GAMES, {"stale": "computer"}).content.decode()
    assert f"/{table_game.pk}/change/" not in page  # a person is there and to move
    Seat.objects.filter(game=table_game, index=table_game.current_seat).update(away=True)
    page = moderator_client.get(GAMES, {"stale": "computer"}).content.decode()
    assert f"/{table_game.pk}/change/" in page


def test_the_table_list_and_page(user_factory, table_game, alice, carol,
                                 django_assert_max_num_queries):
    admin_user = user_factory("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin_user)
    table = Table.objects.get(game=table_game)
    open_table = tables.create_table(user=carol, options={"target": 200, "rules": {}})
    with django_assert_max_num_queries(12):
        page = client.get(TABLES).content.decode()
    assert table.code in page and open_table.code in page
    assert "0: alice, 1: bob" in page and "0: carol" in page
    assert "Action cards: 2 is Draw 2" in page and "The match ends at 200 points." in page
    game_url = reverse("admin:games_game_change", args=[table_game.pk])
    assert f'href="{game_url}"' in page
    detail = client.get(reverse("admin:tables_table_change", args=[table.pk]))
    assert detail.status_code == 200
    text = detail.content.decode()
    assert table.code in text and f'href="{game_url}"' in text
    assert "seat 2: computer (" in text and "seat 1: bob" in text


def test_a_player_cannot_open_the_table_admin(alice, table_game):
    client = Client()
    client.force_login(alice)
    response = client.get(TABLES)
    assert response.status_code == 302 and reverse("admin:login") in response["Location"]
