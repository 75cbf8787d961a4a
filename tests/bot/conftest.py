"""Fixtures for the bot's tests: the fake Discord, and the real bot (discord.py client, service,
SQLite in `tmp_path`) connected to it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.bot.fake_discord import TOKEN, FakeDiscord

pytestmark = pytest.mark.e2e


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    discord_ = FakeDiscord()
    discord_.gm = discord_.add_user("gwen")  # type: ignore[attr-defined]
    discord_.alice = discord_.add_user("alice")  # type: ignore[attr-defined]
    discord_.bob = discord_.add_user("bob")  # type: ignore[attr-defined]
    discord_.room = discord_.add_channel("goblin-road")  # type: ignore[attr-defined]
    await discord_.start()
    try:
        yield discord_
    finally:
        await discord_.stop()
    # the bot stayed within Discord's limits and pinged nobody by accident (fake_discord.py)
    if not discord_.expect_rejections:
        assert [(r.method, r.path, answer) for r, answer in discord_.rejected] == []
    assert [(r.method, r.path, problem) for r, problem in discord_.mention_problems] == []
    # every interaction got an answer within Discord's 3 s: none "failed"
    if not discord_.expect_unanswered:
        assert [i["data"] for i in discord_.unanswered()] == []


def bot_settings(fake: FakeDiscord, data_dir: Path, **discord_extra: Any) -> Any:
    """The bot's settings against the fake. The turn board is off unless asked for
    (`turn_board=True`): the tests that count the room's messages count them without it, and
    `test_board.py` and `test_pace.py` play with it; a board is brought up to date at every
    change (its period 0: `test_board.py` tests the period on its own clock)."""
    from fappo_bot.settings import DiscordSettings, Settings, TurnSettings

    discord_extra.setdefault("turn_board", False)
    discord_extra.setdefault("turn_board_period_seconds", 0.0)
    return Settings(
        data_dir=data_dir,
        discord=DiscordSettings(token=TOKEN, api_base=fake.api_base,
                                gateway_url=fake.gateway_url, **discord_extra),
        turns=TurnSettings(scheduler_interval_seconds=0.05),
    )


class RunningBot:
    """The real bot against the fake, started and stopped at will (a restart keeps the
    database)."""

    def __init__(self, fake: FakeDiscord, data_dir: Path, clock: Any = None,
                 later: Any = None, *, turn_board: bool = False) -> None:
        self.fake = fake
        self.settings = bot_settings(fake, data_dir, turn_board=turn_board)
        self.clock = clock
        self.later = later
        self.bot: Any = None
        self._task: asyncio.Task[None] | None = None
        self._storage: Any = None

    async def start(self) -> Any:
        from fappo_bot.discord.bot import FappoBot
        from fappo_bot.discord.startup import delivery_policy
        from fappo_bot.service.facade import Services
        from fappo_bot.storage.opening import open_storage

        self._storage = open_storage(self.settings)
        storage = await self._storage.__aenter__()
        self.services = Services(storage.uow_factory, clock=self.clock,
                                 delivery=delivery_policy(self.settings))
        self.bot = FappoBot(self.services, self.settings, clock=self.clock, later=self.later,
                            kept=storage.kept)
        await self.bot.__aenter__()
        self._task = asyncio.create_task(self.bot.start(TOKEN))
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._task}, timeout=15,
                                     return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            self._task.result()
        assert ready in done, "the bot did not become ready"
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
            await self.bot.__aexit__(None, None, None)
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
        if self._storage is not None:
            await self._storage.__aexit__(None, None, None)
        self.bot = self._task = self._storage = None


@pytest.fixture
async def running(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[RunningBot]:
    bot = RunningBot(fake, tmp_path / "data")
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


@pytest.fixture
async def with_board(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[RunningBot]:
    """The bot running with its turn board on (as it is by default outside the tests)."""
    bot = RunningBot(fake, tmp_path / "data", turn_board=True)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()
