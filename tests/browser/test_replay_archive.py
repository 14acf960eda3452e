"""The archive and the replay viewer at phone and desktop size: find a finished game by its
opponent, open its replay, step with the buttons and the arrow keys (board, scores, the rack
before the move, "% of best" and the best move); a Crazy Eights game round by round."""

import pytest

from accounts.models import User
from games import services
from games.services import analysis
from tests.browser.conftest import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def test_archive_and_replay(page, shot, assert_accessible, user_factory, monkeypatch):
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 20240602)
    bob = user_factory(display_name="Bob")
    alice = User.objects.get(username=sign_up(page))
    game = services.create_game(user=alice, opponent={"username": bob.username})
    services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0)
    services.submit_move(game_id=game.pk, user=bob, move="pass", expected_move_number=1)
    services.submit_move(game_id=game.pk, user=alice, move="pass", expected_move_number=2)
    services.resign(game_id=game.pk, user=bob)
    analysis.analyse_moves(game_id=game.pk)
    monkeypatch.setattr("games.services.creation._new_seed", lambda: 5)
    eights = services.create_game(user=alice, kind="crazy_eights", opponents=["cautious"])
    services.resign(game_id=eights.pk, user=alice)

    page.goto("/")
    page.locator("#archive-link").click()
    page.get_by_label("Opponent").fill(bob.username)
    page.get_by_role("button", name="Search").click()
    page.locator("#archive-count").get_by_text("1 game").wait_for()
    assert_accessible(page)
    shot(page, "archive")
    page.locator("#archive-games").get_by_role("link", name="Replay").click()
    page.locator("#replay-step").get_by_text("Move 4 of 4").wait_for()
    page.keyboard.press("Home")
    page.locator("#replay-step").get_by_text("Start of the game").wait_for()
    assert page.locator('.replay-board .c[data-d]').count() == 0
    page.keyboard.press("ArrowRight")
    page.locator("#replay-step").get_by_text("Move 1 of 4").wait_for()
    page.locator('.replay-board .c.last[data-sq="g7"][data-d="5"]').wait_for()
    move = page.locator("#replay-move").inner_text()
    assert "[0123555]" in move and "g7=5 h7=5" in move and "% of the best score" in move
    assert "20" in page.locator("#replay-scores").inner_text()
    assert_accessible(page)
    shot(page, "replay-crazy10s")
    page.get_by_role("button", name="Next").click()
    page.locator("#replay-step").get_by_text("Move 2 of 4").wait_for()
    assert "[1234668]" in page.locator("#replay-move").inner_text()
    page.get_by_role("button", name="Last").click()
    page.locator("#replay-step").get_by_text("Move 4 of 4").wait_for()
    page.keyboard.press("ArrowLeft")
    page.locator("#replay-step").get_by_text("Move 3 of 4").wait_for()

    page.goto(f"/games/{eights.pk}/replay")
    page.locator("#replay-step").get_by_text("Move 1 of 1").wait_for()
    page.locator("#replay-moves li.new-round").get_by_text("resign").wait_for()
    assert "Round 1" in page.locator("#replay-table").inner_text()
    shot(page, "replay-crazy-eights")
