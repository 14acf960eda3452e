"""gunicorn's worker and logger for the web processes (config/gunicorn.py selects them).

- ``UvicornWorker``: uvicorn's gunicorn worker with uvicorn's own X-Forwarded-For handling off
  (``NUM_PROXIES`` decides, in config/asgi.py: config/proxies.py), uvicorn's drain kept inside
  gunicorn's ``graceful_timeout`` (which kills the worker after it). uvicorn's access lines go
  to gunicorn's access log, so they appear only when it is asked for (``--access-logfile -``):
  Django's request line (crazy10s.requests) is the access log otherwise.
- ``GunicornLogger``: gunicorn's own lines (the arbiter's, the workers' errors and access
  lines) as one JSON object per line with ``LOG_FORMAT=json``, like every other process's.

The arbiter imports this module before Django is set up: it reads the environment itself.
"""

from __future__ import annotations

import os
from typing import Any

from gunicorn.glogging import Logger
from uvicorn_worker import UvicornWorker as _UvicornWorker

from config.logs import format_server_loggers

# Seconds between gunicorn's graceful_timeout and uvicorn's own drain (tasks cancelled): the
# worker then still logs and exits before the arbiter's SIGKILL.
DRAIN_MARGIN_SECONDS = 2


class UvicornWorker(_UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = {"loop": "auto", "http": "auto", "proxy_headers": False}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = max(
            1, int(self.cfg.graceful_timeout) - DRAIN_MARGIN_SECONDS
        )


class GunicornLogger(Logger):
    def setup(self, cfg) -> None:
        super().setup(cfg)
        format_server_loggers(os.environ.get("LOG_FORMAT", "text").strip().lower())
