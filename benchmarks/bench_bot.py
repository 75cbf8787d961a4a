"""The bot under load, through the local fake Discord and the real discord.py client.

Holds Discord's rate for one bot, 50 posts a second across 20 rooms, for 60 seconds on SQLite,
and reports the post -> reply latency (from the fake sending MESSAGE_CREATE on the gateway to the
reply's POST arriving at the fake; p50, p99, max), the CPU per post of the bot's process alone
and of the bot and the fake together, and the time from the GM's "Resolve the turn" click to the
last result message of a 60-combatant turn (the results go out before the next turn's
announcement).

In production Discord is another machine, so the fake runs in a process of its own (started
with `multiprocessing`, talking to this one over a pipe only to set up and to report): the bot's
process pays only its own CPU, as `fappo-bot run` would. The bot's process is set up as
`fappo-bot run` sets it up (`startup.tune_collector` after start-up), unless `--no-gc-tuning`.

    .venv/bin/python benchmarks/bench_bot.py [--rate 50] [--seconds 60] [--rooms 20] [--runs 1]
        [--no-gc-tuning] [--diagnose] [--combatants 60] [--turn-board] [--callgrind] [--floor]
        [--hogs N] [--smoke]

`--floor` runs the same loads against a bare discord.py bot, built as the bot's client is, that
answers each post with a fixed reply of the bot's usual length and does nothing else: what
discord.py and aiohttp cost a post by themselves on this fake, the part of the bot's figure that
no change to the bot can remove. `--hogs N` runs N spinning processes beside each load, each in
a session of its own as other users' jobs are: a busy machine on demand, so that "under load" is
a figure anyone can repeat, not whatever else the machine happened to run.

Instructions a post, start-up and the first load (connections opened, caches warmed) left
out: callgrind counts only the loads after the first (`--callgrind`, its instrumentation turned
on and off around each, as `bench_service.py` does); 'Collected' over the posts it says counted:
    PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \
        --callgrind-out-file=/dev/null .venv/bin/python benchmarks/bench_bot.py --callgrind \
        --rate 1 --rooms 4 --seconds 30 --runs 2 --combatants 6

Each run also times, in the bot's process during the load, every garbage collection (by
generation). `--diagnose` adds a watchdog thread that notes where the loop's thread is whenever
the loop has not turned for 50 ms, to tell where the slowest posts' time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_storage import GM, machine_speed, turn_ready
from fappo_bot.service.records import Role

ORDERS = ("Kael presses on.\n2 AP attack Skarg with Broadsword\n1 AP defend",
          "3 AP defend",
          "1 AP attack Skarg with Broadsword\n2 AP defend")


def cpu_seconds() -> float:
    """Processor time of this process so far (user + system, every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def system_seconds() -> float:
    """The part of `cpu_seconds` spent in the kernel (sockets, files)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def slept() -> int:
    """How often a thread of this process gave the processor up to wait (the loop's `epoll`,
    a lock): each is a wake-up later, with the caches the other processes left."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_nvcsw


def preempted() -> int:
    """How often the kernel took the processor from this process (other jobs wanting it)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_nivcsw


def instrument(on: bool) -> None:
    """Turn callgrind's instrumentation of this process on or off, and wait until it is (as
    `bench_service.py --callgrind` does; the fake's process is not traced)."""
    import subprocess

    command = ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())]
    done = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    while done.poll() is None:  # valgrind reads the request while this process runs
        time.sleep(0.005)


# ---- the fake Discord's process ---------------------------------------------------------------
def fake_side(conn: Connection, rooms: int, players: int) -> None:
    """The child process: the fake Discord, the players' posts and the GM's click."""
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(_fake_side(conn, rooms, players))


