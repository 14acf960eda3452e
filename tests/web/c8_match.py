"""A Crazy Eights match played on through the services (the page-size test and the web bench):
the person takes the hint, the regulars play their own moves."""

from __future__ import annotations

from games import selectors, services
from games.models import Game


def play_on(game: Game, user, moves: int) -> Game:
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != "active":
            break
        seat = game.seats.get(index=game.current_seat)
        if seat.user_id == user.pk:
            move = selectors.hint(game=game, seat_index=seat.index)["move"]
            services.submit_move(game_id=game.pk, user=user, move=move,
                                 expected_move_number=game.move_number)
        else:
            services.play_ai_turn(game_id=game.pk, expected_move_number=game.move_number)
    game.refresh_from_db()
    return game
