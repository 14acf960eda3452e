"""Celery task messages written straight onto a Redis broker's queue list (issue 28).

``Task.apply_async`` builds a message through Celery's router, its amqp layer and kombu's
producer: about 2 ms of a move request's CPU for the move's two nudges, more than the rules of
the move. The messages a write sends after its commit have no options but a countdown, so this
module renders the same protocol-2 message (what ``celery.app.amqp.AMQP.as_task_v2`` and kombu's
Redis transport would put on the list: ``tests/test_celery_wire.py`` compares them key by key)
and returns the list and the payload for the caller's Redis pipeline: ``LPUSH queue payload``.

Only for Redis as the broker with kombu's default key layout and the default exchange (Celery's
own for the project's queues: the routing key is the queue's name). A priority puts the message
on its step's list (``queue_list``), as kombu does.
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

import orjson
from celery import current_app
from celery.signals import after_task_publish, before_task_publish

# The fourth element of a protocol-2 body: no callbacks, chains or chords.
_EMBED = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}


# Broker transport options that change where kombu puts a message (key prefix, the priority
# queues' names): with any of them set, Celery sends the messages itself.
_PLACEMENT_OPTIONS = frozenset({"global_keyprefix", "sep", "priority_steps"})
# Kombu's Redis transport: its default priority steps and the separator of a step's list name.
_PRIORITY_STEPS = (0, 3, 6, 9)
_PRIORITY_SEPARATOR = "\x06\x16"
# Task options that change the message (Task._get_exec_options), left to Celery when set.
_TASK_OPTIONS = ("queue", "routing_key", "exchange", "priority", "expires", "compression",
                 "delivery_mode")


def writable(name: str) -> bool:
    """Whether ``task_message`` writes task ``name`` as Celery would here: the broker is Redis
    with kombu's default key layout, the task (if registered in this process) sets none of the
    options that change its message, and no other code listens to the publish signals (the
    project's own ``carry_request_id`` is mirrored in ``extra_headers``). Worked out once per
    process and task (Celery's configuration is slow to read: ~0.3 ms a move); ``forget()``
    after changing the configuration."""
    return _configuration_allows() and _task_facts(name)[1]


@cache
def _configuration_allows() -> bool:
    conf = current_app.conf
    if not broker_url().startswith(("redis://", "rediss://")):
        return False
    if _PLACEMENT_OPTIONS & set(conf.broker_transport_options or {}):
        return False
    if len(before_task_publish.receivers) > 1 or after_task_publish.receivers:
        return False
    return bool(conf.task_serializer == "json" and not conf.task_compression
                and conf.task_default_delivery_mode in (2, "persistent"))


# Per task name: (the registered task or None, writable, timelimit header, ignore_result).
_facts: dict[str, tuple[Any, bool, list[Any], bool | None]] = {}


def _task_facts(name: str) -> tuple[Any, bool, list[Any], bool | None]:
    task = current_app.tasks.get(name)
    facts = _facts.get(name)
    if facts is None or facts[0] is not task:  # first use, or registered since
        if task is None:
            facts = (None, True, [None, None], None)
        else:
            # As Task.apply_async: a registered task lends its time limits and ignore_result;
            # sent by name only, the worker applies the task's own.
            ok = getattr(task, "serializer", None) in (None, "json") and all(
                getattr(task, option, None) is None for option in _TASK_OPTIONS)
            facts = (task, ok, [task.time_limit, task.soft_time_limit], task.ignore_result)
        _facts[name] = facts
    return facts


@cache
def broker_url() -> str:
    """Celery's ``broker_url`` (its ``CELERY_BROKER_URL`` environment variable, read first, or
    the setting), read once: a move asked for it five times, ~0.2 ms of its CPU (issue 28)."""
    return str(current_app.conf.broker_url or "")


@cache
def default_queue() -> str:
    """Celery's ``task_default_queue`` (read once: each read of Celery's configuration costs
    ~17 µs, three of them a move)."""
    return str(current_app.conf.task_default_queue)


def forget() -> None:
    """Work ``writable``, ``broker_url`` and ``default_queue`` out again (tests that change
    Celery's configuration)."""
    _configuration_allows.cache_clear()
    broker_url.cache_clear()
    default_queue.cache_clear()
    _facts.clear()


def queue_list(queue: str, priority: int = 0) -> str:
    """The Redis list kombu keeps ``queue``'s messages of this priority in: the queue's name
    for step 0, "<queue>\\x06\\x16<step>" for the others (a priority falls to the step at or
    below it)."""
    step = max(s for s in _PRIORITY_STEPS if s <= max(0, min(priority, 9)))
    return f"{queue}{_PRIORITY_SEPARATOR}{step}" if step else queue


def queue_lists(queue: str) -> list[str]:
    """Every list kombu may keep ``queue``'s messages in (its length is the sum of theirs)."""
    return [queue_list(queue, step) for step in _PRIORITY_STEPS]


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
    priority: int = 0,
    extra_headers: dict[str, Any] | None = None,
) -> bytes:
    """The JSON payload kombu's Redis transport would LPUSH onto ``queue_list(queue,
    priority)`` for ``signature(name, args=args).apply_async(countdown=countdown,
    priority=priority)``."""
    task_id = str(uuid.uuid4())
    parent = current_app.current_worker_task
    if parent is not None:  # queued by a running task: the same root, as Celery does
        parent_id = parent.request.id
        root_id = parent.request.root_id or parent_id
    else:
        parent_id, root_id = None, task_id
    eta = (datetime.now(UTC) + timedelta(seconds=countdown)).isoformat() if countdown > 0 else None
    _task, _writable, timelimit, ignore_result = _task_facts(name)
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
        "timelimit": list(timelimit),
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
    body = json.dumps([list(args), {}, _EMBED]).encode()  # byte for byte Celery's body
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
            "priority": priority,
            "body_encoding": "base64",
            "delivery_tag": str(uuid.uuid4()),
        },
    }
    # The envelope by orjson: the standard library's encoder was a third of rendering a
    # message (kombu reads any JSON: only the spacing differs).
    return orjson.dumps(message)
