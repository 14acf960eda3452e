"""A computer's turn never fails, nor does a hint: when a regular's search raises, the simplest
legal move (the first legal one) is played or suggested, and the failure is logged with the
game and the move number (issue 24)."""

import logging

import pytest

from games import services
from games.crazy_eights import engine as c8
from games.crazy_eights.engine import hints, players
from games.models import Move
from tests.crazy_eights.conftest import run_computers

pytestmark = pytest.mark.django_db


def failing_search(k, rng):
    raise RuntimeError("a playout did not end its round")


@pytest.fixture
def failing_regulars(monkeypatch):
    for level in ("cautious", "aggressive", "chaotic", "strong"):
        monkeypatch.setitem(players.REGULARS, level, failing_search)


def test_a_failing_search_plays_the_first_legal_move_and_logs_the_game_and_move(
    solo, alice, ai_queue, failing_regulars, caplog, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=solo.pk, user=alice, move="10H", expected_move_number=0)
    with caplog.at_level(logging.ERROR, logger="games.services.computer"):
        run_computers(ai_queue, django_capture_on_commit_callbacks)
    solo.refresh_from_db()
    computer_moves = list(Move.objects.filter(game=solo, number__gt=1).order_by("number"))
    # The computers played on (the game did not stall) until it was alice's turn again.
    assert computer_moves and (solo.current_seat == 0 or solo.is_over)
    # Each move was the first legal one, replayed from the start of the match.
    kind_state = c8.new_match(seed=solo.seed, options=c8.Options.from_dict(
        {**solo.options, "players": solo.seat_count}))
    kind_state = c8.apply_move(kind_state, "10H").state
    for move in computer_moves:
        assert move.public["move"] == c8.format_move(c8.legal_moves(kind_state)[0])
        kind_state = c8.apply_move(kind_state, move.public["move"]).state
    failures = [r for r in caplog.records if "computer move failed" in r.getMessage()]
    assert len(failures) == len(computer_moves)
    assert f"game {solo.pk}, move 1," in failures[0].getMessage()
    assert failures[0].exc_info is not None  # the traceback is kept for whoever debugs it


def test_a_failing_search_without_a_fallback_still_raises(solo, alice, ai_queue, monkeypatch):
    """A kind without a fallback keeps the old behaviour: the error reaches the worker."""
    from games.crazy_eights.kind import CrazyEightsKind

    monkeypatch.setattr(CrazyEightsKind, "computer_fallback", lambda self, state: None)
    monkeypatch.setitem(players.REGULARS, "cautious", failing_search)
    services.submit_move(game_id=solo.pk, user=alice, move="10H", expected_move_number=0)
    with pytest.raises(RuntimeError):
        services.play_ai_turn(game_id=solo.pk, expected_move_number=1)
    assert not Move.objects.filter(game=solo, number=2).exists()


def test_the_hint_answers_a_legal_move_when_the_search_fails(
    alice_client, solo, caplog, monkeypatch
):
    monkeypatch.setattr(hints, "_SEARCH", failing_search)
    with caplog.at_level(logging.ERROR, logger="games.selectors"):
        answer = alice_client.get(f"/api/v1/games/{solo.pk}/hint")
    assert answer.status_code == 200
    state = c8.new_match(seed=solo.seed, options=c8.Options(players=4))
    legal = [c8.format_move(m) for m in c8.legal_moves(state)]
    assert answer.json()["move"] in legal
    assert answer.json()["move"] == hints.simple_hint(c8.view_for(state, 0))["move"]
    assert answer.json()["reason"]["code"].startswith("hint_")
    assert answer.json()["reason"]["message"]
    failures = [r for r in caplog.records if "hint failed" in r.getMessage()]
    assert len(failures) == 1 and f"game {solo.pk}, move 0" in failures[0].getMessage()


def test_the_working_search_is_not_replaced(alice_client, solo, caplog):
    with caplog.at_level(logging.ERROR):
        answer = alice_client.get(f"/api/v1/games/{solo.pk}/hint")
    assert answer.status_code == 200
    assert not [r for r in caplog.records if "hint failed" in r.getMessage()]
