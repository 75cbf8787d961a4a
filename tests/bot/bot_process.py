"""The bot in a process of its own, for the benchmarks: started as `RunningBot.start`
(`conftest.py`) starts it, the real discord.py client against the fake Discord, without the test
harness (no pytest imported: the process imports what `fappo-bot run` imports).

    python -m tests.bot.bot_process '{"api_base": ..., "gateway_url": ..., "token": ...,
                                      "database": URL, "data_dir": DIR, "profile": FILE or ""}'

It reports on stdout, one JSON line each (times of `time.monotonic()`, the same clock as the
parent's; memory from /proc/self/status in MB): when it is ready, then when its first catch-up
round is done; it stops when a line comes on stdin."""

from __future__ import annotations

import time

STARTED = time.monotonic()

import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402


def memory() -> dict[str, float]:
    """This process's resident set now (VmRSS) and its peak (VmHWM), in MB."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) / 1024
    return found


async def serve(config: dict[str, Any]) -> None:
    profiler = None
    if config.get("profile"):
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    from fappo_bot.discord.bot import FappoBot
    from fappo_bot.discord.startup import delivery_policy
    from fappo_bot.service.facade import Services
    from fappo_bot.settings import DatabaseSettings, DiscordSettings, Settings
    from fappo_bot.storage.opening import open_storage

    settings = Settings(data_dir=Path(config["data_dir"]),
                        database=DatabaseSettings(url=config["database"]),
                        discord=DiscordSettings(token=config["token"],
                                                api_base=config["api_base"],
                                                gateway_url=config["gateway_url"]))
    began = time.monotonic()
    async with open_storage(settings) as storage:
        services = Services(storage.uow_factory, delivery=delivery_policy(settings))
        async with FappoBot(services, settings) as bot:
            task = asyncio.create_task(bot.start(config["token"]))
            await bot.wait_until_ready()
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(config["profile"])
            print(json.dumps({"started": STARTED, "began": began, "ready": time.monotonic(),
                              **memory()}), flush=True)
            catch_up = bot.get_cog("TurnPosts").catch_up  # type: ignore[union-attr]
            while catch_up.rounds < 1:
                catch_up.finished.clear()
                await catch_up.finished.wait()
            print(json.dumps({"caught_up": time.monotonic(), **memory()}), flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            await bot.close()
            await task


if __name__ == "__main__":
    asyncio.run(serve(json.loads(sys.argv[1])))
