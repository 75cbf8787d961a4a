"""The fake Discord's pacing (`Pace`, Discord's global 50 requests a second), which the
benchmarks put in front of the bot: checked on a clock of the test's, with no real waiting."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.fake_discord import Pace

pytestmark = pytest.mark.unit


class Clock:
    def __init__(self) -> None:
        self.at = 1000.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.at

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


async def test_a_burst_passes_then_each_request_waits_its_turn() -> None:
    clock = Clock()
    pace = Pace(50, 50, clock=clock.now, sleep=clock.sleep)
    for _ in range(50):
        await pace.take()
    assert clock.slept == []
    await asyncio.gather(*(pace.take() for _ in range(3)))  # at the same moment
    assert clock.slept == pytest.approx([0.02, 0.04, 0.06])
    clock.at += 1.0  # a second later: 50 tokens back, 3 of them owed
    for _ in range(47):
        await pace.take()
    assert len(clock.slept) == 3
    await pace.take()
    assert clock.slept[-1] == pytest.approx(0.02)
    assert pace.waited == pytest.approx(0.14)
