"""Celery app for the worker-kill test: the computer's move takes C10S_AI_TURN_DELAY_SECONDS
and announces itself by creating C10S_AI_TURN_MARKER, so the test can SIGKILL the worker while
the turn's transaction holds the game row (``-A tests.integration.slow_ai_worker``)."""

import os
import time
from pathlib import Path

from config.celery import app  # noqa: F401  (the worker's app)
from games.crazy10s.kind import Crazy10sKind

_delay = float(os.environ.get("C10S_AI_TURN_DELAY_SECONDS", "0"))
_marker = os.environ.get("C10S_AI_TURN_MARKER")

if _delay:
    _real = Crazy10sKind.computer_move

    def slow_computer_move(self, state, level, rng):
        if _marker:
            Path(_marker).touch()
        time.sleep(_delay)
        return _real(self, state, level, rng)

    Crazy10sKind.computer_move = slow_computer_move
