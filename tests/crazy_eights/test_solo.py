"""Crazy Eights solo matches through the generic service: creation, moves, computer turns."""

import random

import pytest

from config.errors import ApiError
from games import kinds, services
from games.crazy_eights.engine import format_move
from games.models import Game, Move, Seat
from games.moderation.verification import verify_game
from tests.crazy_eights.conftest import run_computers

pytestmark = pytest.mark.django_db


def test_a_four_seat_match_starts_with_three_regulars_and_no_clock(solo, alice):
    solo.refresh_from_db()
    assert solo.kind == "crazy_eights" and solo.status == Game.Status.ACTIVE
    assert solo.seat_count == 4 and solo.current_seat == 0
    assert solo.turn_deadline is None  # a solo match waits for its person
    assert solo.options == {"actions": True, "several": True, "target": None, "classic": False}
    seats = list(solo.seats.order_by("index"))
    assert [(s.user_id, s.ai_level) for s in seats] == [
        (alice.pk, None), (None, "cautious"), (None, "aggressive"), (None, "strong"),
    ]
    assert [len(s.private["hand"]) for s in seats] == [7, 7, 7, 7]
    assert solo.state["history"][0]["events"][0]["kind"] == "round_started"


def test_rules_are_stored(alice, ai_queue, c8_seed):
    game = services.create_game(
        user=alice, kind="crazy_eights", opponents=["chaotic"],
        options={"rules": {"actions": False, "several": False, "classic": True, "target": 150}},
    )
    assert game.seat_count == 2
    assert game.options == {"actions": False, "several": False, "target": 150, "classic": True}


@pytest.mark.parametrize(
    "extra",
    [
        {"opponents": []},
        {"opponents": ["cautious"] * 4},
        {"opponents": ["random"]},  # the benchmarks' baseline is not offered
        {"opponents": ["beginner"]},  # a Crazy10s level
        {"opponents": ["cautious"], "options": {"rules": {"target": 120}}},
        {"opponents": ["cautious"], "options": {"rules": {"actions": "yes"}}},
        {"opponents": None},
    ],
)
def test_bad_creation_is_refused_and_creates_nothing(alice, ai_queue, extra):
    with pytest.raises(ApiError) as info:
        services.create_game(user=alice, kind="crazy_eights", **extra)
    assert info.value.code == "invalid"
    assert not Game.objects.exists() and not Seat.objects.exists()


def test_a_move_then_the_computers_reply_in_turn(
    solo, alice, ai_queue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        receipt = services.submit_move(
            game_id=solo.pk, user=alice, move="10H", expected_move_number=0
        )
    assert receipt.status == 201
    assert receipt.body["events"][0] == {"kind": "cards_played", "seat": 0, "cards": ["10H"]}
    assert receipt.body["game"]["position"]["top"] == "10H"
    assert ai_queue == [(solo.pk, 1)]
    run_computers(ai_queue, django_capture_on_commit_callbacks)
    solo.refresh_from_db()
    moves = list(Move.objects.filter(game=solo).order_by("number"))
    assert moves[0].kind == "play" and moves[0].public["move"] == "10H"
    # Every computer seat moved (or drew) until it was alice's turn again, or the match ended.
    assert solo.current_seat == 0 or solo.is_over
    assert {m.seat for m in moves} >= {0, 1}
    assert solo.turn_deadline is None


def test_stale_and_wrong_turn_moves_change_nothing(solo, alice, ai_queue):
    with pytest.raises(ApiError) as info:
        services.submit_move(game_id=solo.pk, user=alice, move="10H", expected_move_number=3)
    assert info.value.code == "stale_move_number"
    with pytest.raises(ApiError) as info:
        services.submit_move(game_id=solo.pk, user=alice, move="2C", expected_move_number=0)
    assert info.value.code in {"not_in_hand", "does_not_match"}
    solo.refresh_from_db()
    assert solo.move_number == 0 and not Move.objects.exists()


def test_a_whole_match_against_computers_finishes_and_verifies(
    alice, ai_queue, c8_seed, django_capture_on_commit_callbacks
):
    kind = kinds.get("crazy_eights")
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        game = services.create_game(user=alice, kind="crazy_eights", opponents=["chaotic"])
    for _ in range(3000):
        run_computers(ai_queue, capture)
        game.refresh_from_db()
        if game.is_over:
            break
        assert game.current_seat == 0 and not ai_queue
        move = kind.computer_move(kind.load(game.state), "cautious", random.Random(0))
        with capture(execute=True):
            services.submit_move(
                game_id=game.pk, user=alice, move=format_move(move),
                expected_move_number=game.move_number,
            )
    assert game.is_over and game.result["termination"] == "target_reached"
    results = sorted(game.seats.values_list("result", flat=True))
    assert results == ["loss", "win"]
    assert verify_game(game) == []


def test_resign_ends_a_solo_match(solo, alice):
    services.resign(game_id=solo.pk, user=alice)
    solo.refresh_from_db()
    assert solo.status == Game.Status.FINISHED
    assert solo.result["termination"] == "resignation"
    assert solo.seats.get(index=0).result == "loss"
