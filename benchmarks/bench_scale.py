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
4. The bot (`--no-bot` leaves it out), in a process of its own (`tests/bot/bot_process.py`: started
   as the tests start it, the real discord.py client), against the fake Discord (`tests/bot/fake_discord.py`) in
   this process, paced at Discord's global 50 requests a second (`--unpaced`: answered at once),
   the `--games` games' guilds, rooms and members on it: start-up to ready, the bot's RSS, and
   the catch-up of an outage in which every room got a player's post (each room's mark at the
   turn's announcement, the outbox delivered): its REST calls by kind, when the last room was
   read, when its post was registered with the service (the rooms current: the newest
   `post.create` of the audit logs), when it was answered, and when the round was done. Goals: ready in under 2 s; 1,000 rooms caught up within 25 s.
Also the seeding's pace and the process's peak RSS.

Run:
    .venv/bin/python benchmarks/bench_scale.py                      # SQLite, 1,000 games
    .venv/bin/python benchmarks/bench_scale.py --postgres postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python benchmarks/bench_scale.py --games 1000 --rooms 1000,10000,20000 --turns 200
    .venv/bin/python benchmarks/bench_scale.py --catchup-only       # the bot's figures only
    .venv/bin/python benchmarks/bench_scale.py --smoke              # smallest sizes: does it run?
With `--postgres URL` (a database to connect to for CREATE DATABASE), a throw-away database
`fappo_scale_<random>` is created on that server and dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

ROOT = Path(__file__).resolve().parents[1]
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


# ---- the bot against the fake Discord -----------------------------------------------------------
def scale_fake(paced: bool) -> Any:
    """The fake Discord (`tests/bot/fake_discord.py`), paced at Discord's global 50 requests a
    second unless `paced` is false, noting when the bot's first reply to each message arrives."""
    from tests.bot.fake_discord import FakeDiscord, Pace

    class ScaleFake(FakeDiscord):
        def __init__(self) -> None:
            super().__init__(pace=Pace() if paced else None)
            self.replied: dict[str, float] = {}
            #: channel id -> when its history was last read
            self.read: dict[str, float] = {}

        def _history(self, channel_id: str, query: Any) -> list[dict[str, Any]]:
            self.read[channel_id] = time.monotonic()
            return super()._history(channel_id, query)

        def store(self, channel_id: str, message: dict[str, Any]) -> None:
            super().store(channel_id, message)
            reference = message.get("message_reference") or {}
            if message["author"]["id"] == self.bot_user["id"] and reference.get("message_id"):
                self.replied.setdefault(str(reference["message_id"]), time.monotonic())

    return ScaleFake()


