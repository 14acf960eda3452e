"""Your games live (issue 26): the games list, the menu's badge and the tab's title follow the
player's event stream without a reload: a new game someone starts with you, a turn that comes
back."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services
from games.models import Game
from tests.browser.conftest import sign_up
from tests.browser.helpers import a_legal_move
from tests.helpers import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.redis, pytest.mark.postgres]


def _a_move(game: Game, user: User) -> None:
    move = a_legal_move(game.pk) or "pass"
    services.submit_move(game_id=game.pk, user=user, move=move,
                         expected_move_number=Game.objects.get(pk=game.pk).move_number)


def test_the_games_list_badge_and_title_follow_the_stream(page, shot):
    me = sign_up(page)
    bob = User.objects.create_user(username=f"bob{me[-6:]}", email=f"bob{me[-6:]}@example.test",
                                   password=PASSWORD, display_name="Bob")
    page.goto("/")
    page.wait_for_function("document.body.dataset.live === 'stream'")
    page.evaluate("window.__same_page = true")
    assert page.locator("#waiting-badge").count() == 0
    assert not page.title().startswith("(")

    # bob starts a game with me: it appears in the list without a reload
    game = services.create_game(user=bob, seats=[{"you": True}, {"username": me}])
    row = page.locator(f'#active-games a[href="/games/{game.pk}"]')
    row.wait_for()
    game.refresh_from_db()
    if game.current_seat == 0:  # bob's turn: a turn of his brings mine
        assert page.locator("#waiting-badge").count() == 0
        _a_move(game, bob)
    row.filter(has_text="Your turn").wait_for()
    page.locator("#waiting-badge", has_text="1").wait_for()
    page.wait_for_function("document.title.startsWith('(1) ')")
    shot(page, "games-live")

    # on another page, the badge follows as well: a second game waiting on me
    page.goto("/friends")
    page.wait_for_function("document.body.dataset.live === 'stream'")
    second = services.create_game(user=bob, seats=[{"you": True}, {"username": me}])
    second.refresh_from_db()
    if second.current_seat == 0:
        _a_move(second, bob)
    page.locator("#waiting-badge", has_text="2").wait_for()
    page.wait_for_function("document.title.startsWith('(2) ')")