def _timed_fake() -> Any:
    from tests.bot.fake_discord import FakeDiscord

    class TimedFake(FakeDiscord):
        """The fake, noting when each message of the bot arrives."""

        def __init__(self) -> None:
            super().__init__()
            self.arrived: dict[str, float] = {}
            self.replied: dict[str, float] = {}

        def _create_message(self, channel_id: str, body: dict[str, Any]) -> Any:
            now = time.perf_counter()
            answer = super()._create_message(channel_id, body)
            reference = (body.get("message_reference") or {}).get("message_id")
            if reference is not None:
                self.replied.setdefault(str(reference), now)
            self.arrived[f"{channel_id}:{len(self.arrived)}"] = now
            return answer

    return TimedFake()


async def _fake_side(conn: Connection, rooms: int, players: int) -> None:
    fake = _timed_fake()
    fake.gm = fake.add_user("gwen")
    made = []
    for r in range(rooms):
        room = fake.add_channel(f"room-{r}")
        made.append((room["id"], [fake.add_user(f"player-{r}-{p}") for p in range(players)]))
    fake.room = fake.add_channel("arena")  # where the `--combatants` turn is resolved
    await fake.start()
    conn.send({"api_base": fake.api_base, "gateway_url": fake.gateway_url,
               "gm": fake.gm["id"], "arena": fake.room["id"],
               "rooms": [(room, [u["id"] for u in users]) for room, users in made]})
    try:
        while True:
            command, args = await asyncio.to_thread(conn.recv)
            if command == "load":
                conn.send(await _load(fake, made, *args))
            elif command == "resolve":
                conn.send(await _resolve(fake))
            else:
                break
    finally:
        await fake.stop()


