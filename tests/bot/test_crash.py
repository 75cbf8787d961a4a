"""`kill -9` of the bot during delivery: Discord stored a result message but the bot died before
it heard so (and before it marked the message sent). On restart the outbox delivers it again
with the same nonce, which Discord drops: every message is delivered exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.bot.fake_discord import TOKEN
from tests.bot.table import call_time, set_up_game

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


async def start_bot(fake, data_dir: Path) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAPPO_")}
    env.update(FAPPO_DISCORD__TOKEN=TOKEN, FAPPO_DISCORD__API_BASE=fake.api_base,
               FAPPO_DISCORD__GATEWAY_URL=fake.gateway_url, FAPPO_DATA_DIR=str(data_dir),
               FAPPO_LOG_LEVEL="WARNING")
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fappo_bot.cli", "run", env=env, cwd=data_dir.parent,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


async def test_kill_9_during_delivery_then_restart(fake, tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    room = fake.room["id"]
    bot = await start_bot(fake, data)
    try:
        await fake.wait_for(lambda: fake.identified, timeout=60)
        await set_up_game(fake)
        fake.holds.append(("POST", f"/channels/{room}/messages", "Time is called"))
        await call_time(fake)
        [held] = await fake.wait_for(lambda: fake.held, timeout=30)
        bot.send_signal(signal.SIGKILL)
        assert await bot.wait() == -signal.SIGKILL
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    fake.holds.clear()
    fake.release.set()

    identified = fake.identified
    bot = await start_bot(fake, data)
    try:
        await fake.wait_for(lambda: fake.identified > identified, timeout=60)
        nonce = held.body["nonce"]
        await fake.wait_for(lambda: len([r for r in fake.sent("POST", f"/channels/{room}/")
                                         if (r.body or {}).get("nonce") == nonce]) >= 2,
                            timeout=60)
        called = [m for m in fake.bot_messages(room) if m["content"].startswith("Time is called")]
        assert len(called) == 1
    finally:
        bot.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(bot.wait(), 30)
        except TimeoutError:
            bot.kill()
            await bot.wait()
