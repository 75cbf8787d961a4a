"""Outages cost nobody a turn (`discord/outage.py`), through the fake Discord across a restart,
with one clock the fake and the bot share: the bot keeps a heartbeat; on start the gap since
the last one is the outage; a deadline that fell in it moves by its length (the game's
`outage_extends`, on by default) and the room is told; posts made meanwhile count at the time
Discord stamped them; a deadline that keeps its time is called only after the catch-up."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.discord.outage import HEARTBEAT_KEY
from fappo_bot.discord.timestamps import stamp
from tests.bot.table import KAEL_ORDERS, run_command, text_of
from tests.bot.test_catchup import a_deadline_in_ten_minutes, caught_up
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


async def test_a_deadline_that_fell_in_an_outage_moves_by_its_length(fake, tmp_path) -> None:
    running, clock, room = await a_deadline_in_ten_minutes(fake, tmp_path, bob=True,
                                                           outage_extends="on")
    stopped = clock.at
    clock.at += timedelta(minutes=9)
    on_time = await fake.post(room, fake.alice, KAEL_ORDERS, live=False)
    clock.at += timedelta(minutes=2)  # past the deadline: the bot is still down
    in_the_outage = await fake.post(room, fake.bob, "3 AP defend", live=False)
    clock.at += timedelta(minutes=49)  # an hour down in all

    await running.start()
    try:
        await caught_up(running)
        game = (await running.services.games.find(room)).id
        status = await running.services.turns.status(game)
        deadline = stopped + timedelta(minutes=10) + timedelta(hours=1)
        assert status.turn.status.value == "open" and status.turn.deadline == deadline
        [moved] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                               if m["content"].startswith("The bot was down")])
        assert moved["content"] == (
            f"The bot was down for 1h when turn 1's deadline came, so the deadline moves by as "
            f"much, to {stamp(deadline)}: the outage costs nobody their turn.")
        # both posts of the outage count: the deadline they are measured by moved first
        assert "3/3 AP" in (await fake.wait_for(lambda: replies_to(fake, on_time)))[0]["content"]
        [bobs] = await fake.wait_for(lambda: replies_to(fake, in_the_outage))
        assert "after turn 1's deadline" not in bobs["content"]
        assert set((await running.services.turns.status(game)).posted) == {"Kael", "Mira"}
        assert not any(m["content"].startswith("Time is called")
                       for m in fake.bot_messages(room))
        # the board's text (what `/turn status` shows) says why the deadline moved
        board = text_of(await run_command(fake, fake.gm, "turn status")).split("\n")
        assert board[1] == (f"Deadline: {stamp(deadline)}, moved by 1h (the bot was down when "
                            f"it came).")
    finally:
        await running.stop()


async def test_a_quick_restart_is_no_outage(fake, tmp_path) -> None:
    running, clock, room = await a_deadline_in_ten_minutes(fake, tmp_path, outage_extends="on")
    clock.at += timedelta(seconds=30)
    await running.start()
    try:
        await caught_up(running)
        game = (await running.services.games.find(room)).id
        assert not any(m["content"].startswith("The bot was down")
                       for m in fake.bot_messages(room))
        status = await running.services.turns.status(game)
        assert status.turn.deadline is not None
        clock.at += timedelta(minutes=10)  # the deadline comes while the bot runs
        await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                        for m in fake.bot_messages(room)), timeout=15)
    finally:
        await running.stop()


async def test_the_heartbeat_is_kept_by_the_bots_clock(fake, tmp_path) -> None:
    running, clock, room = await a_deadline_in_ten_minutes(fake, tmp_path)
    await running.start()
    try:
        await caught_up(running)
        kept = running.bot.outages.store
        await fake.wait_for(lambda: running.bot.outages._last == clock.at)
        assert await kept.get(HEARTBEAT_KEY) == clock.at.isoformat()
        clock.at += timedelta(seconds=31)
        await fake.wait_for(lambda: running.bot.outages._last == clock.at, timeout=10)
        assert await kept.get(HEARTBEAT_KEY) == clock.at.isoformat()
    finally:
        await running.stop()
