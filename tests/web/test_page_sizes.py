"""Each page's HTML stays under 50 KB (issue 13), the game page with a late-game board
included; the game page shows a full board with every tile and no hidden information."""

import pytest

from tests.web.full_board import play_until_the_bag_is_empty, tiles_on_board

pytestmark = pytest.mark.django_db

LIMIT = 50 * 1024


@pytest.fixture
def late_game(alice, bob, ai_queue):
    return play_until_the_bag_is_empty(first=alice, second=bob)


def test_every_page_is_under_50_kb(client, alice, late_game):
    assert tiles_on_board(late_game) >= 50
    client.force_login(alice)
    pages = ["/", "/games/new", "/settings", "/puzzle", f"/games/{late_game.pk}",
             f"/games/{late_game.pk}/panel"]
    sizes = {}
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        sizes[url] = len(response.content)
    client.logout()
    for url in ["/", "/signin", "/signup"]:
        sizes[f"{url} (signed out)"] = len(client.get(url).content)
    too_big = {url: size for url, size in sizes.items() if size >= LIMIT}
    assert not too_big, too_big


def test_the_late_game_page_draws_every_tile(client, alice, late_game):
    client.force_login(alice)
    html = client.get(f"/games/{late_game.pk}").content.decode()
    assert html.count(" data-d=") == tiles_on_board(late_game)
