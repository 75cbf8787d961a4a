"""The bot under load, through the local fake Discord and the real discord.py client (issue 11).

Holds Discord's rate for one bot, 50 posts a second across 20 rooms, for 60 seconds on SQLite,
and reports the post -> reply latency (from the MESSAGE_CREATE sent on the gateway to the reply's
POST arriving at the fake; p50, p99, max), the CPU per post (this process: the bot, its database
and the fake together), and the time from the GM's "Resolve the turn" click to the last result
message of a 60-combatant turn (the results go out before the next turn's announcement).

    .venv/bin/python benchmarks/bench_bot.py [--rate 50] [--seconds 60] [--rooms 20]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_storage import GM, machine_speed, turn_ready
from fappo_bot.service.records import Role
from tests.bot.conftest import RunningBot
from tests.bot.fake_discord import FakeDiscord
from tests.bot.table import components, use_component

ORDERS = ("Kael presses on.\n2 AP attack Skarg with Broadsword\n1 AP defend",
          "3 AP defend",
          "1 AP attack Skarg with Broadsword\n2 AP defend")


class TimedFake(FakeDiscord):
    """The fake, noting when each message of the bot arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: dict[str, float] = {}
        self.replied: dict[str, float] = {}

    def _create_message(self, channel_id: str, body: dict[str, Any]) -> Any:
        now = time.perf_counter()
        response = super()._create_message(channel_id, body)
        reference = (body.get("message_reference") or {}).get("message_id")
        if reference is not None:
            self.replied.setdefault(str(reference), now)
        self.arrived[f"{channel_id}:{len(self.arrived)}"] = now
        return response


async def set_up_rooms(running: RunningBot, fake: TimedFake, rooms: int, players: int
                       ) -> list[tuple[str, list[dict[str, Any]]]]:
    """A game per room, `players` players with a Kael each and a Skarg; turn 1 open."""
    from benchmarks.bench_storage import ENEMY_SHEET, PC_SHEET, new_character

    services = running.services
    gm = fake.gm["id"]  # type: ignore[attr-defined]
    made = []
    for r in range(rooms):
        room = fake.add_channel(f"room-{r}")
        game = await services.games.create(channel_key=room["id"], name=f"Room {r}", creator=gm)
        users = []
        for p in range(players):
            user = fake.add_user(f"player-{r}-{p}")
            await services.games.add_member(game.id, gm, user["id"], Role.PLAYER)
            name = "Kael" if p == 0 else f"Kael {chr(65 + p)}"
            check = await services.characters.create(game.id, user["id"],
                                                     new_character(PC_SHEET, name))
            assert check.ok, check
            users.append(user)
        assert (await services.characters.add_enemy(
            game.id, gm, new_character(ENEMY_SHEET, "Skarg"))).ok
        await services.turns.open(game.id, gm)
        made.append((room["id"], users))
    return made


async def load(fake: TimedFake, rooms: Sequence[tuple[str, list[dict[str, Any]]]],
               rate: float, seconds: float) -> tuple[list[float], int, float]:
    """Post at `rate` a second for `seconds`; the latencies (ms), the posts, the CPU seconds."""
    total = int(rate * seconds)
    sent: dict[str, float] = {}
    cpu0 = time.process_time()
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
    await fake.wait_for(lambda: all(m in fake.replied for m in sent), timeout=120)
    cpu = time.process_time() - cpu0
    latencies = [(fake.replied[m] - t) * 1000 for m, t in sent.items()]
    return latencies, total, cpu


async def resolve_60(running: RunningBot, fake: TimedFake) -> float:
    """Seconds from the GM's click on "Resolve the turn" to the last result message."""
    arena = fake.add_channel("arena")
    fake.room = arena  # type: ignore[attr-defined]  (where use_component clicks)
    await running.bot.rooms.game_id(arena["id"])  # not a game yet: remembered as none
    running.bot.rooms.forget(arena["id"])
    game_id = await turn_ready(running.services, 60, arena["id"])
    await running.services.games.add_member(game_id, GM, fake.gm["id"], Role.GM)  # type: ignore[attr-defined]
    interaction = await fake.command(fake.gm, arena["id"], "gm resolve")  # type: ignore[attr-defined]
    [panel] = await fake.answered(interaction)
    message = panel["message"]
    button = next(c for c in components(message) if c.get("label") == "Resolve the turn")
    before = len(fake.arrived)
    clicked = time.perf_counter()
    await use_component(fake, fake.gm, message, button)  # type: ignore[attr-defined]
    await fake.wait_for(lambda: any(m["content"].startswith("Turn 2 is open")
                                    for m in fake.bot_messages(arena["id"])), timeout=60)
    arrivals = [t for key, t in list(fake.arrived.items())[before:]
                if key.startswith(arena["id"])]
    # the last result message is the one before the next turn's announcement
    return (arrivals[-2] - clicked) if len(arrivals) >= 2 else float("nan")


async def run(rate: float, seconds: float, rooms: int, players: int) -> None:
    logging.basicConfig(level=logging.ERROR)
    fake = TimedFake()
    fake.gm = fake.add_user("gwen")  # type: ignore[attr-defined]
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        running = RunningBot(fake, Path(tmp) / "data")
        await running.start()
        try:
            made = await set_up_rooms(running, fake, rooms, players)
            latencies, posts, cpu = await load(fake, made, rate, seconds)
            latencies.sort()
            p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
            print(machine_speed())
            print(f"{posts} posts at {rate:g}/s across {rooms} rooms for {seconds:g} s (SQLite): "
                  f"post -> reply p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms, "
                  f"max {latencies[-1]:.1f} ms; CPU {cpu / posts * 1000:.2f} ms a post "
                  f"({cpu / seconds * 100:.0f}% of one core; bot, database and fake together)")
            took = await resolve_60(running, fake)
            print(f"60-combatant turn: 'Resolve the turn' -> last result message "
                  f"{took * 1000:.0f} ms")
        finally:
            await running.stop()
            await fake.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args(argv)
    asyncio.run(run(args.rate, args.seconds, args.rooms, args.players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
