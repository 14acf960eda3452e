#!/usr/bin/env bash
# The README's walkthrough ("Playing a game with curl"), played against a running service:
#   scripts/demo.sh [BASE_URL]        (default http://127.0.0.1:8000; start one with `make run`)
# Registers a new player, plays one move against the computer, shows the ETag/304 exchange,
# resigns and logs out. Stops with an error at the first request that fails.
# Needs curl and python3; the legal move comes from the engine's command line (.venv).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then BASE="${1%/}/api/v1"; fi

# --- walkthrough: README.md shows exactly the lines from here to the end marker -------------
BASE=${BASE:-http://127.0.0.1:8000/api/v1}
PY=${PY:-.venv/bin/python}   # for the engine's command line

# api ARGS...: curl that stops at an HTTP error (showing the error body) and ends with a newline
api() { curl -sS --fail-with-body "$@"; echo; }
# field NAME [SEP]: one field of the JSON object on stdin; a list is joined with SEP
field() { python3 -c 'import json, sys
v = json.load(sys.stdin)[sys.argv[1]]
print(sys.argv[2].join(v) if isinstance(v, list) else json.dumps(v) if isinstance(v, bool) else v)
' "$@" ""; }
# wait_for_turn: the computer plays within seconds (a worker plays it)
wait_for_turn() {
  for _ in $(seq 90); do
    [ "$(api $BASE/games/$GAME -H "$AUTH" | field your_turn)" = true ] && return; sleep 1
  done
  echo "still not your turn: is a worker running?" >&2; return 1
}

# Register a new player (returns the user and a token); usernames are unique, so add a number
NAME="alice$(date +%s)"
PASSWORD='s3cret-Pass!'
api -X POST $BASE/auth/register -H 'Content-Type: application/json' -d "{\"username\": \"$NAME\",
  \"email\": \"$NAME@example.test\", \"password\": \"$PASSWORD\", \"language\": \"en\"}"

# Log in (later) to get the token again
TOKEN=$(api -X POST $BASE/auth/token -H 'Content-Type: application/json' \
  -d "{\"username\": \"$NAME\", \"password\": \"$PASSWORD\"}" | field token)
AUTH="Authorization: Token $TOKEN"

# Who am I? Change preferences (language en/de/fr/pt-br; turn_emails off/each/digest)
api $BASE/me -H "$AUTH"
api -X PATCH $BASE/me -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"display_name": "Alice", "turn_emails": "each"}'

# The computer's levels
api $BASE/games/computer-levels -H "$AUTH"

# Start a game against the computer: its seats in order, one of them yours ({"username": "bob"}
# for a friend, {"random": true} for a random opponent). turn_hours: 1, 8, 24, 48, 72 (default),
# 120, 168, 240 or 336; the kind's own options (Crazy10s: layout classic or random).
GAME=$(api -X POST $BASE/games -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"kind": "crazy10s", "seats": [{"you": true}, {"computer": "beginner"}],
       "turn_hours": 24, "options": {"layout": "classic"}}' \
  | field id)

# Who moves first is drawn by lot: if it is the computer, wait for its move
wait_for_turn

# Your view: board rows, bonus squares, your rack, scores, your_turn, move_number, deadline
VIEW=$(api $BASE/games/$GAME -H "$AUTH")
echo "$VIEW"

# Its ETag lets a polling client ask "anything new?" cheaply: 304 Not Modified if nothing is
ETAG=$(curl -sS -o /dev/null -D - $BASE/games/$GAME -H "$AUTH" \
  | tr -d '\r' | awk 'tolower($1) == "etag:" {print $2}')
CODE=$(curl -sS -o /dev/null -w '%{http_code}' $BASE/games/$GAME -H "$AUTH" \
  -H "If-None-Match: $ETAG")
echo "If-None-Match: $ETAG -> $CODE"
test "$CODE" = 304

# Your rack is random: ask the engine's command line for the best move on this board
MOVE=$($PY -m games.crazy10s analyze --board "$(echo "$VIEW" | field board /)" \
  --rack "$(echo "$VIEW" | field rack)" --top 1 \
  | python3 -c 'import json, sys; m = json.load(sys.stdin)["moves"]; print(m[0]["move"] if m else "pass")')
NUMBER=$(echo "$VIEW" | field move_number)
echo "best move: $MOVE"

# Try it without playing it: {"legal", "score", "lines", "error"}
api -X POST $BASE/games/$GAME/preview -H "$AUTH" -H 'Content-Type: application/json' \
  -d "{\"move\": \"$MOVE\"}"

# Play it. expected_move_number is the move_number of the view you chose it on (409
# stale_move_number if the game moved on); an Idempotency-Key makes a retry safe.
# -> 201 {"score": ..., "lines": [...], "drawn": [...], "game": {...the new view...}}
api -X POST $BASE/games/$GAME/moves -H "$AUTH" -H 'Content-Type: application/json' \
  -H "Idempotency-Key: game-$GAME-move-$NUMBER" \
  -d "{\"move\": \"$MOVE\", \"expected_move_number\": $NUMBER}"
# Other turns: {"move": "pass", ...}, {"move": "swap 3 5 *", ...}; the same placement with
# structured tiles: {"tiles": [{"square": "g7", "digit": 3}, {"square": "h7", "digit": 7,
# "wild": true}], "expected_move_number": ...}

# The computer answers; then the history (an opponent's swap shows only the count: "swap 3")
wait_for_turn
api $BASE/games/$GAME/moves -H "$AUTH"

# Your games: active ones with your turn first, then by deadline; ?status=finished for old ones
api "$BASE/games?status=active" -H "$AUTH"

# The rules and this game's bonus squares; giving up
api $BASE/games/$GAME/how-to-play -H "$AUTH"
api -X POST $BASE/games/$GAME/resign -H "$AUTH"

# Once it is over (409 game_not_over before): each move's score, the best the mover could have
# made and that move, "complete": false while a worker is still on it
api $BASE/games/$GAME/analysis -H "$AUTH"

# Log out: the token is deleted, and using it again answers 401
api -X POST $BASE/auth/logout -H "$AUTH"
CODE=$(curl -sS -o /dev/null -w '%{http_code}' $BASE/me -H "$AUTH")
echo "after logout: $CODE"
test "$CODE" = 401
# --- end of walkthrough --------------------------------------------------------------------

echo "Walkthrough completed: game $GAME"
