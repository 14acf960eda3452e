"""Clients generated from the live schema (issue 22).

``api_stack`` (session): a uvicorn server (``config.asgi``, as production serves) and a real
Celery worker on this run's test database, started with the helpers the browser and
integration tests use. ``generated_client`` (session): the Python client openapi-python-client
generates from that server's ``/api/v1/schema/``, once per test run, into a temporary directory
and imported from there (the generation time is printed).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from tests.clients.helpers import report
from tests.integration.workers import (
    ROOT,
    remove_log,
    start_worker,
    stop_worker,
    worker_database_url,
    worker_log,
)
from tests.live.server import start_server, stop_server

PACKAGE = "c10s_api_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")

# Throttles low enough for the scenario to reach a 429 (logins per account), or high enough
# that registering the scenario's players never does (registrations per address).
STACK_ENV = {
    "GAMES_AI_PAUSE_MS": "0",
    "THROTTLE_LOGIN_ACCOUNT": "3/hour",
    "THROTTLE_REGISTER": "100/min",
}


@dataclass
class Stack:
    base: str
    worker: object

    def worker_log(self) -> str:
        return worker_log(self.worker)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def api_stack(django_db_setup, django_db_blocker):
    queue = f"c10s-clients-{uuid.uuid4().hex[:8]}"
    env = {**STACK_ENV, "GAMES_AI_QUEUE": queue, "GAMES_ANALYSIS_QUEUE": queue,
           "NOTIFY_QUEUE": queue}
    with django_db_blocker.unblock():
        db_url = worker_database_url()
    worker = start_worker(queue=queue, db_url=db_url, extra_env=env)
    try:
        server, base = start_server(db_url=db_url, extra_env=env)
    except BaseException:
        stop_worker(worker)
        raise
    try:
        yield Stack(base, worker)
    finally:
        stop_server(server)
        stop_worker(worker)
        remove_log(worker)


@dataclass
class Generated:
    package: ModuleType
    seconds: float
    modules: int
    output: str  # what the generator printed (its warnings)

    def api(self, name: str) -> ModuleType:
        """``api("games.games_create")``: one operation's module."""
        return importlib.import_module(f"{PACKAGE}.api.{name}")


@pytest.fixture(scope="session")
def generated_client(api_stack, tmp_path_factory, request) -> Generated:
    target = tmp_path_factory.mktemp("generated") / PACKAGE
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    started = time.monotonic()
    run = subprocess.run(
        [str(GENERATOR), "generate", "--url", f"{api_stack.base}/api/v1/schema/?format=json",
         "--output-path", str(target), "--meta", "none",
         "--config", str(Path(__file__).with_name("generator.yml"))],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    seconds = time.monotonic() - started
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    sys.path.insert(0, str(target.parent))
    package = importlib.import_module(PACKAGE)
    modules = [m.name for m in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.")]
    version = subprocess.run([str(GENERATOR), "--version"], capture_output=True, text=True)
    report(request, f"{version.stdout.strip()}: generated {len(modules)} modules from the "
           f"live schema in {seconds:.1f} s")
    try:
        yield Generated(package, seconds, len(modules), output)
    finally:
        sys.path.remove(str(target.parent))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]
