"""Benchmark: ``POST games/{id}/moves`` under 8 concurrent clients on PostgreSQL, beside an
authenticated no-op endpoint (``GET me``) measured by the same clients in the same run.

    .venv/bin/python bench/api.py [--clients 8] [--seconds 20] [--port 0]
        [--server wsgi|asgi|uvicorn] [--workers 2] [--rounds 3] [--plan 1500]
        [--kind crazy10s|crazy_eights]

It (re)creates its own database ``c10s_bench`` (``BENCH_DATABASE_URL`` overrides), migrates it,
starts ``gunicorn config.wsgi -w 2 --threads 4`` (``--server asgi``: ``gunicorn config.asgi -k
uvicorn.workers.UvicornWorker -w 2``, as the Dockerfile; ``uvicorn``: ``uvicorn --workers 2``,
as ``make run``) on a free localhost port, and lets each client
play its own games against a human opponent (the client holds both players' tokens, so no
computer turn interferes), playing legal placements or passing. It prints
moves/s and p50/p95 latency of both endpoints and their ratio, the load average, the CPU
the clients themselves used, and the CPU per request of
each endpoint split into the server's processes, its PostgreSQL backends, Redis and the
clients (read from /proc: Linux only).

The clients share the server's cores, so their moves are chosen before the clock starts: each
client creates its games first and plays each one out in this process with the engine, from the
game's stored state (read from the benchmark's own database: the bench is the operator here),
choosing the placements of at most three of the rack's digit tiles, the first of them in a
seeded order, or a pass (``--kind crazy_eights``: two-player matches, a card of the hand in a
seeded order when one is legal, else the draw, take or pass). During the run a client only
posts the planned moves, and checks each answer's status as ``GET me``'s is checked. Their
CPU time per move is printed so that a run where they competed with the server shows it.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import psycopg
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import describe  # noqa: E402
from games.crazy10s.engine import (  # noqa: E402  (pure engine: no Django needed)
    GameState,
    apply_move,
    format_move,
    generate_placements,
    parse_move,
)
from games.crazy_eights import engine as c8  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_bench"
PASSWORD = "bench-Pass-123!"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _recreate_database(url: str) -> None:
    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(scheme="postgresql", path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _server_env(db_url: str, var_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=db_url,
        DB_CONN_MAX_AGE="60",
        DEBUG="0",
        SECRET_KEY="bench-only-secret-key-" + "b3n" * 12,
        PUZZLE_SECRET="bench-only-puzzle-secret-" + "p7z" * 12,
        SECURE_SSL_REDIRECT="false",  # the benchmark speaks plain HTTP to gunicorn
        VAR_DIR=var_dir,
        THROTTLE_GAME_WRITES="1000000/min",
        THROTTLE_REGISTER="1000000/min",
        THROTTLE_LOGIN="1000000/min",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        LOG_LEVEL="WARNING",
    )
    # Queued side effects (e-mails) go to a Redis database of their own, or to the file broker.
    env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", "")
    return env


@dataclass
class Timings:
    moves: list[float] = field(default_factory=list)
    me: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    client_cpu_moves: float = 0.0
    client_cpu_me: float = 0.0
    load: tuple[float, float] = (0.0, 0.0)
    # CPU seconds of the server's processes, its PostgreSQL backends and its Redis per phase.
    side_cpu: dict[str, dict[str, float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1


@dataclass
class PlannedGame:
    game_id: int
    moves: list[tuple[int, str]]  # (the client's player 0 or 1 who moves, its notation)


class Client:
    """One benchmark client: two players (a, b) playing each other, game after game, their
    moves planned before the run (``plan``)."""

    def __init__(self, base: str, index: int, db_url: str, kind: str = "crazy10s") -> None:
        self.base = base
        self.kind = kind
        self.index = index
        self.db_url = db_url
        self.rng = random.Random(index)
        self.tokens = [self._register(f"bench{index}a"), self._register(f"bench{index}b")]
        self.sessions = []
        for token in self.tokens:
            session = requests.Session()
            session.headers["Authorization"] = f"Token {token}"
            self.sessions.append(session)
        self.games: list[PlannedGame] = []
        self.next_move = 0  # index into self.games[0].moves

    def _register(self, username: str) -> str:
        response = requests.post(
            f"{self.base}/auth/register",
            json={"username": username, "email": f"{username}@bench.test",
                  "password": PASSWORD, "language": "en"},
            timeout=30,
        )
        response.raise_for_status()
        return response.json()["token"]

    def plan(self, moves: int) -> None:
        """Create games and play them out here until ``moves`` moves are planned."""
        planned = 0
        with psycopg.connect(self.db_url.replace("postgres://", "postgresql://", 1)) as db:
            while planned < moves:
                game = self._plan_game(db)
                self.games.append(game)
                planned += len(game.moves)

    def _plan_game(self, db: psycopg.Connection) -> PlannedGame:
        if self.kind == "crazy_eights":
            return self._plan_crazy_eights(db)
        response = self.sessions[0].post(
            f"{self.base}/games",
            json={"opponent": {"username": f"bench{self.index}b"}, "turn_hours": 72},
            timeout=30,
        )
        response.raise_for_status()
        game_id = response.json()["id"]
        first = 0 if self.sessions[0].get(f"{self.base}/games/{game_id}").json()["your_turn"] else 1
        (stored,) = db.execute("SELECT state FROM games_game WHERE id = %s", (game_id,)).fetchone()
        state = GameState.from_dict(stored)
        client_of = {state.current_player: first, 1 - state.current_player: 1 - first}
        moves: list[tuple[int, str]] = []
        while not state.is_over:
            notation = self._choose(state)
            moves.append((client_of[state.current_player], notation))
            state = apply_move(state, parse_move(notation)).state
        return PlannedGame(game_id, moves)

    def _plan_crazy_eights(self, db: psycopg.Connection) -> PlannedGame:
        """A two-player Crazy Eights match between the client's players (seat 0 is player a),
        played out with a card of the hand when one is legal (random among them), else the
        draw, take or pass the rules leave."""
        response = self.sessions[0].post(
            f"{self.base}/games",
            json={"kind": "crazy_eights", "turn_hours": 72,
                  "seats": [{"you": True}, {"username": f"bench{self.index}b"}]},
            timeout=30,
        )
        response.raise_for_status()
        game_id = response.json()["id"]
        (stored,) = db.execute("SELECT state FROM games_game WHERE id = %s", (game_id,)).fetchone()
        state = c8.GameState.from_dict(stored["engine"])
        moves: list[tuple[int, str]] = []
        while not state.is_over:
            legal = c8.legal_moves(state)
            plays = [m for m in legal if isinstance(m, c8.Play)]
            move = self.rng.choice(plays) if plays else sorted(legal, key=c8.format_move)[0]
            assert state.turn is not None  # a match not over has a seat to act
            moves.append((state.turn, c8.format_move(move)))
            state = c8.apply_legal(state, move).state
        return PlannedGame(game_id, moves)

    def _choose(self, state: GameState) -> str:
        rack = state.racks[state.current_player]
        digits = [t for t in rack if 0 <= t <= 9]
        for _ in range(2):
            subset = tuple(self.rng.sample(digits, min(3, len(digits))))
            placements = generate_placements(state.board, subset)
            if placements:
                return format_move(self.rng.choice(placements[:20]).move)
        return "pass"

    def play_one(self, timings: Timings) -> None:
        if not self.games:
            timings.error("plan used up (raise --plan)")
            time.sleep(0.1)
            return
        game = self.games[0]
        mover, move = game.moves[self.next_move]
        start = time.perf_counter()
        response = self.sessions[mover].post(
            f"{self.base}/games/{game.game_id}/moves",
            json={"move": move, "expected_move_number": self.next_move},
            timeout=30,
        )
        elapsed = time.perf_counter() - start
        self.next_move += 1
        if response.status_code != 201:
            timings.error(f"move {response.status_code}")
            self.next_move = len(game.moves)  # the plan no longer fits this game: the next one
        else:
            with timings.lock:
                timings.moves.append(elapsed)
        if self.next_move == len(game.moves):
            self.games.pop(0)
            self.next_move = 0

    def me_once(self, timings: Timings) -> None:
        start = time.perf_counter()
        response = self.sessions[0].get(f"{self.base}/me", timeout=30)
        elapsed = time.perf_counter() - start
        if response.status_code != 200:
            timings.error(f"me {response.status_code}")
        with timings.lock:
            timings.me.append(elapsed)


_TICK = os.sysconf("SC_CLK_TCK")


def _side_cpu(server_pgid: int, db_name: str, redis_port: str) -> dict[str, dict[int, float]]:
    """CPU seconds so far of each process serving the benchmark: the web server (its process
    group), the PostgreSQL backends connected to the benchmark's database (their titles name
    it; the server's shared WAL writer and checkpointer are left out) and the Redis server of
    BENCH_REDIS_URL (shared with whatever else uses it). Linux's /proc only; empty elsewhere."""
    found: dict[str, dict[int, float]] = {"server": {}, "postgres": {}, "redis": {}}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            pid = int(entry.name)
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cpu = (int(stat[11]) + int(stat[12])) / _TICK  # utime + stime
            group = os.getpgid(pid)
        except (OSError, ValueError, IndexError):  # gone meanwhile, or not ours to read
            continue
        if group == server_pgid:
            found["server"][pid] = cpu
        elif cmdline.startswith("postgres: ") and f" {db_name} " in cmdline:
            found["postgres"][pid] = cpu
        elif redis_port and cmdline.startswith("redis-server") and f":{redis_port}" in cmdline:
            found["redis"][pid] = cpu
    return found


