"""The game page: the board as a grid, both racks and the bag, the full history, no hand edits."""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_game(human_game, alice, bob):
    services.submit_move(
        game_id=human_game.pk, user=alice, move="g7=5 h7=5", expected_move_number=0
    )
    services.submit_move(game_id=human_game.pk, user=bob, move="swap 1 2", expected_move_number=1)
    return Game.objects.get(pk=human_game.pk)


def _page(client, game) -> str:
    response = client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_board_grid_shows_tiles_and_bonus_squares(moderator_client, played_game):
    page = _page(moderator_client, played_game)
    cells = re.findall(r'<td class="([^"]*)"[^>]*data-square="([a-m]\d+)">', page)
    assert len(cells) == 13 * 13
    classes = dict((square, css) for css, square in cells)
    assert "tile" in classes["g7"] and "tile" in classes["h7"]
    assert "star" in classes["g7"]  # the start square keeps its colour under the tile
    assert classes["a1"].strip() == "tl"
    assert re.search(r'data-square="g7">5<', page)


def test_both_racks_the_bag_and_the_full_history(moderator_client, played_game):
    page = _page(moderator_client, played_game)
    seats = {s.index: s for s in played_game.seats.all()}
    for seat in seats.values():
        assert " ".join(seat.private["rack"]) in page
    bag = "".join("*" if t == 10 else str(t) for t in played_game.state["bag"])
    assert bag in page
    assert "g7=5 h7=5" in page
    assert "swap 1 2" in page  # staff see the swapped tiles, players only the count


def test_the_history_shows_each_moves_best_move_to_staff(moderator_client, played_game):
    services.analyse_moves(game_id=played_game.pk)  # the game runs: both are persons' moves
    moves = {m.number: m for m in played_game.moves.all()}
    assert moves[1].best_notation and moves[2].best_notation
    page = _page(moderator_client, played_game)
    for move in moves.values():
        assert move.best_notation in page and f">{move.best_score}<" in page


def test_private_state_is_not_editable(moderator_client, played_game):
    url = reverse("admin:games_game_change", args=[played_game.pk])
    page = _page(moderator_client, played_game)
    assert 'name="state"' not in page and 'name="seed"' not in page
    before = Game.objects.get(pk=played_game.pk)
    moderator_client.post(url, {"state": "{}", "seed": "1", "status": "finished"})
    after = Game.objects.get(pk=played_game.pk)
    assert (after.state, after.seed, after.status) == (before.state, before.seed, before.status)
