"""Posts at the rate a Discord bot really sees, on SQLite: latency and CPU per post.

Discord lets a bot send about 50 requests a second, so a bot answers at most ~50 posts a second.
This benchmark sends posts through the real service (`services.turns.post`: parse, validate,
store, reply) at `--rate` posts a second spread over `--rooms` games for `--seconds`, arrivals
at random moments (a Poisson process, seeded) or evenly spaced, each post its own task started at
its moment, and reports:
- the post latency (from the moment the post arrived to its reply; a post that waits for the loop
  or for another writer counts its wait), p50, p99 and the worst;
- the CPU per post (the process's CPU time over the run, worker threads included, / posts);
- how many COMMITs the posts took (fewer than posts only when writers commit in groups).

Run (one line per configuration, each on a fresh database):
    .venv/bin/python benchmarks/bench_load.py --seconds 30
    .venv/bin/python benchmarks/bench_load.py --seconds 30 --arrivals even --one-core
    .venv/bin/python benchmarks/bench_load.py --smoke         # smallest sizes: does it run?
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_storage import Ids, _game, machine_speed, name

from fappo_bot.service import Services
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.migrate import upgrade_engine
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

#: the configurations measured: (label, options of the engine and the factory)
CONFIGS: dict[str, dict[str, Any]] = {
    "inline": {},
    "aiosqlite": {"sqlite_inline": False},
}


class Commits:
    """The statement tap: counts COMMITs."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, what: str, _sql: str, _args: Any) -> None:
        if what == "commit":
            self.count += 1


def arrivals(rate: float, seconds: float, poisson: bool, seed: int) -> list[float]:
    """The moments (seconds from the start) posts arrive at."""
    if not poisson:
        return [n / rate for n in range(int(rate * seconds))]
    rng = random.Random(seed)
    moments, at = [], rng.expovariate(rate)
    while at < seconds:
        moments.append(at)
        at += rng.expovariate(rate)
    return moments


async def measure(
    options: dict[str, Any], rate: float, rooms: int, seconds: float, poisson: bool, seed: int
) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="fappo-load-") as directory:
        url = f"sqlite+aiosqlite:///{Path(directory) / 'load.sqlite3'}"
        engine = create_engine_for_url(url, **options)
        await upgrade_engine(engine)
        commits = Commits()
        services = Services(
            SqlUnitOfWorkFactory(engine, tap=commits), ids=Ids("l")
        )
        try:
            tables = [await _game(services, f"room{g}", pcs=4, enemies=2) for g in range(rooms)]
            moments = arrivals(rate, seconds, poisson, seed)
            latencies: list[float] = []

            async def post(n: int, arrived: float) -> None:
                game_id, players = tables[n % rooms]
                player, _pc = players[(n // rooms) % len(players)]
                text = f"2 AP attack {name('Skarg', n % 2)} with Broadsword\n1 AP defend"
                reply = await services.turns.post(
                    game_id, player, channel_key="chan", message_key=f"m{n}", text=text
                )
                assert reply.ok, reply.reply
                latencies.append(time.perf_counter() - arrived)

            for n in range(2 * rooms):  # warm up: statements compiled, caches filled
                await post(-1 - n, time.perf_counter())
            latencies.clear()
            commits.count = 0
            tasks = []
            loop = asyncio.get_running_loop()
            start, cpu = time.perf_counter(), time.process_time()
            for n, moment in enumerate(moments):
                delay = start + moment - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                tasks.append(loop.create_task(post(n, start + moment)))
            await asyncio.gather(*tasks)
            cpu = time.process_time() - cpu
            elapsed = time.perf_counter() - start
        finally:
            await engine.dispose()
    ordered = sorted(latencies)
    return {
        "posts": len(ordered),
        "rate": len(ordered) / elapsed,
        "p50": statistics.median(ordered) * 1e3,
        "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e3,
        "max": ordered[-1] * 1e3,
        "cpu_per_post": cpu / len(ordered) * 1e3,
        "commits": commits.count,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=50.0, help="posts a second (default 50)")
    parser.add_argument("--rooms", type=int, default=20, help="games posted in (default 20)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--arrivals", choices=["poisson", "even"], default="poisson")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--config", action="append", choices=sorted(CONFIGS),
                        help="measure only these configurations (default: all)")
    parser.add_argument("--one-core", action="store_true", help="pin the process to one CPU")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.rate, args.rooms, args.seconds = 20.0, 2, 0.25
    if args.one_core and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(machine_speed())
    print(f"{args.rate:.0f} posts/s over {args.rooms} games for {args.seconds:.0f} s, "
          f"{args.arrivals} arrivals, SQLite")
    for label in args.config or list(CONFIGS):
        figures = asyncio.run(measure(CONFIGS[label], args.rate, args.rooms, args.seconds,
                                      args.arrivals == "poisson", args.seed))
        print(
            f"{label:22} {figures['posts']:5.0f} posts ({figures['rate']:.1f}/s): latency "
            f"p50 {figures['p50']:5.2f} ms, p99 {figures['p99']:6.2f} ms, max "
            f"{figures['max']:6.1f} ms | CPU {figures['cpu_per_post']:.2f} ms/post | "
            f"{figures['commits']:.0f} commits"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