async def _load(fake: Any, rooms: Sequence[tuple[str, list[dict[str, Any]]]],
                rate: float, seconds: float, collect: bool) -> dict[str, Any]:
    """Post at `rate` a second for `seconds`, each post to the next room in turn."""
    total = int(rate * seconds)
    sent: dict[str, float] = {}
    pauses: list[tuple[float, float, str]] = []  # the fake's own collections of 5 ms or more
    began: list[float] = []

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[:] = [time.perf_counter()]
        elif began and (took := (time.perf_counter() - began[0]) * 1000) >= 5:
            pauses.append((began[0], took, f"the fake's gen-{info['generation']} collection"))

    if not collect:  # the fake stands for Discord's servers: its pauses are not the bot's
        gc.collect()
        gc.disable()
    gc.callbacks.append(on_gc)
    cpu0 = cpu_seconds()
    start = time.perf_counter()
    for i in range(total):
        due = start + i / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        room, users = rooms[i % len(rooms)]
        user = users[(i // len(rooms)) % len(users)]
        message = fake.message_json(room, user, ORDERS[i % len(ORDERS)])
        fake.messages[room][message["id"]] = message
        sent[message["id"]] = time.perf_counter()
        await fake.dispatch("MESSAGE_CREATE", message)
    await fake.wait_for(lambda: all(m in fake.replied for m in sent), timeout=300)
    gc.callbacks.remove(on_gc)
    gc.enable()
    return {"latencies": [(fake.replied[m] - t) * 1000 for m, t in sent.items()],
            "sent_at": [t - start for t in sent.values()], "start": start, "pauses": pauses,
            "posts": total, "cpu": cpu_seconds() - cpu0}


async def _resolve(fake: Any) -> float:
    """Seconds from the GM's click on "Resolve the turn" to the last result message."""
    from tests.bot.table import components, use_component

    arena = fake.room["id"]
    interaction = await fake.command(fake.gm, arena, "gm resolve")
    # Discord's 3 s: the review is deferred at once, then the panel follows
    [_deferred, panel] = await fake.answered(interaction, 2, timeout=120)
    message = panel["message"]
    button = next(c for c in components(message) if c.get("label") == "Resolve the turn")
    before = len(fake.arrived)
    clicked = time.perf_counter()
    await use_component(fake, fake.gm, message, button)
    await fake.wait_for(lambda: any(m["content"].startswith("Turn 2 is open")
                                    for m in fake.bot_messages(arena)), timeout=120)
    arrivals = [t for key, t in list(fake.arrived.items())[before:] if key.startswith(arena)]
    # the last result message is the one before the next turn's announcement
    return (arrivals[-2] - clicked) if len(arrivals) >= 2 else float("nan")


# ---- the bot's process ------------------------------------------------------------------------
@dataclass
class Diagnosis:
    """Garbage collections and loop stalls in the bot's process during the load."""

    collections: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: [], 2: []})
    #: the same in processor time (the machine's other jobs left out)
    cpu: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: [], 2: []})
    full_at: list[float] = field(default_factory=list)
    _started_cpu: float = 0.0
    stalls: list[str] = field(default_factory=list)
    slow_sql: list[tuple[float, str]] = field(default_factory=list)
    #: (when it began, on the clock both processes share; ms; what): the slow SQLite calls and
    #: the collections of 5 ms or more, to set beside the slowest posts
    events: list[tuple[float, float, str]] = field(default_factory=list)
    #: the database's WAL index (the -shm file), to tell a COMMIT that checkpointed
    shm: Path | None = None
    _shm_fd: int | None = None
    _untime: Any = None
    _done: bool = False
    _last_tick: float = 0.0
    _loop_thread: int = 0
    _started: float = 0.0
    _installed: float = 0.0
    #: how often the WAL started over (its frame count fell after a COMMIT), and its most frames
    wal_restarts: int = 0
    wal_most: int = 0
    _wal_last: int = 0

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self._started_cpu = time.thread_time()
        else:
            took = (time.perf_counter() - self._started) * 1000
            self.collections[info["generation"]].append(took)
            if took >= 5:
                self.events.append((self._started, took, f"gen-{info['generation']} collection"))
            self.cpu[info["generation"]].append((time.thread_time() - self._started_cpu) * 1000)
            if info["generation"] == 2:
                self.full_at.append(self._started - self._installed)

    def install(self, loop: asyncio.AbstractEventLoop, *, watch: bool) -> None:
        self._installed = time.perf_counter()
        gc.callbacks.append(self.on_gc)
        if not watch:
            return
        self._time_sqlite()
        self._loop_thread = threading.get_ident()
        self._tick(loop)
        threading.Thread(target=self._watch, daemon=True).start()

    def _time_sqlite(self) -> None:
        """Note every SQLite call on the loop that takes 10 ms or more (the statement)."""
        from fappo_bot.storage.sqlite_inline import InlineConnection

        call = InlineConnection.call
        diagnosis = self

        async def timed(connection: Any, function: Any, *args: Any) -> Any:
            commit = bool(args) and args[0] == "COMMIT"
            backfilled = diagnosis.backfilled() if commit else 0
            started = time.perf_counter()
            try:
                return await call(connection, function, *args)
            finally:
                took = (time.perf_counter() - started) * 1000
                if commit:
                    diagnosis.wal_frames()
                if took >= 10 and not diagnosis._done:
                    what = str(args[0])[:40] if args else getattr(function, "__name__", "?")
                    if commit and diagnosis.backfilled() != backfilled:
                        what = f"{what} (checkpointed)"
                    diagnosis.slow_sql.append((took, what))
                    diagnosis.events.append((started, took, what))

        InlineConnection.call = timed  # type: ignore[method-assign]
        self._untime = lambda: setattr(InlineConnection, "call", call)

    def backfilled(self) -> int:
        """How many WAL frames were copied into the database since the WAL began (the WAL
        index's nBackfill, at byte 96 of the -shm file): a COMMIT that changes it checkpointed."""
        if self._shm_fd is None:
            if self.shm is None or not self.shm.exists():
                return -1
            self._shm_fd = os.open(self.shm, os.O_RDONLY)
        return int.from_bytes(os.pread(self._shm_fd, 4, 96), sys.byteorder)

    def wal_frames(self) -> None:
        """Note the WAL's frames now (the WAL index's mxFrame, byte 16 of the -shm file)."""
        if self.backfilled() < 0 or self._shm_fd is None:
            return
        frames = int.from_bytes(os.pread(self._shm_fd, 4, 16), sys.byteorder)
        if frames < self._wal_last:
            self.wal_restarts += 1
        self._wal_last = frames
        self.wal_most = max(self.wal_most, frames)

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self._last_tick = time.perf_counter()
        if not self._done:
            loop.call_later(0.005, self._tick, loop)

    def _watch(self) -> None:
        """Where the loop's thread is when the loop has not turned for 50 ms."""
        reported = 0.0
        while not self._done:
            time.sleep(0.01)
            tick = self._last_tick
            if time.perf_counter() - tick > 0.05 and tick != reported:
                reported = tick
                frame = sys._current_frames().get(self._loop_thread)
                where = []
                while frame is not None and len(where) < 12:
                    code = frame.f_code
                    where.append(f"{Path(code.co_filename).name}:{frame.f_lineno} "
                                 f"{code.co_name}")
                    frame = frame.f_back
                self.stalls.append(f"at {tick - self._installed:.1f} s: " + " < ".join(where))

    def remove(self, loop: asyncio.AbstractEventLoop) -> None:
        gc.callbacks.remove(self.on_gc)
        self._done = True
        if self._untime is not None:
            self._untime()

    def beside(self, at: float, took_ms: float) -> str:
        """The events that overlapped a post sent at `at` and answered `took_ms` later."""
        end = at + took_ms / 1000
        return ", ".join(f"{what} {ms:.0f} ms" for start, ms, what in self.events
                         if start < end and start + ms / 1000 > at) or "-"

    def report(self) -> str:
        lines = [f"  collector: {gc.get_freeze_count():,} objects frozen, "
                 f"{len(gc.get_objects()):,} tracked; collections during the load (generation: "
                 "how many, total, longest; CPU total, longest): " + "; ".join(
                     f"{generation}: {len(pauses)}, {sum(pauses):.0f}, "
                     f"{max(pauses, default=0):.1f} ms; {sum(self.cpu[generation]):.0f}, "
                     f"{max(self.cpu[generation], default=0):.1f} ms"
                     for generation, pauses in self.collections.items())]
        if self.full_at:
            lines.append("  full collections at (s): " + ", ".join(f"{t:.1f}"
                                                                for t in self.full_at))
        if self._shm_fd is not None:
            lines.append(f"  the WAL started over {self.wal_restarts} times; at most "
                         f"{self.wal_most:,} frames")
        if self.slow_sql:
            kinds: dict[str, list[float]] = {}
            for took, what in self.slow_sql:
                kinds.setdefault(what.split()[0] if what.strip() else what, []).append(took)
            lines.append("  SQLite calls of 10 ms or more: " + "; ".join(
                f"{kind}: {len(times)}, longest {max(times):.0f} ms"
                for kind, times in sorted(kinds.items())))
        if self.stalls:
            lines.append(f"  the loop stalled 50 ms or more {len(self.stalls)} times; where:")
            lines.extend(f"    {s[:400]}" for s in self.stalls[:20])
        return "\n".join(lines)


