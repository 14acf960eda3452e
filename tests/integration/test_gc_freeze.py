"""Every web process freezes its start-up's objects (config/gc_tuning.py) under the README's
production command (gunicorn + uvicorn workers), from the ASGI lifespan's startup: the oldest
generation's collections then leave Django and the apps alone. ``WEB_GC_FREEZE=false`` keeps
Python's collector as it is."""

import re

import pytest

from tests.integration.servers import json_lines, start_gunicorn
from tests.integration.workers import worker_database_url

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _frozen_counts(log: str) -> list[int]:
    found = []
    for entry in json_lines(log):
        match = re.fullmatch(r"gc: (\d+) objects of the start-up frozen", entry.get("message", ""))
        if match:
            found.append(int(match.group(1)))
    return found


def test_the_production_workers_freeze_their_start_up(gunicorn_server):
    counts = _frozen_counts(gunicorn_server.log())
    assert counts, gunicorn_server.log()[-3000:]  # the worker (one more if it was restarted)
    # Django, DRF and the apps with every view module imported: far more than a bare Python.
    assert all(count > 100_000 for count in counts)


def test_the_freeze_can_be_turned_off(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    server = start_gunicorn(db_url=db_url, extra_env={"WEB_GC_FREEZE": "false"})
    try:
        assert _frozen_counts(server.log()) == []
    finally:
        server.stop()
        server.remove_log()
