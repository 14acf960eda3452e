"""The move's lock query and write statement are prepared on PostgreSQL from their second
execution on a connection (config/prepared.py), and nothing else is: the ORM's statements keep
Django's client-side binding, and the connection's own setting stays off."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_moves_statements_are_prepared_on_a_kept_connection(
    human_game, alice_client, bob_client
):
    connection.close()  # a new session: none of an earlier test's statements are prepared
    moves = [(alice_client, "g7=5 h7=5"), (bob_client, "pass"), (alice_client, "pass")]
    after_first: list[str] = []
    for number, (client, move) in enumerate(moves):
        response = client.post(f"/api/v1/games/{human_game.pk}/moves",
                               {"move": move, "expected_move_number": number}, format="json")
        assert response.status_code == 201, response.json()
        if number == 0:
            after_first = _prepared()
    assert after_first == []  # once on a connection: not worth its own round trip
    statements = _prepared()
    assert any('FROM "games_seat"' in s and "SKIP LOCKED" in s for s in statements), statements
    assert any(s.startswith("WITH w0 AS (INSERT INTO") for s in statements), statements
    assert all("$1" in s for s in statements)  # values are bound, never in the text
    assert connection.connection.prepare_threshold is None
    for _ in range(3):  # an ordinary ORM statement, however often it runs, is not prepared
        assert Game.objects.filter(pk=human_game.pk, status="active").exists()
    assert not any(s.startswith('SELECT 1 AS "a" FROM "games_game"') for s in _prepared())
