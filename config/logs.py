"""Log formatting: every record carries the request id of the request it was logged in.

``LOG_FORMAT=json`` writes one JSON object per line (for log shippers); the default is plain text.
Request bodies, headers and tokens are never put into a record by this project's code.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime

# Set by config.middleware for the duration of a request; "-" outside requests (workers, shell).
request_id_var: ContextVar[str] = ContextVar("request_id", default="-")

# Attributes the request log line passes with ``extra=`` and the JSON formatter copies out.
REQUEST_FIELDS = ("method", "path", "status", "duration_ms", "user_id")


def current_request_id() -> str | None:
    value = request_id_var.get()
    return None if value == "-" else value


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = request_id_var.get()
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
