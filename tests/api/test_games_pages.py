"""``GET games`` in pages of 20 (config/pagination.py: the page and the total in one query):
the total, the links and the out-of-range pages as Django's paginator gives them."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def _copies(game: Game, count: int) -> None:
    """``count`` more games like ``game`` (its row and seats), made without playing."""
    for _ in range(count):
        seats = list(game.seats.all())
        game.pk = None
        game.save()
        for seat in seats:
            seat.pk, seat.game = None, game
        Seat.objects.bulk_create(seats)


def test_the_pages_count_every_game_and_link_to_each_other(alice, alice_client, ai_queue):
    _copies(services.create_game(user=alice, opponent={"ai": "casual"}), 24)
    first = alice_client.get("/api/v1/games").json()
    assert first["count"] == 25 and len(first["results"]) == 20
    assert first["previous"] is None and first["next"].endswith("/api/v1/games?page=2")
    second = alice_client.get("/api/v1/games?page=2").json()
    assert second["count"] == 25 and len(second["results"]) == 5 and second["next"] is None
    assert second["previous"].endswith("/api/v1/games")
    ids = [g["id"] for g in first["results"] + second["results"]]
    assert len(set(ids)) == 25
    assert alice_client.get("/api/v1/games?page=last").json() == second
    for page in ("3", "0", "-1", "two", "1.5"):
        assert alice_client.get(f"/api/v1/games?page={page}").status_code == 404, page


def test_no_games_is_an_empty_first_page(alice, alice_client):
    assert alice_client.get("/api/v1/games").json() == {
        "count": 0, "next": None, "previous": None, "results": [],
    }
    assert alice_client.get("/api/v1/games?status=finished&page=last").json()["count"] == 0
    assert alice_client.get("/api/v1/games?page=2").status_code == 404
