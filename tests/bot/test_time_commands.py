"""Times and durations on Discord, through the fake: the game's time zone (`/game set
name:timezone`), `/turn calltime at:` a local time of it or `in:` a duration, `/turn extend
by:`, `/gm advance by:`, each read by the project's one parser; every time the bot shows is a
Discord timestamp (each reader sees it in their own zone)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import run_command, set_up_game, text_of
from tests.bot.test_game import ManualClock
from tests.bot.test_settings import setting

pytestmark = pytest.mark.e2e


def option(name: str, value: str) -> list[dict]:
    return [{"type": 3, "name": name, "value": value}]


def stamp_of(at: datetime) -> str:
    seconds = int(at.timestamp())
    return f"<t:{seconds}:F> (<t:{seconds}:R>)"


async def test_calltime_at_a_local_time_of_the_games_zone(fake, tmp_path) -> None:
    clock = ManualClock()  # Tuesday 2026-12-01 12:00 UTC
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    await running.start()
    try:
        await set_up_game(fake)
        [bad] = await run_command(fake, fake.gm, "game set", setting("timezone", "Europe/Berln"))
        assert "Did you mean Europe/Berlin" in text_of([bad])
        assert text_of(await run_command(fake, fake.gm, "game set",
                                         setting("timezone", "europe/berlin"))
                       ) == "`timezone` is now Europe/Berlin."
        shown = text_of(await run_command(fake, fake.alice, "game settings"))
        assert "`timezone` = Europe/Berlin" in shown and "`grace` = 0" in shown
        answer = text_of(await run_command(fake, fake.gm, "turn calltime",
                                           option("at", "Fri 20:00")))
        friday = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)  # 20:00 in Berlin (CET)
        assert answer == f"Turn 1: time will be called {stamp_of(friday)}."
        game = await running.services.games.find(fake.room["id"])
        assert (await running.services.turns.status(game.id)).turn.deadline == friday
        status = text_of(await run_command(fake, fake.alice, "turn status"))
        assert stamp_of(friday) in status
    finally:
        await running.stop()


async def test_calltime_in_extend_by_and_advance_by_take_durations(fake, tmp_path) -> None:
    clock = ManualClock()
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    await running.start()
    try:
        await set_up_game(fake)
        answer = text_of(await run_command(fake, fake.gm, "turn calltime",
                                           option("in", "2d 6h")))
        deadline = clock.at + timedelta(days=2, hours=6)
        assert answer == f"Turn 1: time will be called {stamp_of(deadline)}."
        answer = text_of(await run_command(fake, fake.gm, "turn extend", option("by", "90")))
        assert answer == f"Turn 1: time will be called {stamp_of(deadline + timedelta(minutes=90))}."
        [bad] = await run_command(fake, fake.gm, "turn extend", option("by", "a while"))
        assert bad["callback"]["data"]["flags"] & 64
        assert text_of([bad]) == ('"a while" is no duration: write a number and a unit (s, m, h, '
                                  "d or w), e.g. 48h, 2d 6h, 90m or 1w (a bare number is "
                                  "minutes).")
        [bad_time] = await run_command(fake, fake.gm, "turn calltime",
                                       option("at", "someday"))
        assert "is no time: write a day and a time in the game's time zone (UTC)" in text_of(
            [bad_time])
    finally:
        await running.stop()


async def test_gm_advance_by_a_duration(running, fake) -> None:
    await set_up_game(fake)
    answer = text_of(await run_command(fake, fake.gm, "gm advance", option("by", "1h30m")))
    assert answer == "Done: 1h30m pass; the room is told who healed (nobody)."
    [bad] = await run_command(fake, fake.gm, "gm advance", option("by", "-5"))
    assert "is no duration" in text_of([bad])


async def test_grace_moves_a_deadline_once_and_the_room_is_told_across_a_restart(
        fake, tmp_path) -> None:
    clock = ManualClock()
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    room = fake.room["id"]
    await running.start()
    try:
        await set_up_game(fake)
        for name, value in (("grace", "1"), ("grace_period", "12h"), ("reminders", "none")):
            text_of(await run_command(fake, fake.gm, "game set", setting(name, value)))
        text_of(await run_command(fake, fake.gm, "turn calltime", option("in", "10m")))
        game = await running.services.games.find(room)
        await running.services.turns.seal(game.id, fake.gm["id"])
        deadline = clock.at + timedelta(minutes=10, hours=12)
        clock.at += timedelta(minutes=11)
        [told] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                              if m["content"].startswith("Grace:")])
        assert told["content"] == (
            f"Grace: turn 1's deadline moves by 12h, to {stamp_of(deadline)}, because Kael had "
            "not posted yet (one grace extension used for each player). Post (or pass) before "
            "then.")
        assert told["allowed_mentions"] == {"parse": []}
        assert (await running.services.turns.status(game.id)).turn.status.value == "open"
    finally:
        await running.stop()
    await running.start()  # the moved deadline and the spent grace are in the database
    try:
        clock.at = deadline + timedelta(seconds=1)
        await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                        for m in fake.bot_messages(room)), timeout=15)
        assert sum(m["content"].startswith("Grace:") for m in fake.bot_messages(room)) == 1
    finally:
        await running.stop()


async def test_grace_reminds_the_late_their_own_way_and_the_board_says_the_deadline_moved(
        fake, tmp_path) -> None:
    clock = ManualClock()
    running = RunningBot(fake, tmp_path / "data", clock=clock, turn_board=True)
    room = fake.room["id"]
    await running.start()
    try:
        await set_up_game(fake)
        for name, value in (("grace", "1"), ("grace_period", "12h"), ("reminders", "none")):
            text_of(await run_command(fake, fake.gm, "game set", setting(name, value)))
        text_of(await run_command(fake, fake.alice, "me remind", option("how", "dm")))
        text_of(await run_command(fake, fake.gm, "turn calltime", option("in", "10m")))
        game = await running.services.games.find(room)
        await running.services.turns.seal(game.id, fake.gm["id"])
        deadline = clock.at + timedelta(minutes=10, hours=12)
        clock.at += timedelta(minutes=11)
        dms = fake.dm_channel(fake.alice)["id"]
        [dm] = await fake.wait_for(lambda: [m for m in fake.bot_messages(dms)
                                            if "Reminder: turn 1" in m["content"]])
        assert dm["content"].endswith(f"Reminder: turn 1 closes at {stamp_of(deadline)}, and "
                                      "Kael has no orders yet.")

        def board() -> str:
            found = [m["content"] for m in fake.bot_messages(room)
                     if m["content"].startswith("**Goblin Road: turn 1**")]
            return found[0] if found else ""

        await fake.wait_for(lambda: "moved by" in board())
        assert (f"Deadline: {stamp_of(deadline)}, moved by 12h (grace for Kael, who had not "
                "posted).") in board()
        # the room has the grace notice; no room reminder repeats it (nobody chose a ping)
        assert not [m for m in fake.bot_messages(room) if m["content"].startswith("Reminder")]
    finally:
        await running.stop()
