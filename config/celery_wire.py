"""Celery task messages written straight onto a Redis broker's queue list (issue 28).

``Task.apply_async`` builds a message through Celery's router, its amqp layer and kombu's
producer: about 2 ms of a move request's CPU for the move's two nudges, more than the rules of
the move. The messages a write sends after its commit have no options but a countdown, so this
module renders the same protocol-2 message (what ``celery.app.amqp.AMQP.as_task_v2`` and kombu's
Redis transport would put on the list: ``tests/test_celery_wire.py`` compares them key by key)
and returns the list and the payload for the caller's Redis pipeline: ``LPUSH queue payload``.

Only for Redis as the broker, the default exchange (Celery's own for the project's queues: the
routing key is the queue's name) and priority 0, which kombu stores under the queue's own name.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import uuid
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from celery import current_app

# The fourth element of a protocol-2 body: no callbacks, chains or chords.
_EMBED = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}


@cache
def _origin(pid: int) -> str:
    # Celery's anon_nodename(): "gen<pid>@<host>"; the pid keys the cache (forked workers).
    return f"gen{pid}@{socket.gethostname()}"


def task_message(
    name: str,
    args: tuple[Any, ...],
    queue: str,
    *,
    countdown: float = 0,
    extra_headers: dict[str, Any] | None = None,
) -> bytes:
    """The JSON payload kombu's Redis transport would LPUSH onto ``queue`` for
    ``signature(name, args=args).apply_async(countdown=countdown)``."""
    task_id = str(uuid.uuid4())
    parent = current_app.current_worker_task
    if parent is not None:  # queued by a running task: the same root, as Celery does
        parent_id = parent.request.id
        root_id = parent.request.root_id or parent_id
    else:
        parent_id, root_id = None, task_id
    eta = (datetime.now(UTC) + timedelta(seconds=countdown)).isoformat() if countdown > 0 else None
    # As Task.apply_async: a task registered in this process lends its time limits and
    # ignore_result; sent by name only, the worker applies the task's own.
    task = current_app.tasks.get(name)
    timelimit = [task.time_limit, task.soft_time_limit] if task is not None else [None, None]
    ignore_result = task.ignore_result if task is not None else None
    headers: dict[str, Any] = {
        "lang": "py",
        "task": name,
        "id": task_id,
        "shadow": None,
        "eta": eta,
        "expires": None,
        "group": None,
        "group_index": None,
        "retries": 0,
        "timelimit": timelimit,
        "root_id": root_id,
        "parent_id": parent_id,
        "argsrepr": repr(tuple(args)),
        "kwargsrepr": "{}",
        "origin": _origin(os.getpid()),
        "ignore_result": ignore_result,
        "replaced_task_nesting": 0,
        "stamped_headers": None,
        "stamps": {},
    }
    if extra_headers:
        headers.update(extra_headers)
    body = json.dumps([list(args), {}, _EMBED]).encode()
    message = {
        "body": base64.b64encode(body).decode(),
        "content-encoding": "utf-8",
        "content-type": "application/json",
        "headers": headers,
        "properties": {
            "correlation_id": task_id,
            "reply_to": current_app.thread_oid,
            "delivery_mode": 2,
            "delivery_info": {"exchange": "", "routing_key": queue},
            "priority": 0,
            "body_encoding": "base64",
            "delivery_tag": str(uuid.uuid4()),
        },
    }
    return json.dumps(message).encode()
