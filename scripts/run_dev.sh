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

worker_pid=""
server_pid=""
cleanup() {
    trap - EXIT INT TERM
    # Children run in their own sessions. The server's group (autoreloader + child) gets TERM;
    # the worker's main process gets TERM (warm shutdown), its group KILL if it hangs.
    [ -n "$server_pid" ] && { kill -TERM -- "-$server_pid" 2>/dev/null || true; }
    if [ -n "$worker_pid" ] && kill -0 "$worker_pid" 2>/dev/null; then
        echo "Stopping Celery worker (pid $worker_pid)"
        kill -TERM "$worker_pid" 2>/dev/null || true
        for _ in $(seq 1 30); do
            kill -0 "$worker_pid" 2>/dev/null || break
            sleep 0.5
        done
        kill -KILL -- "-$worker_pid" 2>/dev/null || true
    fi
    [ -n "$server_pid" ] && { kill -KILL -- "-$server_pid" 2>/dev/null || true; }
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

setsid "$CELERY" -A config worker -B --loglevel=info --concurrency=2 \
    --schedule var/celerybeat-schedule &
worker_pid=$!
echo "Celery worker started (pid $worker_pid)"

echo "Serving on http://127.0.0.1:${PORT}/ (API docs: /api/v1/docs/, admin: /admin/)"
setsid "$PY" manage.py runserver "127.0.0.1:${PORT}" &
server_pid=$!
# Returns when the server exits or a signal arrives; the EXIT trap stops the worker.
wait "$server_pid"
