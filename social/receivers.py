"""Social's receivers: a finished game is rated (the task through ``games.dispatch``)."""

from __future__ import annotations


def connect() -> None:
    from games import signals
    from games.models import Game
    from social import services

    signals.game_finished.connect(
        services.ratings.on_game_finished, sender=Game, dispatch_uid="social-rate"
    )
