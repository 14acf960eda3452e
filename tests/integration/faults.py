"""Fault injection for the fault suite and bench/faults.py: a private redis-server, TCP proxies
in front of PostgreSQL that can refuse connections, and the service's processes from any
checkout of the project as production runs them (README, "Production": the web under gunicorn
with uvicorn workers, ``-c config/gunicorn.py config.asgi:application``, ``DEBUG`` off; a
Celery worker; beat as its own process), driven through the HTTP API only (so the same probe
measures the code before and after a change).

Nothing here touches the machine's shared Redis or PostgreSQL servers beyond one database.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import requests

from tests.integration.workers import free_port

ROOT = Path(__file__).resolve().parents[2]


# --- a private Redis ------------------------------------------------------------------------
class PrivateRedis:
    """``redis-server`` on a free port, without persistence: a restart loses every key."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="c10s-redis-")
        self.proc: subprocess.Popen | None = None
        self.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the private redis-server did not start")

    def kill(self) -> None:
        """Gone at once, data and all (a crash of a server without persistence)."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait()

    def restart(self) -> None:
        self.kill()
        self.start()

    def pause(self) -> None:
        """Hung: connections are accepted by the kernel, nothing is ever answered."""
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


# --- a TCP proxy that can refuse ------------------------------------------------------------
class TcpProxy:
    """Forwards a free local port to ``target``; ``refuse()`` closes the listening socket and
    cuts every open connection (new ones are refused) until ``accept_again()``."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._lock = threading.Lock()
        self._conns: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._stop = threading.Event()
        self.accept_again()

    def accept_again(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.1)
        self._listener = listener
        self._stop = threading.Event()
        threading.Thread(target=self._serve, args=(listener, self._stop), daemon=True).start()

    def refuse(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            conns, self._conns = self._conns, set()
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            conn.close()

    def close(self) -> None:
        self.refuse()

    def _serve(self, listener: socket.socket, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            client.settimeout(None)
            with self._lock:
                self._conns.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


# --- web, worker and beat processes ----------------------------------------------------------
# Made up per run: the processes refuse to start with DEBUG off and no (or a published) key.
_SECRET_KEY = secrets.token_urlsafe(50)
_PUZZLE_SECRET = secrets.token_urlsafe(50)


def service_env(*, database_url: str, redis_url: str, smtp_port: int, extra: dict | None = None
                ) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "NOTIFY_"))}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp_port),
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        # Production's settings (DEBUG off), served over plain HTTP on 127.0.0.1.
        DEBUG="false",
        SECRET_KEY=_SECRET_KEY,
        PUZZLE_SECRET=_PUZZLE_SECRET,
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        # Persistent connections, checked before reuse: production's (docker-compose.yml).
        DB_CONN_MAX_AGE="60",
        DB_CONN_HEALTH_CHECKS="true",
        LOG_LEVEL="INFO",
        THROTTLE_LOGIN="100000/min",
        THROTTLE_REGISTER="100000/min",
        NOTIFY_GATHER_MINUTES="0",  # every turn email goes on its own: one key per move
        NOTIFY_SEEN_SECONDS="0",
        # The probe's players register through the API and never open their verification
        # link: their turn emails are what is measured.
        ACCOUNT_REQUIRE_VERIFIED_EMAIL="false",
        # Fast sweeps and short ages so that recovery is measured in seconds (ignored by code
        # that has no such settings).
        NOTIFY_SWEEP_SECONDS="2",
        NOTIFY_OUTBOX_AGE_SECONDS="3",
        NOTIFY_SEND_STALE_SECONDS="10",
    )
    env.pop("CACHE_REDIS_URL", None)
    env.update(extra or {})
    return env


