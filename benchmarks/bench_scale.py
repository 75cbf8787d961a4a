"""The bot at the scale of a public bot: thousands of rooms in one process, games with long
histories, on SQLite or PostgreSQL, everything seeded through the real service use cases.

What it times, one line per figure:
1. The shard outbox query (`services.outbox.pending(limit, rooms)`, what a shard's delivery loop
   asks every round) with 1,000 / 10,000 / 20,000 rooms (`--rooms`): the game rooms plus other
   channels of their guilds, every game's "turn opened" notice pending. First call of the
   process (compiling and, on PostgreSQL, preparing the statement) and steady (median).
2. The games with an open turn (`services.channels.open_turns()`, read at every start and new
   session) and the catch-up's planning over them (`discord.catchup.CatchUp.plan`: the rooms and
   the members' DM channels to read back, on a stand-in for the bot's channel cache), with
   `--games` games.
3. A game with a long history: a post and a close+resolve after 3 turns and after `--turns`
   turns (200), and a post early and late in one turn of `--turn-posts` posts (400).
   Goal: flat in the game's history and in the turn's size.
Also the seeding's pace and the process's peak RSS.

Run:
    .venv/bin/python benchmarks/bench_scale.py                      # SQLite, 1,000 games
    .venv/bin/python benchmarks/bench_scale.py --postgres postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python benchmarks/bench_scale.py --games 1000 --rooms 1000,10000,20000 --turns 200
    .venv/bin/python benchmarks/bench_scale.py --smoke              # smallest sizes: does it run?
With `--postgres URL` (a database to connect to for CREATE DATABASE), a throw-away database
`fappo_scale_<random>` is created on that server and dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_storage import ENEMY_SHEET, GM, PC_SHEET, Ids, machine_speed, new_character
from sqlalchemy.engine import make_url

from fappo_bot.service import Services
from fappo_bot.service.records import Role
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.migrate import upgrade_engine
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

ROOM0, GUILD0, USER0 = 10**17, 10**16, 10**15
#: games per guild: a guild's channels are its games' rooms and (for the outbox) others
GAMES_PER_GUILD = 10
PLAYERS = 3


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    start = time.perf_counter()
    found = await call()
    return time.perf_counter() - start, found


async def first_and_steady(call: Callable[[], Awaitable[Any]], repeat: int) -> tuple[float, float, Any]:
    """The first call's time, and the median of `repeat` more."""
    first, found = await timed(call)
    rest = [(await timed(call))[0] for _ in range(repeat)]
    return first, statistics.median(rest), found


# ---- databases ----------------------------------------------------------------------------------
class Database:
    """A throw-away database: a SQLite file in a temporary folder, or a PostgreSQL database made
    on the server of `--postgres` and dropped at the end."""

    def __init__(self, postgres: str | None) -> None:
        self.admin = postgres
        if postgres is None:
            self.kind = "sqlite"
            self.dir = Path(tempfile.mkdtemp(prefix="fappo-scale-"))
            self.url = f"sqlite+aiosqlite:///{self.dir / 'scale.sqlite3'}"
        else:
            self.kind = "postgres"
            self.name = f"fappo_scale_{secrets.token_hex(4)}"
            url = make_url(postgres).set(drivername="postgresql+asyncpg", database=self.name)
            self.url = url.render_as_string(hide_password=False)

    async def _admin(self, sql: str) -> None:
        import asyncpg

        assert self.admin is not None
        dsn = make_url(self.admin).set(drivername="postgresql")
        connection = await asyncpg.connect(dsn.render_as_string(hide_password=False), timeout=5)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    async def create(self) -> None:
        if self.kind == "postgres":
            await self._admin(f'CREATE DATABASE "{self.name}"')

    async def analyze(self) -> None:
        """PostgreSQL: gather the tables' statistics now, as autovacuum does within a minute of
        the seeding (its threshold is 50 rows and a tenth of the table changed)."""
        if self.kind == "postgres":
            import asyncpg

            dsn = make_url(self.url).set(drivername="postgresql")
            connection = await asyncpg.connect(dsn.render_as_string(hide_password=False))
            try:
                await connection.execute("ANALYZE")
            finally:
                await connection.close()

    async def drop(self) -> None:
        if self.kind == "postgres":
            await self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


