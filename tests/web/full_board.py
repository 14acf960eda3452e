"""A game played (through the services, as two people would) until the bag is empty: the
biggest board a game page draws. For the page-size test and bench/web_pages.py."""

from __future__ import annotations

import random

from games import kinds, services
from games.models import Game


def play_until_the_bag_is_empty(*, first, second, seed: int = 7, max_moves: int = 80) -> Game:
    game = services.create_game(user=first, opponent={"username": second.username})
    kind = kinds.get("crazy10s")
    rng = random.Random(seed)
    users = {seat.index: seat.user for seat in game.seats.all()}
    for _ in range(max_moves):
        game.refresh_from_db()
        state = kind.load(game.state)
        if game.status != Game.Status.ACTIVE or kind.position(state, 0)["bag_size"] == 0:
            break
        move = kind.computer_move(state, "casual", rng)
        services.submit_move(
            game_id=game.pk,
            user=users[game.current_seat],
            move=_notation(move),
            expected_move_number=game.move_number,
        )
    game.refresh_from_db()
    return game


def _notation(move) -> str:
    from games.crazy10s.engine import format_move

    return format_move(move)


def tiles_on_board(game: Game) -> int:
    board = kinds.get("crazy10s").position(kinds.get("crazy10s").load(game.state), 0)["board"]
    return sum(ch.isdigit() for row in board for ch in row)
