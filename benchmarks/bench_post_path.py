"""The post path below Discord: `services.turns.post` and the reply's keys (written 50 posts
together, as the bot's `ReplyKeyWriter` writes them; `--keys-each`: one transaction each), on a
SQLite file, through `storage/driver.py` or through SQLAlchemy's public API (`--sqla-public`,
`tests/storage/sqla_public.py`).

What it weighs is the storage layer that reads SQLAlchemy below its documented surface: the same
service, the same statements, the same inline SQLite connections, once with the statements run by
`driver.py` on the pooled driver connection and once by `AsyncConnection.execute`. It reports the
processor time of each post (min, median, p99 over `--posts` posts in 20 games of 3 players and
an enemy, each player's orders written again and again, as `bench_bot.py` posts them). For
instruction counts, run it under callgrind at two sizes and halve nothing: the difference of
`--posts 250` and `--posts 50`, divided by 200, is a post (docs/benchmarks.md, "How to read").

    .venv/bin/python benchmarks/bench_post_path.py [--posts 2000] [--sqla-public] [--smoke]

`--count` counts instead of timing, which a loaded machine does not change: the calls each post
makes (cProfile's count) and SQLite's progress-handler ticks (one every 100 instructions of its
virtual machine), compared between the second and the last tenth of the posts (`--rooms 1`: of
one turn).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_bot import ORDERS, percentile
from benchmarks.bench_storage import _game, machine_speed
from fappo_bot.service.facade import Services
from fappo_bot.storage.driver import compile_all
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
from tests.conftest import create_sqlite_schema

#: the posts whose reply keys are written together: one second's at the bot's 50 posts a second
KEYS_TOGETHER = 50


class Counts:
    """What `--count` counts of each post: its calls, and SQLite's progress ticks."""

    def __init__(self) -> None:
        self.ticks = 0
        self.calls: list[int] = []
        self.sqlite: list[int] = []

    def tick(self) -> int:
        self.ticks += 1
        return 0  # go on

    def watch(self) -> None:
        """Give every inline SQLite connection made from now on a progress handler."""
        from fappo_bot.storage import sqlite_inline

        made = sqlite_inline.InlineConnection.__init__
        counts = self

        def init(connection: Any, sqlite: Any, *args: Any, **kwargs: Any) -> None:
            made(connection, sqlite, *args, **kwargs)
            sqlite.set_progress_handler(counts.tick, 100)

        sqlite_inline.InlineConnection.__init__ = init  # type: ignore[method-assign]


async def run(posts: int, rooms: int, public: bool, keys_each: bool = False,
              counts: Counts | None = None) -> list[float]:
    if counts is not None:
        counts.watch()
    if public:
        from tests.storage import sqla_public

        sqla_public.install()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'fappo.sqlite3'}"
        await create_sqlite_schema(url)
        engine = create_engine_for_url(url)
        compile_all(engine.dialect)  # as `open_storage` does at the bot's start
        try:
            services = Services(SqlUnitOfWorkFactory(engine))
            games = [await _game(services, f"room-{r}", pcs=3, enemies=1) for r in range(rooms)]
            took = []
            waiting: list[tuple[str, tuple[str, ...]]] = []
            for i in range(posts):
                game_id, players = games[i % rooms]
                player, _pc = players[(i // rooms) % len(players)]
                started = time.thread_time()
                if counts is not None:
                    profile, ticks = cProfile.Profile(), counts.ticks
                    profile.enable()
                reply = await services.turns.post(
                    game_id, player, channel_key=f"room-{i % rooms}", message_key=f"m{i}",
                    text=ORDERS[i % len(ORDERS)])
                if keys_each:
                    await services.turns.set_reply_keys(reply.post_id, (f"r{i}",))
                else:  # as the bot's `ReplyKeyWriter`: a second's posts (50) in one write
                    waiting.append((reply.post_id, (f"r{i}",)))
                    if len(waiting) == KEYS_TOGETHER or i == posts - 1:
                        await services.turns.set_many_reply_keys(waiting)
                        waiting = []
                took.append((time.thread_time() - started) * 1000)
                if counts is not None:
                    profile.disable()
                    counts.calls.append(sum(
                        stat[1] for stat in pstats.Stats(profile).stats.values()))  # type: ignore[attr-defined]
                    counts.sqlite.append(counts.ticks - ticks)
                assert reply.post_id, reply
            return took
        finally:
            await engine.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--sqla-public", action="store_true",
                        help="SQLAlchemy's public API instead of storage/driver.py")
    parser.add_argument("--keys-each", action="store_true",
                        help="each post's reply keys in a transaction of their own (as before "
                             "the bot wrote them together)")
    parser.add_argument("--count", action="store_true",
                        help="count each post's calls and SQLite's instructions (no timing)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.posts, args.rooms = 10, 2
    print(machine_speed())
    counts = Counts() if args.count else None
    in_order = asyncio.run(run(args.posts, args.rooms, args.sqla_public, args.keys_each, counts))
    if counts is not None:
        tenth = max(1, args.posts // 10)
        for name, first, last in (("calls", counts.calls[tenth:2 * tenth], counts.calls[-tenth:]),
                                  ("SQLite ticks (100 instructions each)", counts.sqlite[tenth:2 * tenth],
                                   counts.sqlite[-tenth:])):
            print(f"{name} a post: the second tenth {statistics.mean(first or last):.2f}, "
                  f"the last tenth {statistics.mean(last):.2f}")
        return 0
    took = sorted(in_order)
    how = "SQLAlchemy's public API" if args.sqla_public else "storage/driver.py"
    print(f"{args.posts} posts and their reply keys through {how}: CPU a post min "
          f"{took[0]:.2f} ms, median {statistics.median(took):.2f} ms, p99 "
          f"{percentile(took, 0.99):.2f} ms")
    tenth = max(1, len(in_order) // 10)
    # a turn's posts should cost the same at any point of it (--rooms 1: one turn of them all)
    print(f"the first post {in_order[0]:.2f} ms; median of the first tenth "
          f"{statistics.median(in_order[:tenth]):.2f} ms, of the last tenth "
          f"{statistics.median(in_order[-tenth:]):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
