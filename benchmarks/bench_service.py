"""Service-layer benchmarks on the in-memory fake unit of work: what the use cases
cost in CPU and in repository calls, without any database.

The scenarios are those of `bench_storage.py` (same games, sheets and posts), run on
`tests/service/fakes.FakeUowFactory`:
1. Post: time per `services.turns.post` with 50 games active, the parser's share apart.
2. Close and resolve a turn with 6, 60 and 600 combatants (`calltime.close` then
   `resolution.resolve`), in ms, the pure `resolve_turn` share apart, and the repository calls
   (every call on a repository, `lock_turn` and `commit`) the two use cases make: on PostgreSQL
   each one is a network round trip.

Run:
    .venv/bin/python benchmarks/bench_service.py
    .venv/bin/python benchmarks/bench_service.py --posts 2000 --sizes 6,60,600 --repeat 5
    .venv/bin/python benchmarks/bench_service.py --calls      # the calls of one close+resolve
    .venv/bin/python benchmarks/bench_service.py --smoke      # smallest sizes: does it run?

Instructions of one close+resolve of 600 combatants, the set-up left out (callgrind counts only
while the script has its instrumentation on, `callgrind_control -i on|off`):
    PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \
        --callgrind-out-file=/dev/null .venv/bin/python benchmarks/bench_service.py --callgrind 600
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_storage import (
    Ids,
    TimedResolver,
    _game,
    close_and_resolve,
    name,
    turn_ready,
)

from fappo_bot.rules import BUILT_IN, TraitCatalogue, TurnState
from fappo_bot.service import Services
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.text import PostingText, ReadPost
from tests.service.fakes import FakeUnitOfWork, FakeUowFactory

# Every repository the port declares, read from it so that a repository added to the port is
# counted (and reachable) here without touching this file.
REPOSITORIES = tuple(UnitOfWork.__annotations__)


class _Counted:
    """A repository whose every method call is counted as `repo.method`."""

    def __init__(self, repo: Any, prefix: str, calls: Counter[str]) -> None:
        self._repo, self._prefix, self._calls = repo, prefix, calls

    def __getattr__(self, attr: str) -> Any:
        method = getattr(self._repo, attr)
        calls, key = self._calls, f"{self._prefix}.{attr}"

        async def counted(*args: Any, **kwargs: Any) -> Any:
            calls[key] += 1
            return await method(*args, **kwargs)

        return counted


class CountingUowFactory(FakeUowFactory):
    """`FakeUowFactory` that counts repository calls, `lock_turn` and `commit` while
    `recording`. The fake's repositories call one another (`at_play` reads the turn and the
    members through them): those inner calls are not counted, as a store makes one read."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[str] = Counter()
        self.recording = False

    def __call__(self) -> FakeUnitOfWork:
        uow = super().__call__()
        if not self.recording:
            return uow
        return _CountedUow(uow, self.calls)  # type: ignore[return-value]


class _CountedUow:
    def __init__(self, uow: FakeUnitOfWork, calls: Counter[str]) -> None:
        self._uow, self._calls = uow, calls
        for repo in REPOSITORIES:
            setattr(self, repo, _Counted(getattr(uow, repo), repo, calls))

    async def __aenter__(self) -> _CountedUow:
        await self._uow.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._uow.__aexit__(*exc)

    async def commit(self) -> None:
        self._calls["commit"] += 1
        await self._uow.commit()

    async def rollback(self) -> None:
        await self._uow.rollback()

    async def lock_turn(self, turn_id: str) -> Any:
        self._calls["lock_turn"] += 1
        return await self._uow.lock_turn(turn_id)


class TimedText(PostingText):
    """The real post language, its time kept apart."""

    def __init__(self) -> None:
        super().__init__()
        self.read_time = 0.0

    def read(self, text: str, state: TurnState, poster: str, controls: Sequence[str],
             traits: TraitCatalogue = BUILT_IN) -> ReadPost:
        start = time.perf_counter()
        try:
            return super().read(text, state, poster, controls, traits)
        finally:
            self.read_time += time.perf_counter() - start


