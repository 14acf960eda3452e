"""Exports: one game's record for its players, and a player's whole history as JSON Lines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Prefetch

from games import selectors
from games.correspondence import records
from games.models import Game, Move, Seat

if TYPE_CHECKING:
    from accounts.models import User

HISTORY_CHUNK = 100


def game_of_player(*, game_id: int, user: User) -> Game:
    """The game with its seats (404 / 403 unless the user plays in it)."""
    game, _ = selectors.game_for_player(game_id=game_id, user=user)
    return game


def history_lines(user: User) -> Iterator[str]:
    """One JSON line per finished game of the user (newest first), in chunks: the games of a
    chunk, their seats and their moves in three queries."""
    ids = list(
        selectors.player_games(user=user, status="finished").values_list("pk", flat=True)
    )
    for start in range(0, len(ids), HISTORY_CHUNK):
        chunk = ids[start:start + HISTORY_CHUNK]
        games = (
            Game.objects.filter(pk__in=chunk)
            .prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")),
                Prefetch("moves", queryset=Move.objects.order_by("number")),
            )
            .in_bulk()
        )
        for game_id in chunk:
            game = games[game_id]
            record = records.build(game, moves=list(game.moves.all()))
            yield json.dumps(record, cls=DjangoJSONEncoder, separators=(",", ":")) + "\n"