def _cpu_used(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
              ) -> dict[str, float]:
    # A process started during the phase counts whole; one that ended during it is lost.
    return {kind: sum(cpu - before[kind].get(pid, 0.0) for pid, cpu in after[kind].items())
            for kind in after}


def _run_phase(clients: list[Client], seconds: float, step, timings: Timings) -> float:
    barrier = threading.Barrier(len(clients) + 1)
    stop = threading.Event()

    def loop(client: Client) -> None:
        barrier.wait()
        while not stop.is_set():
            step(client, timings)

    threads = [threading.Thread(target=loop, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def _percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else (
        values[0] if values else float("nan"))


def _wait_until_up(base: str, server: subprocess.Popen) -> None:
    for _ in range(200):
        if server.poll() is not None:
            raise SystemExit("gunicorn exited before serving")
        try:
            requests.get(f"{base}/schema/", timeout=10)
            return
        except requests.RequestException:  # not listening yet, or busy starting up
            time.sleep(0.1)
    raise SystemExit("gunicorn did not come up")


SERVERS = {
    "wsgi": "gunicorn config.wsgi -w {w} --threads 4",
    "asgi": "gunicorn config.asgi -k uvicorn.workers.UvicornWorker -w {w}",
    "uvicorn": "uvicorn config.asgi:application --workers {w}",
}


def _server_command(args, port: int) -> list[str]:
    w = str(args.workers)
    if args.server == "uvicorn":
        return [sys.executable, "-m", "uvicorn", "config.asgi:application", "--workers", w,
                "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
                "--log-level", "warning"]
    common = ["-w", w, "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    if args.server == "asgi":
        return [sys.executable, "-m", "gunicorn", "config.asgi:application",
                "-k", "uvicorn.workers.UvicornWorker", *common]
    return [sys.executable, "-m", "gunicorn", "config.wsgi", "--threads", "4", *common]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--server", choices=["wsgi", "asgi", "uvicorn"], default="wsgi")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3,
                        help="the endpoints take turns this many times (seconds each: "
                        "--seconds / --rounds)")
    parser.add_argument("--plan", type=int, default=1500,
                        help="moves planned per client before the run (its games' moves)")
    parser.add_argument("--kind", choices=["crazy10s", "crazy_eights"], default="crazy10s",
                        help="the games the clients play (Crazy Eights: two-player matches)")
    args = parser.parse_args()

    db_url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB)
    port = args.port or _free_port()
    base = f"http://127.0.0.1:{port}/api/v1"
    with tempfile.TemporaryDirectory(prefix="c10s-bench-") as var_dir:
        env = _server_env(db_url, var_dir)
        # The same persistent connections for every server: under ASGI the sync views run on
        # config/asgi.py's fixed thread pool, one connection per thread as with gunicorn's.
        _recreate_database(db_url)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                       cwd=ROOT, env=env, check=True)
        server = subprocess.Popen(_server_command(args, port), cwd=ROOT, env=env,
                                  start_new_session=True)
        try:
            _wait_until_up(base, server)
            clients = [Client(base, i, db_url, args.kind) for i in range(args.clients)]
            planning = time.perf_counter()
            for client in clients:
                client.plan(args.plan)
            print(f"planned {sum(len(g.moves) for c in clients for g in c.games)} moves in "
                  f"{time.perf_counter() - planning:.1f} s; moving for {args.seconds:.0f} s",
                  flush=True)
            timings = Timings()
            side = (server.pid, urlparse(db_url).path.lstrip("/"),
                    str(urlparse(env["REDIS_URL"]).port or "") if env["REDIS_URL"] else "")
            # The endpoints take turns (--rounds), so that both see the same machine: on a
            # shared VM the speed drifts within a minute, and one long phase each measured it.
            move_secs = me_secs = 0.0
            slice_ = args.seconds / args.rounds
            loads: dict[str, list[float]] = {"moves": [], "me": []}
            for _ in range(args.rounds):
                for phase, step in (("moves", Client.play_one), ("me", Client.me_once)):
                    cpu, before = time.process_time(), _side_cpu(*side)
                    secs = _run_phase(clients, slice_, step, timings)
                    used = time.process_time() - cpu
                    side_used = _cpu_used(before, _side_cpu(*side))
                    totals = timings.side_cpu.setdefault(phase, {})
                    for kind, value in side_used.items():
                        totals[kind] = totals.get(kind, 0.0) + value
                    loads[phase].append(os.getloadavg()[0])
                    if phase == "moves":
                        move_secs += secs
                        timings.client_cpu_moves += used
                    else:
                        me_secs += secs
                        timings.client_cpu_me += used
            timings.load = (max(loads["moves"]), max(loads["me"]))
        finally:
            server.terminate()
            server.wait(timeout=30)
    _report(args, timings, move_secs, me_secs)


