#!/usr/bin/env bash
# Embedded development server: Django runserver + one Celery worker with embedded beat.
# Works with no environment at all (SQLite + kombu filesystem broker under var/celery/).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=.venv/bin/python
CELERY=.venv/bin/celery
PORT="${PORT:-8000}"

mkdir -p var/celery/queue var/celery/processed var/cache

if [ -z "${REDIS_URL:-}" ]; then
    echo "REDIS_URL not set: Celery uses the filesystem broker under var/celery/"
fi

pids=()
cleanup() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do
        # Each child runs in its own session: signal the whole group (autoreloader, pool).
        kill -TERM -- "-$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 20); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -KILL -- "-$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

setsid "$CELERY" -A config worker -B --loglevel=info --concurrency=2 \
    --schedule var/celerybeat-schedule &
pids+=($!)
echo "Celery worker started (pid $!)"

echo "Serving on http://127.0.0.1:${PORT}/ (API docs: /api/v1/docs/, admin: /admin/)"
setsid "$PY" manage.py runserver "127.0.0.1:${PORT}" &
server_pid=$!
pids+=("$server_pid")
# Returns when the server exits or a signal arrives; the EXIT trap stops the worker.
wait "$server_pid"