async def recv(conn: Connection) -> Any:
    return await asyncio.to_thread(conn.recv)


async def set_up_rooms(running: Any, gm: str, rooms: Sequence[tuple[str, list[str]]]) -> None:
    """A game per room, a Kael for each player and a Skarg; turn 1 open."""
    from benchmarks.bench_storage import ENEMY_SHEET, PC_SHEET, new_character

    services = running.services
    for r, (room, users) in enumerate(rooms):
        running.bot.rooms.forget(room)  # seen at start-up (catch-up) when it held no game yet
        game = await services.games.create(channel_key=room, name=f"Room {r}", creator=gm)
        for p, user in enumerate(users):
            await services.games.add_member(game.id, gm, user, Role.PLAYER)
            name = "Kael" if p == 0 else f"Kael {chr(65 + p)}"
            check = await services.characters.create(game.id, user,
                                                      new_character(PC_SHEET, name))
            assert check.ok, check
        assert (await services.characters.add_enemy(
            game.id, gm, new_character(ENEMY_SHEET, "Skarg"))).ok
        await services.turns.open(game.id, gm)


def percentile(ordered: Sequence[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


#: what the floor's bare bot answers every post with: as long as the bot's usual answer to
#: `ORDERS[0]` (its orders, the SP left and the note that they replace earlier ones)
FLOOR_REPLY = ("Kael: 3/3 AP committed\n  2 AP  attack Skarg · Broadsword (Swordfighting 5)\n"
               "  1 AP  defend (all attacks)\nSP left: Nimble 5, Tireless 3, floating 1\n"
               "This post replaces Kael's orders from an earlier post (the same orders).")


def floor_bot(fake: SimpleNamespace) -> Any:
    """A bare discord.py bot, built as `FappoBotBase` builds its client (the same class,
    intents, mentions, no member chunking), that answers every member's message at once with
    `FLOOR_REPLY` as a reply to it: no storage, no parse, no service. What it costs a post is
    what discord.py and aiohttp cost, on this fake and this machine, before any of the bot's
    own work: the floor under `bench_bot.py`'s CPU a post."""
    import discord
    from discord.ext import commands

    from fappo_bot.discord.base import GUILD_READY_TIMEOUT, bot_intents
    from fappo_bot.discord.endpoints import Endpoints, aim_http

    class FloorBot(commands.AutoShardedBot):
        async def on_message(self, message: discord.Message) -> None:
            if message.author.bot:
                return
            reference = discord.MessageReference(message_id=message.id,
                                                 channel_id=message.channel.id,
                                                 fail_if_not_exists=False)
            await message.channel.send(FLOOR_REPLY, reference=reference)

    bot = FloorBot(command_prefix=commands.when_mentioned, help_command=None,
                   intents=bot_intents(), allowed_mentions=discord.AllowedMentions.none(),
                   chunk_guilds_at_startup=False, guild_ready_timeout=GUILD_READY_TIMEOUT)
    aim_http(bot.http, Endpoints.of(fake.api_base, fake.gateway_url))
    return bot


async def run_floor(args: argparse.Namespace, conn: Connection, fake: SimpleNamespace) -> None:
    """`--floor`: the loads against `floor_bot` (no turn to resolve after them)."""
    from tests.bot.fake_discord import TOKEN

    bot = floor_bot(fake)
    started = asyncio.create_task(bot.start(TOKEN))
    await asyncio.wait_for(bot.wait_until_ready(), timeout=15)
    try:
        if not args.no_gc_tuning:
            from fappo_bot.discord.startup import tune_collector

            tune_collector()
        print(machine_speed())
        print("the floor: a bare discord.py bot that answers every post with a fixed reply")
        for run_number in range(args.runs):
            await load(conn, args, counted=args.callgrind and run_number > 0)
    finally:
        await bot.close()
        with contextlib.suppress(Exception):
            await started


async def run(args: argparse.Namespace) -> None:
    from fappo_bot.settings import DiscordSettings, TurnSettings

    # a board's least period as `fappo-bot run` has it (the tests' bot refreshes at every change)
    board_period = DiscordSettings.model_fields["turn_board_period_seconds"].default
    from tests.bot.conftest import RunningBot

    logging.basicConfig(level=logging.ERROR)
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    fake_process = context.Process(target=fake_side, args=(child_conn, args.rooms, args.players),
                                   daemon=True)
    fake_process.start()
    try:
        fake = SimpleNamespace(**await recv(conn))
        if args.floor:
            args.shm = Path(tempfile.gettempdir()) / "no-database-shm"
            await run_floor(args, conn, fake)
            conn.send(("stop", ()))
            return
        with tempfile.TemporaryDirectory() as tmp:
            if args.sqla_public:
                from tests.storage import sqla_public

                sqla_public.install()
            if args.sqlite_checkpoints:
                from fappo_bot.storage import sqlite_inline

                sqlite_inline.BACKGROUND_CHECKPOINTS = False
            running = RunningBot(fake, Path(tmp) / "data",  # type: ignore[arg-type]
                                 turn_board=args.turn_board)
            args.shm = Path(tmp) / "data" / "fappo.sqlite3-shm"
            # as `fappo-bot run` is set up (the tests look for due turns every 50 ms)
            running.settings.turns = TurnSettings()
            running.settings.discord.turn_board_period_seconds = board_period
            await running.start()
            try:
                await set_up_rooms(running, fake.gm, fake.rooms)
                if not args.no_gc_tuning:
                    from fappo_bot.discord.startup import tune_collector

                    tune_collector()
                print(machine_speed())
                for run_number in range(args.runs):
                    await load(conn, args, counted=args.callgrind and run_number > 0)
                if args.callgrind:
                    print(f"callgrind counted {args.runs - 1} loads, "
                          f"{(args.runs - 1) * int(args.rate * args.seconds)} posts")
                game_id = await turn_ready(running.services, args.combatants, fake.arena)
                running.bot.rooms.forget(fake.arena)
                await running.services.games.add_member(game_id, GM, fake.gm, Role.GM)
                conn.send(("resolve", ()))
                took = await recv(conn)
                print(f"{args.combatants}-combatant turn: 'Resolve the turn' -> last result "
                      f"message {took * 1000:.0f} ms")
            finally:
                await running.stop()
        conn.send(("stop", ()))
    finally:
        fake_process.join(timeout=10)
        if fake_process.is_alive():
            fake_process.kill()


@contextlib.contextmanager
def busy_machine(hogs: int) -> Any:
    """`hogs` processes that only spin, while the block runs: a machine loaded by other jobs.
    Each is started in a session of its own, as another user's job or service would be: Linux
    (with autogroup, the default) shares the processor between sessions first, so hogs started
    in the benchmark's own session would take the bot's share instead of the machine's."""
    import subprocess

    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                 start_new_session=True) for _ in range(hogs)]
    try:
        yield
    finally:
        for hog in spinning:
            hog.kill()
        for hog in spinning:
            hog.wait()


