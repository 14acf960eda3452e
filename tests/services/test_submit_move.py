"""services.submit_move: the checks, what a move stores, idempotency and side effects."""

from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import ApiError
from games import services
from games.models import Game, IdempotencyRecord, Move, Seat
from games.services import moves

pytestmark = pytest.mark.django_db

OPENING = "g7=5 h7=5"  # legal for alice with the fixed seed: (5 + 5) × 2 on the start square


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (
        game.state,
        game.move_number,
        game.status,
        game.turn_deadline,
        list(Seat.objects.filter(game=game).values_list("score", "private")),
        Move.objects.filter(game=game).count(),
        IdempotencyRecord.objects.count(),
    )


def test_a_placement_is_stored(human_game, alice):
    before = timezone.now()
    receipt = services.submit_move(
        game_id=human_game.pk, user=alice, move=OPENING, expected_move_number=0
    )
    assert receipt.status == 201 and not receipt.replayed
    assert receipt.body["score"] == 20
    assert receipt.body["lines"] == [
        {"direction": "across", "start": "g7", "end": "h7", "values": [5, 5], "score": 20}
    ]
    assert len(receipt.body["drawn"]) == 2
    assert receipt.body["game"]["move_number"] == 1
    assert receipt.body["game"]["your_turn"] is False
    game = Game.objects.get(pk=human_game.pk)
    assert game.move_number == 1 and game.state["move_number"] == 1
    assert game.current_seat == 1
    assert game.turn_deadline >= before + timedelta(hours=72)
    move = Move.objects.get(game=game)
    assert (move.number, move.seat, move.kind, move.notation, move.score) == (
        1, 0, "placement", OPENING, 20
    )
    assert move.public == {"lines": receipt.body["lines"], "drawn": 2}
    seat = game.seats.get(index=0)
    assert seat.score == 20 and len(seat.private["rack"]) == 7


def test_structured_tiles_are_accepted(human_game, alice):
    tiles = [{"square": "g7", "digit": 5, "wild": False}, {"square": "h7", "digit": 5}]
    receipt = services.submit_move(
        game_id=human_game.pk, user=alice, move={"tiles": tiles}, expected_move_number=0
    )
    assert receipt.body["score"] == 20
    assert Move.objects.get(game=human_game).notation == OPENING


@pytest.mark.parametrize(
    ("who", "move", "expected", "status", "code"),
    [
        ("carol", OPENING, 0, 403, "not_a_player"),
        ("bob", OPENING, 0, 409, "not_your_turn"),
        ("alice", OPENING, 3, 409, "stale_move_number"),
        ("alice", "g7=5 h7=3", 0, 400, "bad_sum"),
        ("alice", "g7=9 h7=1", 0, 400, "not_in_rack"),
        ("alice", "a1=5 b1=5", 0, 400, "first_move_centre"),
        ("alice", "hello world", 0, 400, "bad_notation"),
        ("alice", "swap 9", 0, 400, "not_in_rack"),
    ],
)
def test_refusals_leave_the_game_unchanged(
    human_game, alice, bob, carol, who, move, expected, status, code
):
    user = {"alice": alice, "bob": bob, "carol": carol}[who]
    before = snapshot(human_game)
    with pytest.raises(ApiError) as caught:
        services.submit_move(
            game_id=human_game.pk, user=user, move=move, expected_move_number=expected
        )
    assert (caught.value.status, caught.value.code) == (status, code)
    assert snapshot(human_game) == before


def test_illegal_move_carries_the_engine_details(human_game, alice):
    with pytest.raises(ApiError) as caught:
        services.submit_move(
            game_id=human_game.pk, user=alice, move="g7=5 h7=3", expected_move_number=0
        )
    assert caught.value.details["line"]["sum"] == 8


def test_unknown_game_is_404(alice):
    with pytest.raises(ApiError) as caught:
        services.submit_move(game_id=999999, user=alice, move="pass", expected_move_number=0)
    assert caught.value.status == 404


