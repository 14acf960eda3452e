#!/usr/bin/env bash
# Embedded development server: uvicorn (ASGI: the live event streams need it) + one Celery
# worker with embedded beat.
# Works with no environment at all (SQLite + kombu filesystem broker under $VAR_DIR, default
# var/). Migrates and collects the static files first.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=.venv/bin/python
CELERY=.venv/bin/celery
PORT="${PORT:-8000}"
VAR="${VAR_DIR:-var}"

# DEBUG is off by default everywhere else; this development server turns it on for itself
# (and with it the development SECRET_KEY and plain-HTTP cookies).
export DEBUG="${DEBUG:-true}"
# Emails are printed to the console here (unless EMAIL_HOST is set): nobody could click a
# verification link, so game emails go to unverified addresses too.
export ACCOUNT_REQUIRE_VERIFIED_EMAIL="${ACCOUNT_REQUIRE_VERIFIED_EMAIL:-false}"
# Links in emails point at this server, whatever its port.
export SITE_BASE_URL="${SITE_BASE_URL:-http://127.0.0.1:${PORT}}"

"$PY" manage.py migrate --noinput

# Web push: a development VAPID key pair, made once and kept under $VAR (VAPID_PRIVATE_KEY,
# when set, wins). Production sets its own key (README, "Web push").
if [ -z "${VAPID_PRIVATE_KEY:-}" ]; then
    export VAPID_PRIVATE_KEY_FILE="${VAPID_PRIVATE_KEY_FILE:-$VAR/vapid-private-key.txt}"
    if [ ! -s "$VAPID_PRIVATE_KEY_FILE" ]; then
        mkdir -p "$(dirname "$VAPID_PRIVATE_KEY_FILE")"
        (umask 077 && "$PY" manage.py vapid_key > "$VAPID_PRIVATE_KEY_FILE.tmp" 2>/dev/null)
        mv "$VAPID_PRIVATE_KEY_FILE.tmp" "$VAPID_PRIVATE_KEY_FILE"
        echo "Made a development VAPID key for web push: $VAPID_PRIVATE_KEY_FILE"
    fi
fi
"$PY" manage.py collectstatic --noinput -v 0

if [ -z "${REDIS_URL:-}" ]; then
    echo "REDIS_URL not set: Celery uses the filesystem broker under var/celery/"
fi

worker_pid=""
server_pid=""
cleanup() {
    trap - EXIT INT TERM
    # Children run in their own sessions. The server's group gets TERM;
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
    --schedule "$VAR/celerybeat-schedule" &
worker_pid=$!
echo "Celery worker started (pid $worker_pid)"

echo "Serving on http://127.0.0.1:${PORT}/ (API docs: /api/v1/docs/, admin: /admin/)"
echo "Emails are printed below; their links use SITE_BASE_URL=${SITE_BASE_URL}"
# ASGI, no autoreload: the event streams (GET /api/v1/events) are async views; WhiteNoise serves
# the static files collected above. Without Redis, events pass between the worker and this
# server through the database (LIVE_BACKEND=db).
setsid "$PY" -m uvicorn config.asgi:application --host 127.0.0.1 --port "${PORT}" \
    --no-access-log --no-proxy-headers --timeout-graceful-shutdown 3 &
server_pid=$!
echo "Server started (pid $server_pid)"
# Returns when the server exits or a signal arrives; the EXIT trap stops the worker.
wait "$server_pid"
