"""A move costs a bounded number of SQL queries, whatever the kind (issue 28): the token, the
game locked with its seats in one query, the key's claim and stored answer in one, and the
move's writes (the move, the seats, the outbox entry, the game, the key's record) sent together
as one statement on PostgreSQL (games/writes.py): 4, commit hooks included. The live
events of a move (every player's copy, the deadline, whose turn) are one write: a Redis pipeline
with the production backend, one more INSERT with the embedded one.

The tests are transactional so that the count is the production one: no test transaction,
no savepoints around it, the commit hooks run at the real commit. BEGIN and COMMIT are not
counted."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import kinds, services
from games.crazy_eights import engine as c8
from games.models import Game
from live.backends import _backend
from live.models import LiveEvent

# PostgreSQL: the batch of a move's writes is one statement there (SQLite runs them one by one).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
MAX_QUERIES_PER_MOVE = 4


def _play(client, game: Game, body: dict, key: str | None = "move-1"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/games/{game.pk}/moves", body, format="json",
                               **headers)
    assert response.status_code == 201, response.json()
    # BEGIN and COMMIT are the transaction's, not the move's reads and writes.
    return [q["sql"] for q in queries.captured_queries if q["sql"] not in {"BEGIN", "COMMIT"}]


def _c8_move(game: Game) -> str:
    state = kinds.get(game.kind).load(game.state).engine
    return c8.format_move(sorted(c8.legal_moves(state), key=c8.format_move)[0])


def _limit(live_backend: str) -> int:
    return MAX_QUERIES_PER_MOVE + (1 if live_backend == "db" else 0)


@pytest.fixture(params=["redis", "db"])
def live_backend(request, settings):
    settings.LIVE_BACKEND = request.param
    _backend.cache_clear()
    yield request.param
    _backend.cache_clear()


def test_a_crazy10s_move_costs_at_most_four_queries(
    human_game, alice_client, live_backend
):
    queries = _play(alice_client, human_game, {"move": "g7=5 h7=5", "expected_move_number": 0})
    assert len(queries) <= _limit(live_backend), "\n".join(queries)
    # The game is read once, locked together with its seats.
    assert sum(1 for q in queries if re.search(r'FROM "games_game"', q)) == 0
    assert sum(1 for q in queries if "FOR NO KEY UPDATE" in q) == 1
    # Only the mover's seat changed (her rack and score): bob's is not written again.
    assert sum(q.count('UPDATE "games_seat"') for q in queries) == 1
    # Of the game, only what a move changes (not its options, seed or creation time).
    (game_columns,) = re.findall(r'UPDATE "games_game" SET (.*?) WHERE', " ".join(queries))
    assert re.findall(r'"(\w+)" =', game_columns) == [
        "state", "move_number", "current_seat", "turn_started_at", "turn_deadline"]
    events = [q for q in queries if "live_liveevent" in q]
    assert len(events) == (1 if live_backend == "db" else 0)
    if live_backend == "db":
        # One INSERT for all of them: both players' move, the deadline, bob's turn.
        assert LiveEvent.objects.filter(game_id=human_game.pk).count() >= 4


def test_a_crazy_eights_move_costs_at_most_four_queries(
    alice, bob, alice_client, ai_queue, live_backend
):
    game = services.create_game(
        user=alice, kind="crazy_eights", seats=[{"you": True}, {"username": bob.username}]
    )
    while game.current_seat != 0:  # bob leads: his moves first, then alice's is counted
        services.submit_move(game_id=game.pk, user=bob, move=_c8_move(game),
                             expected_move_number=game.move_number)
        game.refresh_from_db()
    queries = _play(alice_client, game,
                    {"move": _c8_move(game), "expected_move_number": game.move_number})
    assert len(queries) <= _limit(live_backend), "\n".join(queries)
    (lock,) = [q for q in queries if "FOR NO KEY UPDATE" in q]
    # The game's state comes once, on the first seat's row, not on every seat's.
    assert lock.count('"games_game"."state"') == 1
    assert re.search(r'CASE WHEN "games_seat"."index" = \S+ THEN "games_game"."state"', lock)


def test_a_move_without_a_key_costs_one_query_fewer(human_game, alice_client):
    queries = _play(alice_client, human_game,
                    {"move": "g7=5 h7=5", "expected_move_number": 0}, key=None)
    assert len(queries) <= MAX_QUERIES_PER_MOVE - 1, "\n".join(queries)


def test_the_count_does_not_grow_with_the_game(human_game, alice_client, bob_client):
    """Later moves cost what the first one did: nothing reads the move history."""
    first = _play(alice_client, human_game, {"move": "g7=5 h7=5", "expected_move_number": 0},
                  key="a")
    rng = random.Random(0)
    counts = []
    for number in range(1, 7):
        client = bob_client if number % 2 else alice_client
        queries = _play(client, human_game,
                        {"move": "pass", "expected_move_number": number},
                        key=f"k{number}-{rng.random()}")
        counts.append(len(queries))
    assert max(counts) <= len(first), counts
