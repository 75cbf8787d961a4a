"""The campaign page's speed: a game of 200 turns (`--turns`) and 6 characters (four players'
and two lieutenants, each posting prose and its orders every turn, the NPC orders sealed every
turn, so each turn has a commitment, a reveal and results), played through the real service on
SQLite; then the pages asked of the application itself (`web/app.py`, through ASGI, rendering
included), as a browser would through uvicorn, for the game's link.

Figures: p50 / p99 of the party page and of a turn page (random turns, `--requests` each), and
of the whole-campaign story page (`--story` requests), each made afresh (no resolved turn kept);
then the story page again with the resolved turns kept (`PageService`'s own keeping), after its
first. Goals: p99 under 50 ms for a turn page and the party page, the story page under 300 ms.

Run:
    .venv/bin/python benchmarks/bench_web.py                 # 200 turns
    .venv/bin/python benchmarks/bench_web.py --smoke         # 5 turns: does it run?
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_storage import ENEMY_SHEET, GM, PC_SHEET, machine_speed, new_character

from fappo_bot.service import Services
from fappo_bot.service.records import Role
from fappo_bot.service.web_links import LinkService
from fappo_bot.service.web_pages import PageService
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.migrate import upgrade_engine
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
from fappo_bot.storage.web_links import SqlWebLinks
from fappo_bot.web.app import create_app

PCS = ("Kael", "Mira", "Bran", "Tessa")
NPCS = ("Skarg", "Grub")
PROSE = ("{name} keeps low behind the broken cart, watching the tunnel mouth, and talks the "
         "others through what comes next in a hushed voice.")


async def seed(services: Services, turns: int) -> str:
    game = await services.games.create(channel_key="web-room", name="A long campaign",
                                       creator=GM)
    for index, name in enumerate(PCS):
        player = f"player-{index}"
        await services.games.add_member(game.id, GM, player, Role.PLAYER)
        await services.users.set_display_name(player, f"Player {index}")
        reply = await services.characters.create(game.id, player, new_character(PC_SHEET, name))
        assert reply.ok, reply
    for name in NPCS:
        reply = await services.characters.add_enemy(game.id, GM, new_character(ENEMY_SHEET, name))
        assert reply.ok, reply
    await services.turns.open(game.id, GM)
    for number in range(1, turns + 1):
        npcs = "\n".join(f"**{n}**\n1 AP defend" for n in NPCS)
        await services.turns.npc_orders(game.id, GM, channel_key="gm-dm",
                                        message_key=f"npc-{number}", text=npcs)
        for index, name in enumerate(PCS):
            reply = await services.turns.post(
                game.id, f"player-{index}", channel_key="web-room",
                message_key=f"{number}-{index}", text=f"{PROSE.format(name=name)}\n1 AP defend")
            assert reply.ok, reply.reply
        closed = await services.calltime.close(game.id, GM)
        await services.resolution.resolve(game.id, GM, closed.number)
    return game.id


async def get(app: Any, path: str) -> tuple[int, bytes]:
    """One GET through the application's ASGI interface: the status and the whole body."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"bench")], "client": ("127.0.0.1", 1),
             "server": ("bench", 80), "root_path": ""}
    status, body = 0, bytearray()

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))

    await app(scope, receive, send)
    return status, bytes(body)


async def timed_pages(app: Any, paths: list[str]) -> list[float]:
    times = []
    for path in paths:
        start = time.perf_counter()
        status, _ = await get(app, path)
        times.append(time.perf_counter() - start)
        assert status == 200, (path, status)
    return times


def line(what: str, times: list[float], goal_ms: float) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    p50 = statistics.median(ordered)
    met = "met" if p99 * 1000 < goal_ms else "MISSED"
    return (f"{what:24} p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max "
            f"{ordered[-1] * 1000:.1f} ms ({len(times)} requests; goal p99 < {goal_ms:.0f} ms: "
            f"{met})")


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder, 'web.sqlite3').as_posix()}"
        engine = create_engine_for_url(url)
        try:
            await upgrade_engine(engine)
            services = Services(SqlUnitOfWorkFactory(engine))
            started = time.perf_counter()
            game_id = await seed(services, args.turns)
            print(f"seeded {args.turns} turns of {len(PCS) + len(NPCS)} characters in "
                  f"{time.perf_counter() - started:.1f} s ({machine_speed()})")
            links = LinkService(services.deps, SqlWebLinks(engine))
            _, token = await links.link(game_id, GM)
            cold = PageService(services.deps)
            cold.KEPT = 0  # every page made afresh: what the first reader of a turn waits
            app = create_app(links, cold)
            kept = create_app(links, PageService(services.deps))
            gc.collect()  # as the bot does once ready (`startup.tune_collector`)
            gc.freeze()
            rng = random.Random(7)
            base = f"/c/{token}/"
            await timed_pages(app, [base, f"{base}turn/1", f"{base}story"])  # warm
            party = await timed_pages(app, [base] * args.requests)
            turn = await timed_pages(app, [f"{base}turn/{rng.randint(1, args.turns)}"
                                           for _ in range(args.requests)])
            story = await timed_pages(app, [f"{base}story"] * args.story)
            first = await timed_pages(kept, [f"{base}story"])
            again = await timed_pages(kept, [f"{base}story"] * args.story)
            _, page = await get(app, f"{base}story")
            print(line("party page", party, 50))
            print(line(f"turn page ({args.turns} turns)", turn, 50))
            print(line(f"story page ({args.turns} turns)", story, 300))
            print(line(f"story page, turns kept ({args.turns})", again, 300)
                  + f"; its first {first[0] * 1000:.1f} ms")
            print(f"story page size {len(page) / 1024:.0f} KB; load average "
                  f"{os.getloadavg()[0]:.1f}")
        finally:
            await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--story", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="5 turns, a few requests")
    args = parser.parse_args()
    if args.smoke:
        args.turns, args.requests, args.story = 5, 10, 2
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