# ---- seeding ------------------------------------------------------------------------------------
def room(i: int) -> str:
    return str(ROOM0 + i)


async def seed_games(services: Services, games: int) -> None:
    """`games` games, each in a room of its own (ten to a guild) with its GM and three players,
    turn 1 open (its notice to the room pending in the outbox)."""
    for g in range(games):
        game = await services.games.create(
            channel_key=room(g), guild_key=str(GUILD0 + g // GAMES_PER_GUILD),
            name=f"Game {g}", creator=GM,
        )
        for p in range(PLAYERS):
            await services.games.add_member(game.id, GM, str(USER0 + g * PLAYERS + p), Role.PLAYER)
        await services.turns.open(game.id, GM)


@dataclass
class Table:
    """A game of two PCs and two lieutenants, whose every combatant posts each turn: a defense,
    so that nobody is worn down over hundreds of turns (an attack's cost is the rules core's,
    `bench_resolve.py`; what grows with a game's history is storage's)."""

    game_id: str
    players: list[tuple[str, str]]
    turns: int = 0

    async def post(self, services: Services, player: str, key: str) -> float:
        text = "Kept my guard up.\n1 AP defend"
        took, reply = await timed(lambda: services.turns.post(
            self.game_id, player, channel_key="history", message_key=key, text=text))
        assert reply.ok, reply.reply
        return float(took)

    async def turn(self, services: Services) -> tuple[float, float]:
        """One turn: every combatant posts, the GM closes and resolves. The median post's time
        and the close+resolve's."""
        self.turns += 1
        n = self.turns
        posts = [await self.post(services, player, f"{self.game_id}-{n}-{i}")
                 for i, (player, _pc) in enumerate(self.players)]
        npcs = "\n".join(f"**Skarg{c}**\n1 AP defend" for c in "ab")
        posts.append(await self._gm_post(services, f"{self.game_id}-{n}-gm", npcs))

        async def close_and_resolve() -> None:
            closed = await services.calltime.close(self.game_id, GM)
            await services.resolution.resolve(self.game_id, GM, closed.number)

        took, _ = await timed(close_and_resolve)
        return statistics.median(posts), took

    async def _gm_post(self, services: Services, key: str, text: str) -> float:
        took, reply = await timed(lambda: services.turns.post(
            self.game_id, GM, channel_key="history", message_key=key, text=text))
        assert reply.ok, reply.reply
        return float(took)


async def history_table(services: Services) -> Table:
    game = await services.games.create(channel_key="history", name="A long game", creator=GM)
    players = []
    for c in "ab":
        player = f"history-{c}"
        await services.games.add_member(game.id, GM, player, Role.PLAYER)
        reply = await services.characters.create(
            game.id, player, new_character(PC_SHEET, f"Kael{c}"))
        assert reply.ok, reply
        players.append((player, f"Kael{c}"))
        reply = await services.characters.add_enemy(
            game.id, GM, new_character(ENEMY_SHEET, f"Skarg{c}"))
        assert reply.ok, reply
    await services.turns.open(game.id, GM)
    return Table(game.id, players)


# ---- the figures --------------------------------------------------------------------------------
class _Channel:
    """A guild channel as discord.py's cache holds it, for the catch-up's planning."""

    def __init__(self, key: int) -> None:
        self.id = key
        self.guild = _Guild()
        self.last_message_id = key


class _Guild:
    shard_id = 0


class _Bot:
    """What `CatchUp.plan` reads of the bot: its services, its shards and its channel cache."""

    shard_ids = None

    def __init__(self, services: Services) -> None:
        self.services = services

    def get_channel(self, key: int) -> _Channel:
        return _Channel(key)


async def bench_outbox(services: Services, games: int, sizes: Sequence[int], repeat: int,
                       out: Callable[[str], None], kind: str, note: str = "") -> None:
    for size in sizes:
        rooms = [room(i) for i in range(max(size, games))][:size]
        first, steady, found = await first_and_steady(
            lambda rooms=rooms: services.outbox.pending(100, rooms), repeat)
        out(f"{kind:8} outbox     {size:6d} rooms: first {ms(first)}, steady {ms(steady)} "
            f"({len(found)} messages of {min(size, games)} rooms with a pending one){note}")


async def bench_open_turns(services: Services, games: int, repeat: int,
                           out: Callable[[str], None], kind: str) -> None:
    from fappo_bot.discord.catchup import CatchUp

    first, steady, found = await first_and_steady(services.channels.open_turns, repeat)
    out(f"{kind:8} open turns {games:6d} games: first {ms(first)}, steady {ms(steady)} "
        f"({len(found)} games with an open turn)")
    catchup = CatchUp(_Bot(services), None, None)  # type: ignore[arg-type]
    first, steady, units = await first_and_steady(lambda: catchup.plan(None), repeat)
    out(f"{kind:8} catch-up plan {games:6d} games: first {ms(first)}, steady {ms(steady)} "
        f"({len(units)} channels to read: rooms and members' DMs)")


async def bench_history(services: Services, turns: int, turn_posts: int, measured: int,
                        out: Callable[[str], None], kind: str) -> None:
    table = await history_table(services)
    early = [await table.turn(services) for _ in range(3 + measured)][3:]
    while table.turns < turns:
        await table.turn(services)
    late = [await table.turn(services) for _ in range(measured)]
    for what, index in (("post", 0), ("close+resolve", 1)):
        before = statistics.median(t[index] for t in early)
        after = statistics.median(t[index] for t in late)
        out(f"{kind:8} history    {what:13}: after 3 turns {ms(before)}, after {turns} turns "
            f"{ms(after)} (x{after / before:.2f})")
    # one turn of many posts: the players write their orders again and again
    block = min(50, max(turn_posts // 8, 1))
    times = []
    for i in range(turn_posts):
        player, _pc = table.players[i % 2]
        times.append(await table.post(services, player, f"long-{i}"))
    first, last = statistics.median(times[:block]), statistics.median(times[-block:])
    out(f"{kind:8} turn size  post         : posts 1-{block} {ms(first)}, posts "
        f"{turn_posts - block + 1}-{turn_posts} {ms(last)} (x{last / first:.2f})")


async def run(args: argparse.Namespace, out: Callable[[str], None]) -> None:
    db = Database(args.postgres)
    try:
        await db.create()
    except (TimeoutError, OSError) as exc:
        out(f"postgres: skipped, the server is not reachable ({exc})")
        return
    try:
        engine = create_engine_for_url(db.url)
        await upgrade_engine(engine)
        try:
            services = Services(SqlUnitOfWorkFactory(engine), ids=Ids("s"))
            took, _ = await timed(lambda: seed_games(services, args.games))
            out(f"{db.kind:8} seed       {args.games:6d} games through the service: "
                f"{took:.1f} s ({args.games / took:.0f} games/s)")
            if db.kind == "postgres":  # the plan PostgreSQL picks before it has statistics
                await bench_outbox(services, args.games, args.room_sizes[-1:], args.repeat, out,
                                   db.kind, " (no statistics yet)")
                await db.analyze()
            await bench_outbox(services, args.games, args.room_sizes, args.repeat, out, db.kind)
            await bench_open_turns(services, args.games, args.repeat, out, db.kind)
            await bench_history(services, args.turns, args.turn_posts, args.measured, out,
                                db.kind)
        finally:
            await engine.dispose()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        out(f"{db.kind:8} RSS        peak {peak:.0f} MB")
    finally:
        await db.drop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL",
                        help="a PostgreSQL server's database to run CREATE DATABASE in "
                             "(default: SQLite)")
    parser.add_argument("--games", type=int, default=1000, help="games seeded (1,000)")
    parser.add_argument("--rooms", default="1000,10000,20000",
                        help="the room counts the outbox query is asked for")
    parser.add_argument("--turns", type=int, default=200, help="the long game's history (200)")
    parser.add_argument("--turn-posts", type=int, default=400, help="posts in the long turn")
    parser.add_argument("--repeat", type=int, default=5, help="calls timed after the first")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.rooms, args.turns, args.turn_posts, args.repeat = 20, "20,200", 5, 16, 1
    args.measured = 1 if args.smoke else 3
    args.room_sizes = [int(s) for s in args.rooms.split(",") if s]
    if args.turns < 3 + args.measured:
        parser.error(f"--turns must be at least {3 + args.measured}")
    print(machine_speed())
    asyncio.run(run(args, print))
    return 0


if __name__ == "__main__":
    sys.exit(main())