async def load(conn: Connection, args: argparse.Namespace, *, counted: bool = False) -> None:
    """One run of the load; prints its figures (`counted`: under callgrind's count)."""
    with busy_machine(args.hogs):
        await _load_once(conn, args, counted=counted)


async def _load_once(conn: Connection, args: argparse.Namespace, *, counted: bool) -> None:
    loop = asyncio.get_running_loop()
    diagnosis = Diagnosis(shm=args.shm)
    diagnosis.install(loop, watch=args.diagnose)
    cpu0, system0, preempted0, slept0 = cpu_seconds(), system_seconds(), preempted(), slept()
    loop0 = time.thread_time()  # this coroutine runs in the loop's thread
    profile = None
    if args.profile:
        import cProfile

        # the loop thread's processor time, not the wall's: on the shared machine the wall
        # charges a call for the other processes that ran while it waited (a socket's send that
        # woke the fake looked like the bot's biggest cost)
        profile = cProfile.Profile(time.thread_time)
        profile.enable()
    if counted:
        instrument(True)
    conn.send(("load", (args.rate, args.seconds, args.fake_gc)))
    result = await recv(conn)
    if counted:
        instrument(False)
    if profile is not None:
        profile.disable()
        profile.dump_stats(args.profile)
    cpu, switches = cpu_seconds() - cpu0, preempted() - preempted0
    on_loop = time.thread_time() - loop0
    sleeps = slept() - slept0
    system = system_seconds() - system0
    diagnosis.remove(loop)
    latencies = sorted(result["latencies"])
    posts = result["posts"]
    with open("/proc/loadavg") as file:
        load_average = " ".join(file.read().split()[:3])
    beside = f", {args.hogs} spinning processes beside it" if args.hogs else ""
    print(f"{posts} posts at {args.rate:g}/s across {args.rooms} rooms for {args.seconds:g} s "
          f"(SQLite; load average {load_average}{beside}): post -> reply p50 "
          f"{statistics.median(latencies):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, "
          f"max {latencies[-1]:.1f} ms; CPU a post: bot {cpu / posts * 1000:.2f} ms "
          f"({on_loop / posts * 1000:.2f} on the loop's thread, the rest in the others: the WAL's "
          f"checkpoints, the pipe; {system / posts * 1000:.2f} in the kernel; "
          f"{cpu / args.seconds * 100:.0f}% of one core), bot + fake "
          f"{(cpu + result['cpu']) / posts * 1000:.2f} ms; the bot's process preempted "
          f"{switches} times, asleep {sleeps / posts:.1f} times a post")
    slowest = sorted(zip(result["latencies"], result["sent_at"], strict=True))[-8:]
    print("  slowest posts (ms, at s): " + ", ".join(f"{lat:.0f} @ {at:.1f}"
                                                    for lat, at in reversed(slowest)))
    wal = args.shm.with_name(args.shm.name.replace("-shm", "-wal"))
    print(f"  the WAL: {wal.stat().st_size / 2**20:.1f} MB" if wal.exists() else "  no WAL")
    fake_pauses = [ms for _, ms, _ in result["pauses"]]
    print(f"  the fake's own collections of 5 ms or more: {len(fake_pauses)}, longest "
          f"{max(fake_pauses, default=0):.0f} ms")
    if args.diagnose:
        diagnosis.events.extend(result["pauses"])
        for lat, at in reversed(slowest):
            print(f"    {lat:.0f} ms @ {at:.2f} s, beside: "
                  f"{diagnosis.beside(result['start'] + at, lat)}")
    print(diagnosis.report())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--runs", type=int, default=1, help="load runs, one after another")
    parser.add_argument("--no-gc-tuning", action="store_true",
                        help="leave the collector as Python sets it (no freeze, no thresholds)")
    parser.add_argument("--sqla-public", action="store_true",
                        help="run the storage's statements through SQLAlchemy's public API "
                             "(tests/storage/sqla_public.py) instead of storage/driver.py")
    parser.add_argument("--profile", metavar="FILE",
                        help="write a cProfile of the bot's loop thread (its processor time) during "
                             "the loads to FILE")
    parser.add_argument("--sqlite-checkpoints", action="store_true",
                        help="SQLite's own WAL checkpoints, in the COMMITs on the loop, instead of "
                             "the background ones")
    parser.add_argument("--fake-gc", action="store_true",
                        help="leave the fake's collector on during the load (its pauses then "
                             "count in the latencies)")
    parser.add_argument("--diagnose", action="store_true",
                        help="note where the bot's loop is when it stalls for 50 ms")
    parser.add_argument("--combatants", type=int, default=60,
                        help="combatants of the resolved turn (default 60)")
    parser.add_argument("--turn-board", action="store_true",
                        help="each room's turn board on, as `fappo-bot run` has it by default "
                             "(off unless asked, as in the tests, so that figures compare with "
                             "the earlier ones)")
    parser.add_argument("--callgrind", action="store_true",
                        help="under valgrind --tool=callgrind --instr-atstart=no: count the "
                             "instructions of the loads after the first")
    parser.add_argument("--hogs", type=int, default=0,
                        help="that many processes spinning during each load, each in a session "
                             "of its own: the figures of a machine busy with other jobs")
    parser.add_argument("--floor", action="store_true",
                        help="the same loads against a bare discord.py bot that answers every "
                             "post with a fixed reply (no storage, no service): what discord.py "
                             "and aiohttp cost a post by themselves")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args(argv)
    if args.callgrind and args.runs < 2:
        parser.error("--callgrind counts the loads after the first: give --runs 2 or more")
    if args.smoke:
        args.rate, args.seconds, args.rooms, args.players = 20.0, 0.25, 2, 1
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
