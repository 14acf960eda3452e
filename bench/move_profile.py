"""Where the server's time goes in a move POST, in this process: ``python bench/move_profile.py
[--moves 300] [--top 30] [--key] [--pyinstrument [--cpu]]``.

In its own database ``c10s_move_profile`` (``BENCH_DATABASE_URL``) two players play Crazy10s
games against each other through Django's whole stack (the settings and environment of
bench/api.py's servers, with ``BENCH_REDIS_URL`` as its Redis; Django's test client: every
middleware, token authentication, the view, the service, the commit hooks; no network, no
ASGI thread hop). The moves are chosen before the clock starts, as bench/api.py's clients
choose them. It prints the median and p95 server time of a move POST and of ``GET me`` and
their ratio, then cProfile's functions by cumulative and by own time in ms per move, with the
load average. ``--key`` sends an ``Idempotency-Key`` with each move.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_pages import set_up_django  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/c10s_move_profile"
PASSWORD = "bench-Pass-123!"


class Players:
    """Two players and their game, each holding a token; moves are chosen as in bench/api.py."""

    def __init__(self, client_class, key: bool) -> None:
        self.client = client_class()
        self.rng = random.Random(1)
        self.key = key
        self.count = 0
        self.tokens = [self._register("profa"), self._register("profb")]
        self._new_game()

    def _register(self, username: str) -> str:
        response = self.client.post(
            "/api/v1/auth/register",
            {"username": username, "email": f"{username}@bench.test", "password": PASSWORD,
             "language": "en"},
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
        return response.json()["token"]

    def headers(self, player: int) -> dict[str, str]:
        return {"HTTP_AUTHORIZATION": f"Token {self.tokens[player]}"}

    def _new_game(self) -> None:
        response = self.client.post(
            "/api/v1/games", {"opponent": {"username": "profb"}, "turn_hours": 72},
            content_type="application/json", **self.headers(0),
        )
        assert response.status_code == 201, response.content
        self.game_id = response.json()["id"]
        self.views = [self.client.get(f"/api/v1/games/{self.game_id}", **self.headers(p)).json()
                      for p in (0, 1)]

    def _choose(self, view: dict) -> str:
        from games.crazy10s.engine import (
            classic_layout,
            format_move,
            generate_placements,
            parse_board,
            parse_rack,
        )

        board = parse_board("/".join(view["board"]), classic_layout(len(view["board"])))
        digits = [t for t in parse_rack("".join(view["rack"])) if 0 <= t <= 9]
        for _ in range(2):
            subset = tuple(self.rng.sample(digits, min(3, len(digits))))
            placements = generate_placements(board, subset)
            if placements:
                return format_move(self.rng.choice(placements[:20]).move)
        return "pass"

    def next_move(self) -> tuple[int, dict]:
        mover = 0 if self.views[0]["your_turn"] else 1
        view = self.views[mover]
        return mover, {"move": self._choose(view), "expected_move_number": view["move_number"]}

    def post(self, mover: int, body: dict):
        self.count += 1
        extra = {"HTTP_IDEMPOTENCY_KEY": f"prof-{self.count}"} if self.key else {}
        return self.client.post(f"/api/v1/games/{self.game_id}/moves", body,
                                content_type="application/json", **self.headers(mover), **extra)

    def after(self, mover: int, response) -> None:
        if response.status_code != 201:  # a misread wild: pass instead (not timed)
            body = {"move": "pass", "expected_move_number": self.views[mover]["move_number"]}
            response = self.post(mover, body)
            assert response.status_code == 201, response.content
        game = response.json()["game"]
        self.views[mover] = game
        other = self.views[1 - mover]
        other.update(board=game["board"], move_number=game["move_number"],
                     your_turn=game["status"] == "active")
        game["your_turn"] = False
        if game["status"] != "active":
            self._new_game()


def _ms(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    return statistics.median(values), values[max(0, round(0.95 * len(values)) - 1)]


def _sample(players: Players, moves: int, cpu: bool) -> None:
    """pyinstrument's call tree of the moves (sampled: little overhead, so the shares of the
    ORM and the serializers are not inflated as under cProfile). Wall clock, or with ``cpu``
    this thread's CPU time (waits on PostgreSQL and Redis left out)."""
    from pyinstrument import Profiler  # a development tool: pip install pyinstrument
    from pyinstrument.stack_sampler import get_stack_sampler

    if cpu:
        get_stack_sampler().timer_func = time.thread_time
    profiler = Profiler(interval=0.0002, async_mode="disabled")
    for _ in range(moves):
        mover, body = players.next_move()
        profiler.start()
        response = players.post(mover, body)
        profiler.stop()
        players.after(mover, response)
    print(f"\n--- pyinstrument, {moves} moves (seconds in all: x {1000 / moves:.2f} = ms per "
          "move) ---")
    print(profiler.output_text(show_all=False, unicode=False, color=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--top", type=int, default=30, help="0: no profile")
    parser.add_argument("--key", action="store_true", help="send an Idempotency-Key")
    parser.add_argument("--pyinstrument", action="store_true",
                        help="a sampled call tree instead of cProfile's table")
    parser.add_argument("--cpu", action="store_true",
                        help="with --pyinstrument: CPU time, not the wall clock")
    args = parser.parse_args()

    os.environ.setdefault("BENCH_REDIS_URL", "")
    set_up_django(DEFAULT_DB, "c10s-move-profile-")
    from django.test import Client

    players = Players(Client, args.key)
    for _ in range(20):  # warm-up: imports, caches, connections
        mover, body = players.next_move()
        players.after(mover, players.post(mover, body))

    # Unprofiled first: wall and this process's CPU time per request, moves and GET me
    # alternating so that both see the same load.
    times: list[float] = []
    cpu: list[float] = []
    me: list[float] = []
    me_cpu: list[float] = []
    for _ in range(args.moves):
        mover, body = players.next_move()
        started, cpu_started = time.perf_counter(), time.process_time()
        response = players.post(mover, body)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
        players.after(mover, response)
        started, cpu_started = time.perf_counter(), time.process_time()
        response = players.client.get("/api/v1/me", **players.headers(0))
        me.append((time.perf_counter() - started) * 1000)
        me_cpu.append((time.process_time() - cpu_started) * 1000)
        assert response.status_code == 200
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.moves} moves (key: {args.key}), load average {load}")
    for name, values in (("move wall", times), ("move CPU", cpu), ("GET me wall", me),
                         ("GET me CPU", me_cpu)):
        p50, p95 = _ms(values)
        print(f"{name:12} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  mean "
              f"{statistics.fmean(values):7.2f} ms")
    print(f"GET me / move: wall p50 {100 * _ms(me)[0] / _ms(times)[0]:.1f} %, CPU mean "
          f"{100 * statistics.fmean(me_cpu) / statistics.fmean(cpu):.1f} %")
    if args.pyinstrument:
        _sample(players, args.moves, args.cpu)
        return
    if not args.top:
        return

    # This process's CPU time, not the wall clock: waits on PostgreSQL and Redis (and on the
    # other processes of a loaded machine) are left out.
    profile = cProfile.Profile(time.process_time)
    for _ in range(args.moves):
        mover, body = players.next_move()
        profile.enable()
        response = players.post(mover, body)
        profile.disable()
        players.after(mover, response)
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"profiled: {1000 * total / args.moves:.2f} ms CPU per move")
    for order in ("cumulative", "tottime"):
        print(f"\n--- by {order} time, ms per move ---")
        rows = []
        for func, (_cc, calls, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
            rows.append((ct if order == "cumulative" else tt, calls, func))
        rows.sort(reverse=True)
        for value, calls, (path, line, name) in rows[: args.top]:
            short = path.replace(str(ROOT) + "/", "").replace(
                str(Path(sys.prefix)) + "/lib/", "")
            print(f"{1000 * value / args.moves:8.3f} ms {calls / args.moves:7.1f}x  "
                  f"{short}:{line}({name})")


if __name__ == "__main__":
    main()
