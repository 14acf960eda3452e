"""Log formatting: every record carries the request id of the request it was logged in.

``LOG_FORMAT=json`` writes one JSON object per line (for log shippers); the default is plain text.
A Celery task's lines carry the id of the request that queued it, its task id and name.
Request bodies, headers and tokens are never put into a record by this project's code.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime

# Set by config.middleware for the duration of a request; "-" outside requests (workers, shell).
request_id_var: ContextVar[str] = ContextVar("request_id", default="-")

# Attributes the request log line passes with ``extra=`` (and RequestIdFilter sets for a task's
# lines) that the JSON formatter copies out.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms", "user_id", "task_id", "task")


def task_context() -> tuple[str | None, str | None, str | None]:
    """(request id, task id, task name) of the Celery task running in this thread, if any: the
    request id is the ``request_id`` header that the request queuing it set (config/celery.py).
    """
    state = sys.modules.get("celery._state")  # no Celery in this process: no task either
    task = state.get_current_task() if state is not None else None
    if task is None:
        return None, None, None
    request = task.request
    return getattr(request, "request_id", None), getattr(request, "id", None), task.name


def current_request_id() -> str | None:
    """The id of the request being answered, or of the request that queued the running task."""
    value = request_id_var.get()
    if value != "-":
        return value
    return task_context()[0]


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            value = request_id_var.get()
            if value == "-":
                task_request_id, task_id, task_name = task_context()
                if task_id:
                    record.task_id, record.task = task_id, task_name
                value = task_request_id or "-"
            record.request_id = value
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or request_id_var.get(),
        }
        for field in REQUEST_FIELDS:
            if hasattr(record, field):
                entry[field] = getattr(record, field)
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


# The servers' own loggers: uvicorn's (under gunicorn they write to gunicorn's handlers) and
# gunicorn's. Their handlers stay theirs (streams, access log on or off); only the format follows
# LOG_FORMAT, so that with json every line a web process writes is a JSON object.
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "gunicorn.error",
                  "gunicorn.access")


def format_server_loggers(log_format: str) -> None:
    if log_format != "json":
        return
    formatter = JsonFormatter()
    for name in SERVER_LOGGERS:
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
            if not any(isinstance(f, RequestIdFilter) for f in handler.filters):
                handler.addFilter(RequestIdFilter())