def _report(args, timings: Timings, move_secs: float, me_secs: float) -> None:
    def line(name: str, values: list[float], secs: float) -> tuple[float, float, float]:
        rate = len(values) / secs
        p50, p95 = _percentile(values, 50) * 1000, _percentile(values, 95) * 1000
        print(f"{name:<26} {len(values):>6} req  {rate:8.1f} req/s  "
              f"p50 {p50:7.1f} ms  p95 {p95:7.1f} ms")
        return rate, p50, p95

    server = SERVERS[args.server].format(w=args.workers)
    print(f"{args.clients} clients, {args.seconds:.0f} s per endpoint in {args.rounds} turns, "
          f"{server}, PostgreSQL, {args.kind} moves; after the run, {describe()}")
    move = line("POST games/{id}/moves", timings.moves, move_secs)
    me = line("GET me (no-op)", timings.me, me_secs)
    print(f"moves/no-op throughput: {100 * move[0] / me[0]:.1f} %; ratio no-op/moves "
          f"{me[0] / move[0]:.2f}x, p50 latency moves/no-op {move[1] / me[1]:.2f}x, "
          f"p95 {move[2] / me[2]:.2f}x")
    per_move = 1000 * timings.client_cpu_moves / max(len(timings.moves), 1)
    per_me = 1000 * timings.client_cpu_me / max(len(timings.me), 1)
    print(f"clients' own CPU while moving: {timings.client_cpu_moves:.1f} s "
          f"({per_move:.1f} ms per move, chosen before the run; GET me "
          f"{per_me:.1f} ms per request); load average (1 min) at most {timings.load[0]:.2f} "
          f"after the moves, {timings.load[1]:.2f} after GET me; "
          f"{os.cpu_count()} cores")
    for phase, count, client in (("move", len(timings.moves), timings.client_cpu_moves),
                                  ("GET me", len(timings.me), timings.client_cpu_me)):
        used = timings.side_cpu.get("moves" if phase == "move" else "me", {})
        if not used or not count:
            continue
        parts = {**used, "clients": client}
        total = sum(parts.values())
        print(f"CPU per {phase}: {1000 * total / count:.1f} ms = " + " + ".join(
            f"{name} {1000 * secs / count:.1f}" for name, secs in parts.items()))
    if timings.errors:
        print(f"non-2xx responses: {timings.errors}")


if __name__ == "__main__":
    main()