@dataclass
class Service:
    proc: subprocess.Popen
    log_path: Path

    def log(self, tail: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-tail:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGCONT)
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=15)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait()
        self.log_path.unlink(missing_ok=True)

    def pause(self) -> None:
        os.killpg(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.killpg(self.proc.pid, signal.SIGCONT)


def _spawn(args: list[str], *, code_root: Path, env: dict, ready: str, timeout: float = 60
           ) -> Service:
    fd, log_path = tempfile.mkstemp(prefix="c10s-fault-", suffix=".log")
    env = dict(env, PYTHONPATH=str(code_root))
    with os.fdopen(fd, "wb") as log:
        proc = subprocess.Popen(args, cwd=code_root, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    service = Service(proc, Path(log_path))
    end = time.monotonic() + timeout
    while ready not in service.log_path.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > end:
            text = service.log()
            service.stop()
            raise AssertionError(f"{args[2:4]} did not start:\n{text}")
        time.sleep(0.05)
    return service


def start_web(*, code_root: Path, env: dict) -> tuple[Service, str]:
    """The README's production command (one web process: the faults are per process)."""
    port = free_port()
    service = _spawn(
        [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py", "config.asgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        code_root=code_root, env=env, ready="Booting worker",
    )
    base = f"http://127.0.0.1:{port}/api/v1"
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            requests.get(f"{base}/games/computer-levels", timeout=2)
            return service, base
        except requests.RequestException:
            time.sleep(0.1)
    service.stop()
    raise AssertionError("the web server did not answer")


def start_worker(*, code_root: Path, env: dict, app: str = "config") -> Service:
    """A worker whose tasks run in threads of this very process (SIGKILL stops them all dead);
    four at a time, so that 200 emails after an outage are sent in a minute or two."""
    return _spawn(
        [sys.executable, "-m", "celery", "-A", app, "worker", "--pool=threads",
         "--concurrency=4", "--without-gossip", "--without-mingle", "--without-heartbeat",
         "--loglevel=INFO"],
        code_root=code_root, env=env, ready=" ready.",
    )


def start_beat(*, code_root: Path, env: dict) -> Service:
    """Beat as production runs it, apart from the workers (a killed worker leaves it be)."""
    schedule = Path(tempfile.mkdtemp(prefix="c10s-beat-")) / "schedule"
    return _spawn(
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--schedule", str(schedule),
         "--loglevel=INFO"],
        code_root=code_root, env=env, ready="beat: Starting",
    )


def migrate(*, code_root: Path, env: dict) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=code_root, env=dict(env, PYTHONPATH=str(code_root)), check=True)


# --- players through the API ----------------------------------------------------------------
@dataclass
class Table:
    """Two players and their game; ``to_move`` is the token of the player whose turn it is."""

    game_id: int
    tokens: tuple[str, str]
    to_move: str
    move_number: int = 0


@dataclass
class Probe:
    base: str
    statuses: list[int] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    committed: list[tuple[int, int]] = field(default_factory=list)  # (game, move number)
    without_retry_after: int = 0  # 429/503 answers missing the header

    def request(self, method: str, path: str, token: str | None = None, timeout: float = 30,
                **kwargs) -> requests.Response | None:
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Token {token}"
        started = time.monotonic()
        try:
            response = requests.request(method, self.base + path, headers=headers,
                                        timeout=timeout, **kwargs)
        except requests.RequestException:
            self.latencies.append(time.monotonic() - started)
            self.statuses.append(0)  # no answer within the client's timeout
            return None
        self.latencies.append(time.monotonic() - started)
        self.statuses.append(response.status_code)
        if response.status_code in (429, 503) and not response.headers.get("Retry-After"):
            self.without_retry_after += 1
        return response

    def register(self) -> str:
        name = f"f{uuid.uuid4().hex[:10]}"
        response = self.request("POST", "/auth/register", json={
            "username": name, "email": f"{name}@example.test", "password": "s3cret-Pass!x",
            "language": "en",
        })
        assert response is not None and response.status_code == 201, response
        return response.json()["token"]

    def table(self) -> Table:
        """A new game between the same two players (registering costs a password hash)."""
        if not hasattr(self, "_pair"):
            self._pair = (self.register(), self.register())
            self._second_name = self.request("GET", "/me", self._pair[1]).json()["username"]
        first, second = self._pair
        response = self.request("POST", "/games", first,
                                json={"opponent": {"username": self._second_name}})
        assert response is not None and response.status_code == 201, response.text
        view = response.json()
        return Table(view["id"], (first, second), first if view["your_turn"] else second)

    def pass_turn(self, table: Table, timeout: float = 30) -> int:
        """Play "pass" for whoever is to move; returns the HTTP status (0: no answer)."""
        response = self.request(
            "POST", f"/games/{table.game_id}/moves", table.to_move, timeout=timeout,
            json={"move": "pass", "expected_move_number": table.move_number},
        )
        if response is not None and response.status_code == 201:
            table.move_number += 1
            self.committed.append((table.game_id, table.move_number))
            a, b = table.tokens
            table.to_move = b if table.to_move == a else a
            return 201
        return 0 if response is None else response.status_code

    @property
    def server_errors(self) -> int:
        return sum(1 for s in self.statuses if s >= 500 and s != 503)


def turn_keys(committed: list[tuple[int, int]]) -> list[str]:
    """The email key prefix each committed move must produce exactly once."""
    return [f"turn:{game}:{number}:" for game, number in committed]


def _gathered_games(inbox) -> Counter[int]:
    """Games announced inside gathered emails: a turn whose notice was decided while another
    of the player's was on its way (several worker threads at once) goes out with it, in one
    email naming both games, by design."""
    games: Counter[int] = Counter()
    for received in inbox.matching("gathered:"):
        text = received.part("text/plain")
        games.update({int(game) for game in re.findall(r"/games/(\d+)\b", text)})
    return games


def missing_and_doubled(inbox, committed: list[tuple[int, int]]) -> tuple[list[str], list[str]]:
    gathered = _gathered_games(inbox)
    counts = {prefix: len(inbox.matching(prefix)) + gathered[game]
              for prefix, (game, _) in zip(turn_keys(committed), committed, strict=True)}
    return (sorted(k for k, c in counts.items() if c == 0),
            sorted(k for k, c in counts.items() if c > 1))


def wait_for_emails(inbox, committed, timeout: float) -> float:
    """Seconds until every committed move has its email (or ``timeout``)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        missing, _ = missing_and_doubled(inbox, committed)
        if not missing:
            return time.monotonic() - started
        time.sleep(0.25)
    return timeout


# --- the scenarios --------------------------------------------------------------------------
# Moves per scenario (each on its own game: see ``redis_restart``).
MOVES = 200


@dataclass
class Rig:
    """Web, worker and beat processes, an SMTP inbox and a private Redis, torn down together.
    ``web_database_url``/``worker_database_url`` may point through a ``TcpProxy``."""

    code_root: Path
    database_url: str
    worker_database_url: str | None = None
    web_database_url: str | None = None
    worker_app: str = "config"
    worker_extra_env: dict[str, str] = field(default_factory=dict)

    def __enter__(self) -> Rig:
        from tests.integration.workers import start_smtp

        self.redis = PrivateRedis()
        self.smtp, self.inbox = start_smtp()
        self.services: list[Service] = []
        try:
            env = self.env()
            self.web, base = start_web(
                code_root=self.code_root,
                env=dict(env, DATABASE_URL=self.web_database_url or self.database_url))
            self.services.append(self.web)
            self.worker = self.start_worker(self.worker_app)
            self.beat = start_beat(code_root=self.code_root, env=self.worker_env())
            self.services.append(self.beat)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        self.probe = Probe(base)
        return self

    def env(self) -> dict[str, str]:
        return service_env(database_url=self.database_url, redis_url=self.redis.url(0),
                           smtp_port=self.smtp.port)

    def worker_env(self) -> dict[str, str]:
        return dict(self.env(), DATABASE_URL=self.worker_database_url or self.database_url,
                    **self.worker_extra_env)

    def start_worker(self, app: str = "config", extra: dict | None = None) -> Service:
        worker = start_worker(code_root=self.code_root,
                              env=dict(self.worker_env(), **(extra or {})), app=app)
        self.services.append(worker)
        return worker

    def kill_worker(self) -> None:
        """SIGKILL, as the kernel's OOM killer or a lost host does: nothing is cleaned up."""
        os.killpg(self.worker.proc.pid, signal.SIGKILL)
        self.worker.proc.wait()

    def __exit__(self, *exc) -> None:
        for service in getattr(self, "services", []):
            service.stop()
        self.smtp.stop()
        self.redis.close()

    def logs(self) -> str:
        return "\n".join(f"--- {s.proc.args[2:4]}\n{s.log()}" for s in self.services)


def _round(probe: Probe, tables: list[Table], timeout: float = 30) -> list[int]:
    return [probe.pass_turn(t, timeout=timeout) for t in tables]


def _settle(rig: Rig, wait: float) -> dict:
    probe = rig.probe
    recovery = wait_for_emails(rig.inbox, probe.committed, wait)
    time.sleep(3)  # a duplicate would have arrived by now
    missing, doubled = missing_and_doubled(rig.inbox, probe.committed)
    return {
        "moves_committed": len(probe.committed),
        "emails_lost": len(missing),
        "emails_doubled": len(doubled),
        "recovery_seconds": round(recovery, 1),
        "answers_500": probe.server_errors,
        "answers_503": probe.statuses.count(503),
        "answers_without_retry_after": probe.without_retry_after,
        "missing": missing[:10],
    }


def redis_restart(rig: Rig, *, per_phase: int = MOVES // 4, wait: float = 120) -> dict:
    """Moves before, during and after Redis dies and comes back empty; some moves' messages sit
    in Redis (worker paused) when it dies. Every committed move must email exactly once.

    Each game gets one move only: its turn stays open, so its email is due however late it is
    decided (a turn already answered is, by design, not announced any more).
    """
    probe = rig.probe
    phases = [[probe.table() for _ in range(per_phase)] for _ in range(4)]
    _round(probe, phases[0])  # delivered normally
    # Let the worker finish what those moves queued, so that it is not stopped halfway through
    # a task (holding its transaction's locks) when it is paused.
    wait_for_emails(rig.inbox, probe.committed, 60)
    rig.worker.pause()  # messages now wait in Redis...
    _round(probe, phases[1])
    rig.redis.kill()  # ...and are lost with it
    first = len(probe.statuses)
    _round(probe, phases[2], timeout=10)
    probe.request("POST", "/auth/token", timeout=10, json={"username": "nobody", "password": "x"})
    down = probe.statuses[first:]
    rig.redis.start()
    rig.worker.resume()
    _round(probe, phases[3])
    result = _settle(rig, wait)
    result["answers_while_down"] = sorted(set(down))
    return result


def db_outage(rig: Rig, worker_proxy: TcpProxy, web_proxy: TcpProxy, *,
              per_phase: int = MOVES // 4, seconds: float = 15, web_seconds: float = 5,
              wait: float = 120) -> dict:
    """The database refuses the worker's connections for ``seconds`` while players keep
    moving; for ``web_seconds`` in the middle of it the web's too. Moves then answer 503 with
    Retry-After (and change nothing), the web logs the outage in a line or two rather than a
    traceback per request, and the first move after the database is back succeeds. Every
    committed move must email exactly once."""
    probe = rig.probe
    phases = [[probe.table() for _ in range(per_phase)] for _ in range(4)]
    _round(probe, phases[0])
    worker_proxy.refuse()
    end = time.monotonic() + seconds
    _round(probe, phases[1])  # committed; their emails wait for the worker's database
    web_proxy.refuse()
    first = len(probe.statuses)
    web_end = time.monotonic() + web_seconds
    attempts = 0
    while time.monotonic() < web_end:
        probe.pass_turn(phases[2][attempts % per_phase], timeout=15)
        attempts += 1
    during = probe.statuses[first:]
    web_proxy.accept_again()
    back = time.monotonic()
    statuses = _round(probe, phases[2])
    web_recovery = (time.monotonic() - back) if 201 not in statuses else None
    first_ok = statuses.index(201) if 201 in statuses else None
    time.sleep(max(0.0, end - time.monotonic()))
    worker_proxy.accept_again()
    _round(probe, phases[3])
    result = _settle(rig, wait)
    web_log = rig.web.log_path.read_text(errors="replace")
    result.update(
        moves_while_web_database_down=attempts,
        answers_while_web_database_down=sorted(set(during)),
        moves_refused_after_it_was_back=first_ok if first_ok is not None else web_recovery,
        web_outage_log_lines=web_log.count("the database is unreachable"),
        web_tracebacks=web_log.count("Traceback"),
    )
    return result


def redis_hung(rig: Rig, *, per_phase: int = MOVES // 4, extra_requests: int = 3,
               recover_wait: float = 30, wait: float = 120) -> dict:
    """Redis stops answering (SIGSTOP) while players move: writes, logins, registrations and
    reads must come back quickly, with 503 or success, never 500 and never a hang; and every
    committed move (before, during and after) must email exactly once."""
    probe = rig.probe
    phases = [[probe.table() for _ in range(per_phase)] for _ in range(4)]
    _round(probe, phases[0])
    token = phases[0][0].tokens[0]
    me = probe.request("GET", "/me", token).json()["username"]
    start = len(probe.statuses)
    rig.redis.pause()
    try:
        for number, table in enumerate(phases[1] + phases[2]):
            probe.pass_turn(table, timeout=15)
            if number < extra_requests:
                probe.request("POST", "/auth/token", timeout=15,
                              json={"username": me, "password": "s3cret-Pass!x"})
                name = f"h{uuid.uuid4().hex[:10]}"
                probe.request("POST", "/auth/register", timeout=15, json={
                    "username": name, "email": f"{name}@example.test",
                    "password": "s3cret-Pass!x", "language": "en"})
                probe.request("GET", "/games", token, timeout=15)
                probe.request("POST", "/games", token, timeout=15,
                              json={"opponent": {"ai": "beginner"}})
    finally:
        rig.redis.resume()
    statuses, latencies = probe.statuses[start:], probe.latencies[start:]
    _round(probe, phases[3])
    # A Celery worker whose acknowledgement timed out while Redis hung may never read its
    # queue again (kombu's Redis transport; a known limitation, see README "Scaling out"):
    # whether it recovers by itself is measured, then it is restarted as its orchestrator's
    # health check would, and every email must still come exactly once (the outbox).
    by_itself = wait_for_emails(rig.inbox, probe.committed, recover_wait) < recover_wait
    if not by_itself:
        rig.worker.stop()
        rig.services.remove(rig.worker)
        rig.worker = rig.start_worker()
    result = _settle(rig, wait)
    result["worker_recovered_by_itself"] = by_itself
    result.update(
        requests_while_hung=len(statuses),
        answers_500_while_hung=sum(1 for s in statuses if s >= 500 and s != 503),
        answers_503_while_hung=statuses.count(503),
        no_answer=statuses.count(0),
        max_latency_seconds=round(max(latencies), 2),
        statuses=sorted(set(statuses)),
    )
    return result


def worker_killed(rig: Rig, *, per_phase: int = MOVES // 2, restart_after: float = 2,
                  wait: float = 120) -> dict:
    """The worker is SIGKILLed in the middle of the computer's turn (right after a player's
    move against it; ``rig.worker_app`` must be ``SLOW_AI_APP``) and started again
    ``restart_after`` seconds later, while players keep moving: the seconds until the computer
    has answered (the player was looking at "thinking..."), and every committed move emailed
    exactly once."""
    probe = rig.probe
    phases = [[probe.table() for _ in range(per_phase)] for _ in range(2)]
    _round(probe, phases[0])
    wait_for_emails(rig.inbox, probe.committed, 60)
    player = probe._pair[0]
    marker = Path(rig.worker_env()["C10S_AI_TURN_MARKER"])
    marker.unlink(missing_ok=True)
    created = probe.request("POST", "/games", player, json={"opponent": {"ai": "beginner"}})
    assert created is not None and created.status_code == 201, created
    game = created.json()["id"]
    view = _wait_for_turn(probe, player, game)
    if view["move_number"] > 0:  # the computer moved first (its turn was not slowed yet)
        marker.unlink(missing_ok=True)
    moved = probe.request("POST", f"/games/{game}/moves", player,
                          json={"move": "pass", "expected_move_number": view["move_number"]})
    assert moved is not None and moved.status_code == 201, moved
    end = time.monotonic() + 30
    while not marker.exists():  # the computer's turn has started in the worker...
        assert time.monotonic() < end, rig.worker.log()
        time.sleep(0.02)
    killed = time.monotonic()
    rig.kill_worker()  # ...which dies holding its message (unacknowledged) and the game row
    _round(probe, phases[1][: per_phase // 2])
    time.sleep(max(0.0, killed + restart_after - time.monotonic()))
    rig.worker = rig.start_worker()  # an ordinary worker takes over
    ready_seconds = time.monotonic() - killed
    answered = _wait_for_turn(probe, player, game, timeout=90)
    reply_seconds = time.monotonic() - killed
    _round(probe, phases[1][per_phase // 2:])
    result = _settle(rig, wait)
    moves = probe.request("GET", f"/games/{game}/moves", player).json()
    result.update(
        worker_ready_seconds_after_kill=round(ready_seconds, 1),  # its start on this machine
        computer_reply_seconds_after_kill=round(reply_seconds, 1),
        computer_moves_after_the_kill=answered["move_number"] - view["move_number"] - 1,
        game_moves=len(moves["results"] if isinstance(moves, dict) else moves),
    )
    return result


# The worker app whose computer turns take C10S_AI_TURN_DELAY_SECONDS and touch
# C10S_AI_TURN_MARKER when they start (tests/integration/slow_ai_worker.py).
SLOW_AI_APP = "tests.integration.slow_ai_worker"


def slow_ai_env(marker: Path, delay: float = 20) -> dict[str, str]:
    return {"C10S_AI_TURN_DELAY_SECONDS": str(delay), "C10S_AI_TURN_MARKER": str(marker)}


def _wait_for_turn(probe: Probe, token: str, game: int, timeout: float = 60) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        response = probe.request("GET", f"/games/{game}", token, timeout=10)
        if response is not None and response.status_code == 200 and response.json()["your_turn"]:
            return response.json()
        time.sleep(0.1)
    raise AssertionError(f"game {game}: still not the player's turn after {timeout} s")
