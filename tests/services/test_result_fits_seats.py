"""A stored result has one score and one adjustment per seat (issue 30): the database refuses
anything else whoever writes it, the services check before they save, ``verify_games`` reports a
game that does not fit, and a game stored broken anyway still reads: its list entry and its view
answer what they can, and one error names it."""

from __future__ import annotations

import logging
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction

from games import services
from games.kinds.base import NONE, GameOutcome
from games.models import Game
from games.results import result_problems
from games.services._common import _finish

pytestmark = pytest.mark.django_db

BROKEN = {"termination": "aborted", "winner": None, "winners": [], "scores": [0],
          "adjustments": [0]}


@pytest.fixture
def over(human_game, alice):
    services.resign(game_id=human_game.pk, user=alice)
    human_game.refresh_from_db()
    return human_game


@pytest.mark.parametrize("result", [
    BROKEN,
    {**BROKEN, "scores": [0, 0]},  # adjustments still short
    {**BROKEN, "scores": [0, 0, 0], "adjustments": [0, 0, 0]},
    {"termination": "aborted"},
    {**BROKEN, "scores": 0, "adjustments": [0, 0]},
    [0, 0],
])
def test_the_database_refuses_a_result_that_does_not_fit(over, result):
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=over.pk).update(result=result)
    over.result = result
    with pytest.raises(IntegrityError), transaction.atomic():
        over.save()
    with pytest.raises(ValidationError) as refused:
        over.full_clean()
    assert "result" in refused.value.message_dict
    over.refresh_from_db()
    assert result_problems(over.result, 2) == []


def test_a_fitting_result_passes_every_check(over):
    assert len(over.result["scores"]) == 2
    over.full_clean()  # the constraint evaluated on the row's values, and clean()
    over.result = None
    over.full_clean()


def test_the_services_refuse_to_finish_with_a_result_that_does_not_fit(human_game):
    outcome = GameOutcome("aborted", (), (0,), (0,), (NONE,))
    with pytest.raises(ValueError, match="refusing to store its result"):
        _finish(human_game, list(human_game.seats.all()), outcome, human_game.created_at,
                aborted=True)


def test_result_problems_names_each_misfit():
    assert result_problems(None, 2) == []
    assert result_problems({**BROKEN, "scores": [0, 0], "adjustments": [0, 0]}, 2) == []
    problems = result_problems({**BROKEN, "winners": [3], "winner": True}, 2)
    assert any("scores has 1 entries for 2 seats" in p for p in problems)
    assert any("winners" in p for p in problems) and any("winner is" in p for p in problems)
    assert result_problems("lost", 2) == ["result is str, not an object"]


def test_verify_games_reports_a_result_that_does_not_fit(over, force_result, alice, ai_queue):
    waiting = services.create_game(user=alice, opponent={"random": True})
    force_result(waiting.pk, BROKEN, status="aborted")
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_games", "--all", stdout=out)
    assert failed.value.returncode == 1
    lines = out.getvalue().splitlines()
    assert f"game {waiting.pk} (aborted): result.scores has 1 entries for 2 seats: [0]" in lines
    assert not [line for line in lines if line.startswith(f"game {over.pk} ")]


def test_a_broken_game_still_reads_and_logs_one_error(
    force_result, alice, alice_client, ai_queue, caplog, client
):
    """The game of issue 30, stored before the fix: aborted, one score for two seats."""
    waiting = services.create_game(user=alice, opponent={"random": True})
    force_result(waiting.pk, BROKEN, status="aborted")
    with caplog.at_level(logging.ERROR, logger="games.selectors"):
        listed = alice_client.get("/api/v1/games?status=finished")
    assert listed.status_code == 200, listed.content
    (entry,) = listed.json()["results"]
    assert entry["id"] == waiting.pk and entry["status"] == "aborted"
    assert entry["result"] == {
        "termination": "aborted", "outcome": "none", "winners": [],
        "scores": {"you": 0, "opponent": 0}, "adjustments": {"you": 0, "opponent": 0},
    }
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and f"game {waiting.pk}:" in errors[0].getMessage()
    assert "scores has 1 entries for 2 seats" in errors[0].getMessage()

    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="games.selectors"):
        view = alice_client.get(f"/api/v1/games/{waiting.pk}")
    assert view.status_code == 200, view.content
    assert view.json()["result"]["outcome"] == "none"
    assert len([r for r in caplog.records if r.levelno == logging.ERROR]) == 1
    # The web pages of the player read it too.
    client.force_login(alice)
    assert client.get("/").status_code == 200
    assert client.get(f"/games/{waiting.pk}").status_code == 200


def test_a_broken_result_shows_what_fits(force_result, human_game, alice_client):
    """Whatever of a stored result fits is shown: a known termination, the winners that are
    seats, the scores that are numbers (the seats' own scores for the rest)."""
    services.submit_move(game_id=human_game.pk, user=human_game.seats.get(index=0).user,
                         move="g7=5 h7=5", expected_move_number=0)
    force_result(human_game.pk, {"termination": "resignation", "winner": 0, "winners": [0, 7],
                                 "scores": [20, "x", 4], "adjustments": None},
                 status="finished")
    result = alice_client.get(f"/api/v1/games/{human_game.pk}").json()["result"]
    assert result == {
        "termination": "resignation", "outcome": "win", "winners": [0],
        "scores": {"you": 20, "opponent": 0}, "adjustments": {"you": 0, "opponent": 0},
    }
    force_result(human_game.pk, {"termination": "nonsense", "scores": None}, status="finished")
    result = alice_client.get("/api/v1/games?status=finished").json()["results"][0]["result"]
    assert result["termination"] == "aborted" and result["scores"] == {"you": 20, "opponent": 0}
