"""Storage benchmarks, on SQLite and PostgreSQL, through the real service use cases.

1. Ingest: posts per second (parse, validate, store, reply data) with 50 games active
   (`--games`). Each post is one `services.turns.post` call (its own unit of work, commit
   included), measured twice: one post after another (each awaited before the next is sent), and
   the games posting at once (a task per game). `bench_load.py` measures posts at the rate a bot
   really sees instead.
   Goal: >= 1,000 posts/s on SQLite on one core.
2. Close and resolve a turn with 6, 60 and 600 combatants (load, resolve, store, outbox), in ms;
   the pure `resolve_turn` share is shown apart. Goal: 60 combatants < 50 ms.
3. The raw floor: every INSERT/UPDATE/DELETE the use cases issued is captured with its parameters
   and written again, on a copy of the database as it was before, with plain `executemany`
   (sqlite3 / asyncpg, one transaction, no ORM, no reads). The ratio says what the service, the
   ORM and the per-use-case transactions cost over writing the same rows.

Run:
    .venv/bin/python benchmarks/bench_storage.py                  # both databases
    .venv/bin/python benchmarks/bench_storage.py --db sqlite --one-core
    .venv/bin/python benchmarks/bench_storage.py --posts 2000 --sizes 6,60,600 --repeat 5
    .venv/bin/python benchmarks/bench_storage.py --smoke          # smallest sizes: does it run?
PostgreSQL: 127.0.0.1:5432, user postgres (FAPPO_BENCH_PG_URL overrides); a throw-away
database `fappo_bench_<random>` is created and dropped.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import secrets
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy.engine import make_url

from fappo_bot.rules import GMInputs, Order, TurnResult, TurnState
from fappo_bot.service import NewCharacter, Services
from fappo_bot.service.base import rules_resolver
from fappo_bot.service.records import Role
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.migrate import upgrade_engine
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

PG_ADMIN = os.environ.get("FAPPO_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
GM = "gm"
LETTERS = "abcdefghijklmnopqrstuvwxyz"

PC_SHEET = {
    "tier": "pc",
    "traits": {"Nimble": 5, "Tireless": 3},
    "floating": 1,
    "skills": {"Swordfighting": 5, "Fisticuffs": 4, "Acrobatics": 3, "Stealth": 2, "Searching": 1},
    "weapons": ["Broadsword"],
    "armor": "medium",
    "position": 0,
}
ENEMY_SHEET = {
    "tier": "lieutenant",
    "traits": {"Brawny": 4, "Tireless": 3},
    "floating": 1,
    "skills": {"Swordfighting": 5, "Fisticuffs": 3, "Searching": 2, "Stealth": 2},
    "weapons": ["Broadsword"],
    "armor": "medium",
    "position": 0,
}


def name(prefix: str, i: int) -> str:
    """Letters only, so the names read cleanly in posts: Kaelab, Skargac, ..."""
    a, b = divmod(i, 26)
    return f"{prefix}{LETTERS[a % 26]}{LETTERS[b]}"


def new_character(sheet: dict[str, Any], character_name: str) -> NewCharacter:
    return NewCharacter.from_dict({**sheet, "name": character_name})


class Ids:
    def __init__(self, prefix: str) -> None:
        self.prefix, self.counter = prefix, itertools.count()

    def __call__(self) -> str:
        return f"{self.prefix}{next(self.counter):08d}"


# ---- databases ----------------------------------------------------------------------------------
class Database:
    """One benchmark database, with a snapshot to replay the raw writes on."""

    kind: str
    url: str

    async def snapshot(self) -> None: ...
    async def replay(self, writes: Sequence[tuple[str, Any]]) -> float: ...
    async def close(self) -> None: ...


class SqliteDatabase(Database):
    kind = "sqlite"

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="fappo-bench-"))
        self.path = self.dir / "bench.sqlite3"
        self.url = f"sqlite+aiosqlite:///{self.path}"

    async def snapshot(self) -> None:
        with sqlite3.connect(self.path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copy(self.path, self.dir / "snapshot.sqlite3")

    async def replay(self, writes: Sequence[tuple[str, Any]]) -> float:
        copy = self.dir / "replay.sqlite3"
        shutil.copy(self.dir / "snapshot.sqlite3", copy)
        db = sqlite3.connect(copy, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        for statement, rows in _batches(writes):
            db.executemany(statement, rows)
        db.execute("COMMIT")
        elapsed = time.perf_counter() - start
        db.close()
        return elapsed

    async def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


class PostgresDatabase(Database):
    kind = "postgres"

    def __init__(self) -> None:
        self.name = f"fappo_bench_{secrets.token_hex(4)}"
        self.url = make_url(PG_ADMIN).set(drivername="postgresql+asyncpg", database=self.name)
        self.url = self.url.render_as_string(hide_password=False)

    @staticmethod
    async def _admin(sql: str) -> None:
        import asyncpg

        connection = await asyncpg.connect(PG_ADMIN, timeout=5)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    async def create(self) -> None:
        await self._admin(f'CREATE DATABASE "{self.name}"')

    async def snapshot(self) -> None:
        await self._admin(f'DROP DATABASE IF EXISTS "{self.name}_snap" WITH (FORCE)')
        await self._admin(f'CREATE DATABASE "{self.name}_snap" TEMPLATE "{self.name}"')

    async def replay(self, writes: Sequence[tuple[str, Any]]) -> float:
        import asyncpg

        await self._admin(f'DROP DATABASE IF EXISTS "{self.name}_replay" WITH (FORCE)')
        await self._admin(f'CREATE DATABASE "{self.name}_replay" TEMPLATE "{self.name}_snap"')
        dsn = make_url(PG_ADMIN).set(database=f"{self.name}_replay")
        connection = await asyncpg.connect(dsn.render_as_string(hide_password=False))
        try:
            start = time.perf_counter()
            async with connection.transaction():
                for statement, rows in _batches(writes):
                    await connection.executemany(statement, rows)
            return time.perf_counter() - start
        finally:
            await connection.close()

    async def close(self) -> None:
        for suffix in ("", "_snap", "_replay"):
            await self._admin(f'DROP DATABASE IF EXISTS "{self.name}{suffix}" WITH (FORCE)')


def _batches(writes: Sequence[tuple[str, Any]]) -> list[tuple[str, list[Any]]]:
    """The writes grouped by statement, in the order each statement first appears (parents before
    children), for one executemany each."""
    batches: dict[str, list[Any]] = {}
    for statement, params in writes:
        batches.setdefault(statement, []).append(params)
    return list(batches.items())


class WriteLog:
    """Captures the data-changing statements the units of work send, with their driver
    arguments (the factory's statement tap, `fappo_bot.storage.driver.Tap`)."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, Any]] = []
        self.recording = False

    def __call__(self, what: str, statement: str, args: Any) -> None:
        if not self.recording:
            return
        if statement[:6] not in {"INSERT", "UPDATE", "DELETE"}:  # compiled SQL starts with its verb
            return
        for row in args if what == "many" else [args]:
            self.writes.append((statement, tuple(row)))


# ---- the scenarios ------------------------------------------------------------------------------
async def _game(services: Services, channel: str, pcs: int, enemies: int) -> tuple[str, list]:
    """A game with `pcs` player characters (one player each) and `enemies` GM characters."""
    game = await services.games.create(channel_key=channel, name=f"Game {channel}", creator=GM)
    players = []
    for i in range(pcs):
        player = f"{channel}-p{i}"
        await services.games.add_member(game.id, GM, player, Role.PLAYER)
        reply = await services.characters.create(
            game.id, player, new_character(PC_SHEET, name("Kael", i))
        )
        assert reply.ok, reply
        players.append((player, name("Kael", i)))
    for i in range(enemies):
        reply = await services.characters.add_enemy(
            game.id, GM, new_character(ENEMY_SHEET, name("Skarg", i))
        )
        assert reply.ok, reply
    await services.turns.open(game.id, GM)
    return game.id, players


async def turn_ready(services: Services, size: int, channel: str) -> str:
    """A game of `size` combatants (half PCs, half lieutenants) whose every combatant has posted
    an attack: the PCs one post each, the GM up to 50 NPC blocks a post."""
    pcs, enemies = size // 2, size - size // 2
    game_id, players = await _game(services, channel, pcs, enemies)
    for i, (player, _pc) in enumerate(players):
        text = f"2 AP attack {name('Skarg', i % enemies)} with Broadsword\n1 AP defend"
        reply = await services.turns.post(
            game_id, player, channel_key="chan", message_key=f"{game_id}-{i}", text=text
        )
        assert reply.ok, reply.reply
    lines = [
        f"**{name('Skarg', i)}**\n2 AP attack {name('Kael', i % pcs)} with Broadsword\n1 AP defend"
        for i in range(enemies)
    ]
    for start in range(0, len(lines), 50):  # a GM post holds up to 50 NPC blocks
        reply = await services.turns.post(
            game_id, GM, channel_key="chan", message_key=f"{game_id}-gm{start}",
            text="\n".join(lines[start : start + 50]),
        )
        assert reply.ok, reply.reply
    return game_id


async def bench_ingest(
    db: Database, posts: int, games: int = 50, together: bool = False
) -> dict[str, float]:
    """`posts` posts over `games` games: one after another (each awaited before the next), or
    `together`: every game's players post at once (a task per game, its posts in turn), as on a
    busy server, where SQLite's writers commit in groups."""
    engine = create_engine_for_url(db.url)
    try:
        log = WriteLog()
        run = "t" if together else "c"  # the second run shares the database with the first
        services = Services(SqlUnitOfWorkFactory(engine, tap=log), ids=Ids(f"i{run}"))
        tables = [await _game(services, f"{run}{g}", pcs=4, enemies=2) for g in range(games)]
        await engine.dispose()  # PostgreSQL copies a template only when nobody is connected
        await db.snapshot()
        work = []
        for n in range(posts):
            game_id, players = tables[n % games]
            player, _pc = players[(n // games) % len(players)]
            target = name("Skarg", n % 2)
            text = f"2 AP attack {target} with Broadsword\n1 AP defend"
            work.append((game_id, player, f"{run}m{n}", text))
        async def post_all(items: Sequence[tuple[str, str, str, str]]) -> None:
            for game_id, player, key, text in items:
                reply = await services.turns.post(
                    game_id, player, channel_key="chan", message_key=key, text=text
                )
                assert reply.ok, reply.reply

        log.recording = True
        start, cpu = time.perf_counter(), time.process_time()
        if together:
            await asyncio.gather(*(post_all(work[g::games]) for g in range(games)))
        else:
            await post_all(work)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        log.recording = False
    finally:
        await engine.dispose()
    raw = await db.replay(log.writes)
    return {
        "posts": posts,
        "seconds": elapsed,
        "per_second": posts / elapsed,
        "cpu_per_second": posts / cpu,
        "rows": len(log.writes),
        "raw_seconds": raw,
        "ratio": elapsed / raw,
    }


async def close_and_resolve(services: Services, games: Sequence[str]) -> list[float]:
    """Close and resolve each game's turn as its GM would; the seconds each took."""
    totals = []
    for game_id in games:
        start = time.perf_counter()
        closed = await services.calltime.close(game_id, GM)
        await services.resolution.resolve(game_id, GM, closed.number)
        totals.append(time.perf_counter() - start)
    return totals


class TimedResolver:
    """The rules core's `resolve_turn`, timed: the pure share of a close and resolve."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(
        self, state: TurnState, orders: Sequence[Order], gm: GMInputs | None = None
    ) -> TurnResult:
        start = time.perf_counter()
        result = rules_resolver(state, orders, gm)
        self.times.append(time.perf_counter() - start)
        return result


async def bench_resolve(db: Database, size: int, repeat: int) -> dict[str, float]:
    engine = create_engine_for_url(db.url)
    timed = TimedResolver()
    rules_time = timed.times

    totals: list[float] = []
    try:
        log = WriteLog()
        services = Services(
            SqlUnitOfWorkFactory(engine, tap=log), ids=Ids(f"r{size}-"), resolve=timed
        )
        games = [await turn_ready(services, size, f"s{size}-{r}") for r in range(repeat)]
        await engine.dispose()  # PostgreSQL copies a template only when nobody is connected
        await db.snapshot()
        log.recording = True
        totals = await close_and_resolve(services, games)
        log.recording = False
    finally:
        await engine.dispose()
    raw = await db.replay(log.writes) / repeat
    median = statistics.median(totals)
    return {
        "size": size,
        "ms": median * 1000,
        "min_ms": min(totals) * 1000,
        "rules_ms": statistics.median(rules_time) * 1000,
        "rows": len(log.writes) / repeat,
        "raw_ms": raw * 1000,
        "ratio": median / raw,
    }


async def run(
    kind: str, posts: int, sizes: Sequence[int], repeat: int, out: Callable[[str], None],
    games: int = 50,
) -> None:
    db: Database
    if kind == "sqlite":
        db = SqliteDatabase()
    else:
        pg = PostgresDatabase()
        try:
            await pg.create()
        except (TimeoutError, OSError) as exc:
            out(f"postgres: skipped, the server is not reachable ({exc})")
            return
        db = pg
    try:
        engine = create_engine_for_url(db.url)
        await upgrade_engine(engine)
        await engine.dispose()
        for together in (False, True) if posts else ():
            ingest = await bench_ingest(db, posts, games, together=together)
            how = f"{games} games at once" if together else "one at a time"
            out(
                f"{kind:8} ingest   {ingest['posts']:6.0f} posts, {how:16}: "
                f"{ingest['per_second']:6.0f} posts/s ({ingest['cpu_per_second']:.0f} per "
                f"CPU-second) | {ingest['rows']:.0f} rows written; raw executemany "
                f"{ingest['raw_seconds'] * 1000:.1f} ms, ratio {ingest['ratio']:.0f}x"
            )
        for size in sizes:
            figures = await bench_resolve(db, size, repeat)
            out(
                f"{kind:8} resolve  {size:4d} combatants: close+resolve {figures['ms']:7.1f} ms "
                f"(min {figures['min_ms']:.1f}; rules core {figures['rules_ms']:.1f}) | "
                f"{figures['rows']:.0f} rows; raw executemany {figures['raw_ms']:.1f} ms, "
                f"ratio {figures['ratio']:.1f}x"
            )
    finally:
        await db.close()


def machine_speed() -> str:
    """How fast this machine runs Python now (it varies by a third from hour to hour on the
    shared CI machine): the figures of one run compare with another's through it."""
    start = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i
    return f"machine: a 1,000,000-step Python loop takes {(time.perf_counter() - start) * 1e3:.0f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"],
                        help="the databases (default both; sqlite with --smoke)")
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--sizes", default="6,60,600")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=50, help="games the ingest posts in (50)")
    parser.add_argument("--one-core", action="store_true", help="pin the process to one CPU")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.posts, args.sizes, args.repeat, args.games = 8, "6", 1, 2
        args.db = args.db or "sqlite"  # PostgreSQL's CREATE DATABASE alone takes seconds
    if args.one_core and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    sizes = [int(s) for s in args.sizes.split(",") if s]
    kinds = ["sqlite", "postgres"] if args.db in (None, "both") else [args.db]
    print(machine_speed())
    for kind in kinds:
        asyncio.run(run(kind, args.posts, sizes, args.repeat, print, args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
