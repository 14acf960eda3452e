#!/usr/bin/env bash
# Runs the test suite. With PostgreSQL and Redis reachable it runs everything against them;
# otherwise it runs on SQLite and leaves out the tests that need the missing service
# (or, when CI=true, refuses to run).
# The tests flush their Redis databases before and after every test: they use TEST_REDIS_URL
# (by default database 14 of REDIS_URL's server) as their broker and the next database as their
# cache, never the service's (tests/django_env.py refuses a test database equal to one).
set -uo pipefail
cd "$(dirname "$0")/.."

PY=.venv/bin/python
# Most tests wait on servers, workers and browsers rather than compute: two xdist workers
# (each with its own test database, Redis databases and VAR_DIR: tests/django_env.py) use the
# two cores. TEST_WORKERS=0 runs in one process. worksteal: a worker that runs out takes
# tests from the other's queue, so the few 60-100 s fault scenarios do not leave one worker
# finishing alone (with "load" the queue a worker was handed stayed its own).
workers="${TEST_WORKERS:-2}"
if [ "$workers" != 0 ]; then
    set -- -n "$workers" --dist worksteal "$@"
fi
PG_PROBE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
REDIS_PROBE_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"

have_pg=0
have_redis=0
if PROBE_URL="$PG_PROBE_URL" "$PY" - <<'PY' >/dev/null 2>&1
import os
import psycopg
from urllib.parse import urlparse
url = os.environ["PROBE_URL"]
if urlparse(url).scheme not in {"postgres", "postgresql", "pgsql"}:
    raise SystemExit(1)
# The target database may not exist yet (pytest-django creates test_<name>): probe "postgres".
url = url.replace("pgsql://", "postgresql://", 1)
parts = urlparse(url)._replace(path="/postgres").geturl()
# A busy machine can make one connection slow: try a few times before calling it missing.
for attempt in range(3):
    try:
        psycopg.connect(parts, connect_timeout=5).close()
        break
    except psycopg.OperationalError:
        if attempt == 2:
            raise
PY
then have_pg=1; fi

if PROBE_URL="$REDIS_PROBE_URL" "$PY" - <<'PY' >/dev/null 2>&1
import os
import redis
redis.Redis.from_url(os.environ["PROBE_URL"], socket_connect_timeout=3).ping()
PY
then have_redis=1; fi
if [ "$have_redis" = 1 ] && [ -n "${TEST_REDIS_URL:-}" ]; then
    PROBE_URL="$TEST_REDIS_URL" "$PY" -c 'import os, redis
redis.Redis.from_url(os.environ["PROBE_URL"], socket_connect_timeout=3).ping()' \
        >/dev/null 2>&1 || have_redis=0
fi

if [ "$have_pg" = 1 ] && [ "$have_redis" = 1 ]; then
    export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/crazy10s}"
    export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
    echo "PostgreSQL and Redis reachable: running the full suite" \
        "(tests' Redis: ${TEST_REDIS_URL:-database 14 of $REDIS_URL} and the next database)"
    exec "$PY" -m pytest "$@"
fi

missing=()
[ "$have_pg" = 1 ] || missing+=("PostgreSQL ($PG_PROBE_URL)")
[ "$have_redis" = 1 ] || missing+=("Redis ($REDIS_PROBE_URL)")
if [ "${CI:-}" = "true" ]; then
    echo "ERROR: CI=true but not reachable: ${missing[*]}. CI must run the full suite." >&2
    exit 1
fi

markers=()
if [ "$have_pg" = 0 ]; then
    echo "PostgreSQL not reachable: running on SQLite and leaving out tests marked postgres"
    unset DATABASE_URL
    markers+=("not postgres")
else
    export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/crazy10s}"
    echo "PostgreSQL reachable: running on $DATABASE_URL"
fi
if [ "$have_redis" = 0 ]; then
    echo "Redis not reachable: leaving out tests marked redis or worker"
    unset REDIS_URL
    markers+=("not redis" "not worker")
else
    export REDIS_URL="$REDIS_PROBE_URL"
fi
expr=""
for m in "${markers[@]}"; do
    expr="${expr:+$expr and }$m"
done
exec "$PY" -m pytest -m "$expr" "$@"