async def bench_post(posts: int, games: int = 50) -> dict[str, float]:
    text = TimedText()
    services = Services(FakeUowFactory(), ids=Ids("i"), text=text)
    tables = [await _game(services, f"c{g}", pcs=4, enemies=2) for g in range(games)]
    work = []
    for n in range(posts):
        game_id, players = tables[n % games]
        player, _pc = players[(n // games) % len(players)]
        body = f"2 AP attack {name('Skarg', n % 2)} with Broadsword\n1 AP defend"
        work.append((game_id, player, f"m{n}", body))
    text.read_time = 0.0
    start = time.perf_counter()
    for game_id, player, key, body in work:
        reply = await services.turns.post(
            game_id, player, channel_key="chan", message_key=key, text=body
        )
        assert reply.ok, reply.reply
    elapsed = time.perf_counter() - start
    return {"posts": posts, "us": elapsed / posts * 1e6, "parse_us": text.read_time / posts * 1e6}


async def bench_resolve(size: int, repeat: int) -> dict[str, Any]:
    timed = TimedResolver()
    rules_time = timed.times
    factory = CountingUowFactory()
    services = Services(factory, ids=Ids(f"r{size}-"), resolve=timed)
    games = [await turn_ready(services, size, f"s{size}-{r}") for r in range(repeat)]
    factory.recording = True
    totals = await close_and_resolve(services, games)
    factory.recording = False
    median = statistics.median(totals)
    return {
        "size": size,
        "ms": median * 1000,
        "min_ms": min(totals) * 1000,
        "rules_ms": statistics.median(rules_time) * 1000,
        "calls": sum(factory.calls.values()) / repeat,
        "by_call": {k: v / repeat for k, v in sorted(factory.calls.items())},
    }


def _instrument(on: bool) -> None:
    """Turn callgrind's instrumentation of this process on or off, and wait until it is."""
    import os
    import subprocess

    command = ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())]
    done = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    while done.poll() is None:  # valgrind reads the request while this process runs
        time.sleep(0.005)


async def count_one(size: int, out: Callable[[str], None]) -> None:
    """One close+resolve of `size` combatants with callgrind counting (after one to warm up),
    the salts seeded so that two runs do the same work."""
    import random

    seeded = random.Random(1)
    services = Services(FakeUowFactory(), ids=Ids(f"c{size}-"),
                        salts=lambda: f"{seeded.getrandbits(128):032x}")
    games = [await turn_ready(services, size, f"c{size}-{r}") for r in range(2)]
    await close_and_resolve(services, games[:1])
    # the heap as the bot holds it once ready (`gc.freeze`, docs/benchmarks.md): a full
    # collection falling in the counted window would count the set-up's objects too
    import gc

    gc.collect()
    gc.freeze()
    _instrument(True)
    totals = await close_and_resolve(services, games[1:])
    _instrument(False)
    out(f"fake     counted  {size:4d} combatants: close+resolve {totals[0] * 1000:.1f} ms "
        "under callgrind (its count: 'Collected' above)")


async def run(posts: int, sizes: Sequence[int], repeat: int, show_calls: bool,
              out: Callable[[str], None]) -> None:
    post = await bench_post(posts)
    out(f"fake     post     {post['posts']:6.0f} posts: {post['us']:7.0f} us per post "
        f"(parse {post['parse_us']:.0f} us, service {post['us'] - post['parse_us']:.0f} us)")
    for size in sizes:
        figures = await bench_resolve(size, repeat)
        out(f"fake     resolve  {size:4d} combatants: close+resolve {figures['ms']:7.1f} ms "
            f"(min {figures['min_ms']:.1f}; rules core {figures['rules_ms']:.1f}; service "
            f"{figures['ms'] - figures['rules_ms']:.1f}) | {figures['calls']:.0f} "
            "repository calls")
        if show_calls:
            out("         " + ", ".join(f"{k} {v:g}" for k, v in figures["by_call"].items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--sizes", default="6,60,600")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", action="store_true", help="list the calls by method")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    parser.add_argument("--callgrind", type=int, metavar="SIZE",
                        help="one close+resolve of SIZE combatants, counted under callgrind")
    args = parser.parse_args(argv)
    if args.callgrind:
        asyncio.run(count_one(args.callgrind, print))
        return 0
    if args.smoke:
        args.posts, args.sizes, args.repeat = 20, "6", 1
    sizes = [int(s) for s in args.sizes.split(",") if s]
    asyncio.run(run(args.posts, sizes, args.repeat, args.calls, print))
    return 0


if __name__ == "__main__":
    sys.exit(main())