async def outage(services: Services, fake: Any, games: int) -> list[str]:
    """The seeded games on the fake: their guilds, rooms and members; in each room the turn's
    announcement, handled before an outage (the room's mark, the outbox delivered), then one
    post of a player while the bot was away: a defense of their character (made here). The
    missed posts' ids."""
    for g in range(0, games, GAMES_PER_GUILD):
        fake.guilds[GUILD0 + g // GAMES_PER_GUILD] = f"Guild {g // GAMES_PER_GUILD}"
    marks, missed = {}, []
    for g in range(games):
        channel = fake.add_channel(f"game-{g}", guild=GUILD0 + g // GAMES_PER_GUILD,
                                   channel_id=ROOM0 + g)["id"]
        players = [fake.add_user(f"player-{g}-{p}", USER0 + g * PLAYERS + p)
                   for p in range(PLAYERS)]
        game = await services.games.find(channel)
        reply = await services.characters.create(game.id, players[0]["id"],
                                                 new_character(PC_SHEET, f"Kael{g}"))
        assert reply.ok, reply
        announcement = await fake.post(channel, fake.bot_user, "Turn 1 is open.", live=False)
        marks[channel] = announcement["id"]
        missed.append((await fake.post(channel, players[0], "3 AP defend", live=False))["id"])
    await services.channels.set_marks(marks)
    while pending := await services.outbox.pending(500):
        for message in pending:
            await services.outbox.mark_sent(message.id, [])
    return missed


def kinds(requests: Sequence[Any], rooms: set[str]) -> dict[str, int]:
    """The REST calls by kind."""
    found = {"DM opens": 0, "room reads": 0, "DM reads": 0, "messages sent": 0, "other": 0}
    for r in requests:
        if r.method == "POST" and r.path == "/users/@me/channels":
            found["DM opens"] += 1
        elif r.method == "GET" and r.path.endswith("/messages"):
            found["room reads" if r.path.split("/")[2] in rooms else "DM reads"] += 1
        elif r.method == "POST" and r.path.endswith("/messages"):
            found["messages sent"] += 1
        else:
            found["other"] += 1
    return found


async def registered_at(services: Services, games: int) -> float:
    """When (this process's monotonic clock) the last missed post was registered with the
    service: the newest `post.create` of the games' audit logs (the bot's wall clock)."""
    offset = time.time() - time.monotonic()
    last = 0.0
    for g in range(games):
        game = await services.games.find(room(g))
        for entry in await services.games.audit_log(game.id, GM, limit=None):
            if entry.action == "post.create":
                last = max(last, entry.at.timestamp() - offset)
    return last


async def bench_bot(services: Services, db: Database, games: int, paced: bool,
                    out: Callable[[str], None], profile: str | None = None) -> None:
    """Start-up to ready with `games` games, the bot's RSS, and the catch-up after an outage in
    which every room got a post: its REST calls and the time to the last room answered."""
    fake = scale_fake(paced)
    await fake.start()
    child = None
    try:
        missed = await outage(services, fake, games)
        config = {"api_base": fake.api_base, "gateway_url": fake.gateway_url, "token": fake.token,
                  "database": db.url, "data_dir": str(Path(tempfile.mkdtemp(prefix="fappo-bot-"))),
                  "profile": profile or ""}
        launched = time.monotonic()
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.bot.bot_process", json.dumps(config), cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert child.stdout is not None and child.stdin is not None
        ready = json.loads(await asyncio.wait_for(child.stdout.readline(), 120))
        await fake.wait_for(lambda: len(fake.replied) >= len(missed), timeout=900)
        caught_up = json.loads(await asyncio.wait_for(child.stdout.readline(), 900))
        last = max(fake.replied[m] for m in missed)
        read = max(fake.read[room(g)] for g in range(games))
        calls = kinds(fake.requests, {room(g) for g in range(games)})
        child.stdin.write(b"stop\n")
        await child.stdin.drain()
        await asyncio.wait_for(child.wait(), 60)
    finally:
        if child is not None and child.returncode is None:
            child.kill()
        await fake.stop()
    registered = await registered_at(services, games)
    pace = "at Discord's 50 requests/s" if paced else "unpaced"
    out(f"{db.kind:8} start-up   {games:6d} games: process start to ready "
        f"{ready['ready'] - launched:.2f} s (interpreter and imports "
        f"{ready['began'] - launched:.2f} s, the bot's start to ready "
        f"{ready['ready'] - ready['began']:.2f} s)")
    out(f"{db.kind:8} bot RSS    {games:6d} games: {ready['VmRSS']:.0f} MB at ready, peak "
        f"{caught_up['VmHWM']:.0f} MB after the catch-up")
    total = sum(calls.values())
    out(f"{db.kind:8} catch-up   {games:6d} rooms with a missed post each, {pace}: last room "
        f"read {read - ready['ready']:.1f} s, its post registered "
        f"{registered - ready['ready']:.1f} s (rooms current), answered "
        f"{last - ready['ready']:.1f} s after ready, round done (the DMs too) "
        f"{caught_up['caught_up'] - ready['ready']:.1f} s; {total} REST calls ("
        + ", ".join(f"{n} {k}" for k, n in calls.items()) + ")")


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
            if not args.catchup_only:
                await bench_outbox(services, args.games, args.room_sizes, args.repeat, out,
                                   db.kind)
                await bench_open_turns(services, args.games, args.repeat, out, db.kind)
            if args.bot:
                await bench_bot(services, db, args.games, args.paced, out, args.profile_bot)
            if not args.catchup_only:
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
    parser.add_argument("--no-bot", dest="bot", action="store_false",
                        help="leave out the bot's start-up and catch-up against the fake Discord")
    parser.add_argument("--unpaced", dest="paced", action="store_false",
                        help="the fake Discord answers at once (default: 50 requests/s)")
    parser.add_argument("--profile-bot", metavar="FILE",
                        help="profile the bot's process from its start to ready (cProfile)")
    parser.add_argument("--catchup-only", action="store_true",
                        help="only the seeding and the bot's start-up and catch-up (figure 4)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.paced = False
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
