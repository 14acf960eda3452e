"""Emails lost, 5xx answers and waits under faults, measured through the HTTP API of the
service as production runs it (gunicorn with uvicorn workers, DEBUG off, a Celery worker,
beat on its own; PostgreSQL and a private redis-server; see tests/integration/faults.py, which
the fault suite also uses), with 200 moves per scenario:

- ``redis``: Redis killed and restarted empty while players move -> emails lost of N moves;
- ``db``: the database refuses the worker's connections for 15 s and the web's for 5 s of
  them -> emails lost, the web's answers meanwhile, log lines;
- ``hung``: Redis SIGSTOPped -> 5xx answers and the longest wait;
- ``kill``: the worker SIGKILLed in the middle of a computer turn, restarted 2 s later ->
  seconds until the computer has answered, emails lost.

    .venv/bin/python bench/faults.py [--code-root DIR] [--scenario redis,db,hung,kill]
                                     [--wait 120]

``--code-root`` runs the service from another checkout (e.g. the code before a change:
``git archive 7344aca | tar -x -C /tmp/before``); the probe itself stays this one.
A fresh database ``c10s_faults_bench`` (``--database``) is created and migrated per scenario.
Each line ends with the load average (1, 5, 15 min) when the scenario ended.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.integration import faults  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"


def fresh_database(name: str) -> str:
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{PG}/{name}"


def run(scenario: str, code_root: Path, database: str, wait: float) -> dict:
    url = fresh_database(database)
    faults.migrate(code_root=code_root, env=faults.service_env(
        database_url=url, redis_url="redis://127.0.0.1:1/0", smtp_port=25))
    if scenario == "db":
        worker_proxy = faults.TcpProxy("127.0.0.1", 5432)
        web_proxy = faults.TcpProxy("127.0.0.1", 5432)
        try:
            worker_url = f"{PG.replace('5432', str(worker_proxy.port))}/{database}"
            web_url = f"{PG.replace('5432', str(web_proxy.port))}/{database}"
            with faults.Rig(code_root, url, worker_url, web_url) as rig:
                return faults.db_outage(rig, worker_proxy, web_proxy, wait=wait)
        finally:
            worker_proxy.close()
            web_proxy.close()
    if scenario == "kill":
        marker = Path(tempfile.mkdtemp(prefix="c10s-kill-")) / "ai-turn-started"
        with faults.Rig(code_root, url, worker_app=faults.SLOW_AI_APP,
                        worker_extra_env=faults.slow_ai_env(marker)) as rig:
            return faults.worker_killed(rig, wait=wait)
    with faults.Rig(code_root, url) as rig:
        if scenario == "redis":
            return faults.redis_restart(rig, wait=wait)
        return faults.redis_hung(rig, wait=wait)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code-root", type=Path, default=ROOT)
    parser.add_argument("--scenario", default="redis,db,hung,kill")
    parser.add_argument("--database", default="c10s_faults_bench")
    parser.add_argument("--wait", type=float, default=120.0)
    args = parser.parse_args()
    for scenario in args.scenario.split(","):
        result = run(scenario, args.code_root.resolve(), args.database, args.wait)
        result["load_average"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps({"scenario": scenario, **result}), flush=True)


if __name__ == "__main__":
    main()