def test_finished_game_refuses_moves(human_game, alice, bob):
    services.resign(game_id=human_game.pk, user=bob)
    before = snapshot(human_game)
    with pytest.raises(ApiError) as caught:
        services.submit_move(game_id=human_game.pk, user=alice, move="pass", expected_move_number=1)
    assert (caught.value.status, caught.value.code) == (409, "game_over")
    assert snapshot(human_game) == before


def test_swap_keeps_its_tiles_private(human_game, alice):
    services.submit_move(
        game_id=human_game.pk, user=alice, move="swap 0 1 5", expected_move_number=0
    )
    move = Move.objects.get(game=human_game)
    assert (move.kind, move.notation, move.public_notation, move.public["drawn"]) == (
        "swap", "swap 0 1 5", "swap 3", 3
    )


def test_idempotency_key_replays_the_first_response(human_game, alice):
    first = services.submit_move(
        game_id=human_game.pk, user=alice, move=OPENING, expected_move_number=0,
        idempotency_key="abc",
    )
    again = services.submit_move(
        game_id=human_game.pk, user=alice, move=OPENING, expected_move_number=0,
        idempotency_key="abc",
    )
    assert again.replayed and again.status == 201 and again.body == first.body
    assert Move.objects.filter(game=human_game).count() == 1


def test_idempotency_key_of_another_game_is_refused(human_game, alice, bob):
    other = services.create_game(user=alice, opponent={"username": "bob"})
    services.submit_move(
        game_id=human_game.pk, user=alice, move=OPENING, expected_move_number=0,
        idempotency_key="k",
    )
    with pytest.raises(ApiError) as caught:
        services.submit_move(
            game_id=other.pk, user=alice, move=OPENING, expected_move_number=0,
            idempotency_key="k",
        )
    assert (caught.value.status, caught.value.code) == (409, "idempotency_key_reused")
    assert Move.objects.filter(game=other).count() == 0


def test_idempotency_key_stored_meanwhile_for_another_game_plays_nothing(
    human_game, alice, bob, monkeypatch
):
    """A concurrent request on another game stores the same key after our check: 409."""
    other = services.create_game(user=alice, opponent={"username": "bob"})
    record_move = moves._record_move

    def record_then_race(game, *args, **kwargs):
        facts = record_move(game, *args, **kwargs)
        IdempotencyRecord.objects.create(
            user=alice, key="k", game=other, response_status=201, response_body={}
        )
        return facts

    monkeypatch.setattr(moves, "_record_move", record_then_race)
    with pytest.raises(ApiError) as caught:
        services.submit_move(
            game_id=human_game.pk, user=alice, move=OPENING, expected_move_number=0,
            idempotency_key="k",
        )
    assert (caught.value.status, caught.value.code) == (409, "idempotency_key_reused")
    human_game.refresh_from_db()
    assert human_game.move_number == 0
    assert Move.objects.filter(game=human_game).count() == 0


def test_next_turn_signal_and_computer_turn_after_commit(
    alice, fixed_seed, ai_queue, game_effects, django_capture_on_commit_callbacks
):
    game = services.create_game(user=alice, opponent={"ai": "beginner"})
    game_effects.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=alice, move=OPENING, expected_move_number=0)
    turns = [(g, d["seat"], d["move_number"]) for name, g, d in game_effects
             if name == "turn_started"]
    assert turns == [(game.pk, 1, 1)]
    assert ai_queue == [(game.pk, 1)]


def test_six_scoreless_turns_finish_the_game(
    human_game, alice, bob, game_effects, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(6):
            user = alice if n % 2 == 0 else bob
            services.submit_move(
                game_id=human_game.pk, user=user, move="pass", expected_move_number=n
            )
    finished = [g for name, g, _ in game_effects if name == "game_finished"]
    game = Game.objects.get(pk=human_game.pk)
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert game.turn_deadline is None and game.current_seat is None
    # racks 0123555 (21) and 1234668 (30) are subtracted
    assert game.result == {
        "termination": "scoreless_turns", "winner": 0, "winners": [0], "scores": [-21, -30],
        "adjustments": [-21, -30],
    }
    assert list(game.seats.values_list("score", flat=True)) == [-21, -30]
    assert finished == [game.pk]
