"""Emails lost and 5xx answers under faults, measured through the HTTP API of a real gunicorn
+ Celery worker (+ beat) on PostgreSQL and a private redis-server (see
tests/integration/faults.py, which the fault suite also uses):

- ``redis``: Redis killed and restarted empty while players move -> emails lost of N moves;
- ``db``: the worker's database refuses connections for 15 s -> emails lost of N moves;
- ``hung``: Redis SIGSTOPped -> 5xx answers and the longest wait.

    .venv/bin/python bench/faults.py [--code-root DIR] [--scenario redis,db,hung] [--wait 120]

``--code-root`` runs the web and the worker from another checkout (e.g. the code before a
change: ``git archive 7344aca | tar -x -C /tmp/before``); the probe itself stays this one.
A fresh database ``c10s_faults_bench`` (``--database``) is created and migrated per scenario.
"""

from __future__ import annotations

import argparse
import json
import sys
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
        proxy = faults.TcpProxy("127.0.0.1", 5432)
        try:
            worker_url = f"postgres://postgres@127.0.0.1:{proxy.port}/{database}"
            with faults.Rig(code_root, url, worker_url) as rig:
                return faults.db_outage(rig, proxy, wait=wait)
        finally:
            proxy.close()
    with faults.Rig(code_root, url) as rig:
        if scenario == "redis":
            return faults.redis_restart(rig, wait=wait)
        return faults.redis_hung(rig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code-root", type=Path, default=ROOT)
    parser.add_argument("--scenario", default="redis,db,hung")
    parser.add_argument("--database", default="c10s_faults_bench")
    parser.add_argument("--wait", type=float, default=120.0)
    args = parser.parse_args()
    for scenario in args.scenario.split(","):
        result = run(scenario, args.code_root.resolve(), args.database, args.wait)
        print(json.dumps({"scenario": scenario, **result}), flush=True)


if __name__ == "__main__":
    main()
