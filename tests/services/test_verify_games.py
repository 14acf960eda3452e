"""``manage.py verify_games``: clean games pass, tampered ones are reported with exit code 1."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import kinds, services
from games.models import Game, Move, Seat

pytestmark = pytest.mark.django_db


def _verify(*args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except CommandError as exc:
        return exc.returncode, out.getvalue() + str(exc)
    return 0, out.getvalue()


def _play_to_the_end(game: Game, users: dict[int, object], max_moves: int = 300) -> Game:
    """Both players play the best-scoring legal placement, or pass, until the game ends."""
    kind = kinds.get(game.kind)
    for _ in range(max_moves):
        game.refresh_from_db()
        if game.is_over:
            return game
        state = kind.load(game.state)
        placements = kind.legal_placements(state)
        best = max(placements, key=lambda p: p.score, default=None)
        move = "pass" if best is None else kind.play(state, best).record.notation
        services.submit_move(
            game_id=game.pk, user=users[game.current_seat], move=move,
            expected_move_number=game.move_number,
        )
    raise AssertionError("the game did not end")


@pytest.fixture
def finished_game(human_game, alice, bob):
    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0)
    services.submit_move(game_id=human_game.pk, user=bob, move="swap 1 2",
                         expected_move_number=1)
    services.submit_move(game_id=human_game.pk, user=alice, move="pass", expected_move_number=2)
    services.resign(game_id=human_game.pk, user=bob)
    return Game.objects.get(pk=human_game.pk)


def test_clean_games_pass(finished_game, user_factory, ai_queue):
    a, b = user_factory(), user_factory()
    aborted = services.create_game(user=a, opponent={"username": b.username})
    services.abort_game(game_id=aborted.pk)
    code, out = _verify()
    assert code == 0, out
    assert "verified 2 game(s): 2 consistent, 0 with 0 difference(s)" in out


def test_a_game_played_to_its_end_replays_exactly(human_game, alice, bob):
    game = _play_to_the_end(human_game, {0: alice, 1: bob})
    assert game.result["termination"] in ("rack_emptied", "scoreless_turns")
    assert Move.objects.filter(game=game).count() == game.move_number
    code, out = _verify()
    assert code == 0, out


def test_tampered_state_is_reported(finished_game):
    state = dict(finished_game.state)
    state["scores"] = [state["scores"][0] + 10, state["scores"][1]]
    Game.objects.filter(pk=finished_game.pk).update(state=state)
    code, out = _verify()
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith(f"game {finished_game.pk} ")]
    assert len(lines) == 1 and "state.scores" in lines[0]
    assert "1 with 1 difference(s)" in out


def test_tampered_move_score_and_seat_score_are_reported(finished_game):
    Move.objects.filter(game=finished_game, number=1).update(score=99)
    Seat.objects.filter(game=finished_game, index=1).update(score=7)
    code, out = _verify()
    assert code == 1
    assert "move 1 score: stored 99 != replayed 20" in out
    assert "seat 1 score: stored 7 != replayed 0" in out


def test_an_illegal_stored_move_is_reported(finished_game):
    Move.objects.filter(game=finished_game, number=1).update(notation="a1=5")
    code, out = _verify()
    assert code == 1 and "move 1 'a1=5' is illegal" in out


def test_active_games_only_with_all(human_game, alice):
    services.submit_move(game_id=human_game.pk, user=alice, move="g7=5 h7=5",
                         expected_move_number=0)
    Game.objects.filter(pk=human_game.pk).update(move_number=5)
    assert _verify()[0] == 0
    code, out = _verify("--all")
    assert code == 1 and "move_number: stored 5 != replayed 1" in out
