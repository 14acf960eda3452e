"""resign, play_ai_turn, play_timeout, preview, abort/award and note_seen."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import ApiError
from games import kinds, services
from games.models import Game, Move, Seat

pytestmark = pytest.mark.django_db


def test_resign_on_the_opponents_turn(human_game, bob):
    services.resign(game_id=human_game.pk, user=bob)  # alice is to move
    game = Game.objects.get(pk=human_game.pk)
    assert game.status == Game.Status.FINISHED
    assert game.result["termination"] == "resignation" and game.result["winner"] == 0
    move = Move.objects.get(game=game)
    assert (move.seat, move.kind, move.number) == (1, "resign", 1)
    with pytest.raises(ApiError) as caught:
        services.resign(game_id=game.pk, user=bob)
    assert caught.value.code == "game_over"


def test_resign_by_a_stranger_is_403(human_game, carol):
    with pytest.raises(ApiError) as caught:
        services.resign(game_id=human_game.pk, user=carol)
    assert (caught.value.status, caught.value.code) == (403, "not_a_player")
    assert Game.objects.get(pk=human_game.pk).status == Game.Status.ACTIVE


def test_withdrawing_a_random_request_cancels_it_with_a_result_per_seat(alice):
    game = services.create_game(user=alice, opponent={"random": True})
    services.resign(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.result["termination"] == "cancelled"
    assert game.result["scores"] == [0, 0] and game.result["adjustments"] == [0, 0]


def test_ai_turn_plays_the_seeded_move(alice, monkeypatch, ai_queue):
    # the computer moves first
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240601)
    game = services.create_game(user=alice, opponent={"ai": "casual"})
    kind = kinds.get("crazy10s")
    state = kind.load(game.state)
    expected = kind.play(
        state, kind.computer_move(state, "casual", random.Random(f"{game.seed}:ai:0"))
    )
    move = services.play_ai_turn(game_id=game.pk, expected_move_number=0)
    assert move is not None and move.seat == 1 and move.number == 1
    game.refresh_from_db()
    assert game.state == kind.dump(expected.state)
    assert game.current_seat == 0
    # a retry of the same task (same expected number) does nothing
    assert services.play_ai_turn(game_id=game.pk, expected_move_number=0) is None
    assert Move.objects.filter(game=game).count() == 1


def test_ai_turn_is_a_no_op_on_a_human_turn(human_game):
    assert services.play_ai_turn(game_id=human_game.pk, expected_move_number=0) is None
    assert services.play_ai_turn(game_id=987654, expected_move_number=0) is None
    assert Move.objects.count() == 0


def test_timeout_only_after_the_deadline(human_game):
    assert services.play_timeout(game_id=human_game.pk, expected_move_number=0) is None
    later = human_game.turn_deadline + timedelta(seconds=1)
    assert services.play_timeout(game_id=human_game.pk, expected_move_number=5, now=later) is None
    move = services.play_timeout(game_id=human_game.pk, expected_move_number=0, now=later)
    assert (move.kind, move.is_timeout, move.notation, move.seat) == ("timeout", True, "pass", 0)
    game = Game.objects.get(pk=human_game.pk)
    assert game.current_seat == 1 and game.turn_deadline == later + timedelta(hours=72)
    assert game.state["scoreless_turns"] == 1


def test_preview_scores_without_playing(human_game, alice, bob):
    before = Game.objects.get(pk=human_game.pk).state
    legal = services.preview_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5")
    assert legal["legal"] is True and legal["score"] == 20 and legal["error"] is None
    # bob may preview against his own rack although it is alice's turn
    bobs = services.preview_move(game_id=human_game.pk, user=bob, move="g7=4 h7=6")
    assert bobs["legal"] is True and bobs["score"] == 20
    bad = services.preview_move(game_id=human_game.pk, user=alice, move="g7=5 h7=3")
    assert bad["legal"] is False and bad["error"]["code"] == "bad_sum"
    assert services.preview_move(game_id=human_game.pk, user=alice, move="pass")["score"] == 0
    assert Game.objects.get(pk=human_game.pk).state == before
    assert Move.objects.count() == 0


def test_abort_and_award(human_game, alice, bob):
    services.award_game(game_id=human_game.pk, seat_index=1)
    human_game.refresh_from_db()
    assert human_game.status == Game.Status.FINISHED
    assert human_game.result["termination"] == "awarded" and human_game.result["winner"] == 1
    other = services.create_game(user=alice, opponent={"username": "bob"})
    services.abort_game(game_id=other.pk)
    other.refresh_from_db()
    assert other.status == Game.Status.ABORTED and other.result["winner"] is None
    with pytest.raises(ApiError):
        services.abort_game(game_id=other.pk)


def test_note_seen_writes_at_most_every_30_seconds(human_game, django_assert_num_queries):
    seat = Seat.objects.get(game=human_game, index=0)
    now = timezone.now()
    with django_assert_num_queries(1):
        services.note_seen(seat=seat, now=now)
    with django_assert_num_queries(0):
        services.note_seen(seat=seat, now=now + timedelta(seconds=10))
    with django_assert_num_queries(1):
        services.note_seen(seat=seat, now=now + timedelta(seconds=31))
    assert Seat.objects.get(pk=seat.pk).last_seen_at == now + timedelta(seconds=31)
