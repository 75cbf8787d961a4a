"""The players' pace on Discord: reminders by DM (naming the game, linking the room) or by a
ping in the room, each replacing the last (the old message deleted); a player whose DMs are
closed (50007) pinged in the room instead, the GMs not told; `/me away` shown in `/turn status`;
the daily digest. On a clock the fake and the bot share, moved by the test."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import add_sheet, run_command, set_up_game, text_of
from tests.bot.test_catchup import SharedClock

pytestmark = pytest.mark.e2e

DAY = 24 * 60


def option(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def a_game_with_a_deadline(fake, tmp_path) -> tuple[RunningBot, SharedClock, str]:
    """Goblin Road (alice plays Kael, bob Mira), its NPC orders sealed, turn 1 due in 24 hours
    of a clock the fake and the bot share; the bot running."""
    clock = SharedClock()
    fake.clock = clock.now
    running = RunningBot(fake, tmp_path / "data", clock=clock, turn_board=True)
    await running.start()
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "mira.yaml", fake.bob)
    text_of(await run_command(fake, fake.gm, "turn calltime", [option("in", str(DAY), 3)]))
    game = (await running.services.games.find(fake.room["id"])).id
    await running.services.turns.seal(game, fake.gm["id"])
    return running, clock, game


def dms_to(fake, user) -> list[dict[str, Any]]:
    return fake.bot_messages(fake.dm_channel(user)["id"])


def pinged(message: dict[str, Any]) -> list[str]:
    """The users a message's allowed mentions let it ping."""
    allowed = message["allowed_mentions"] or {}
    return [str(u) for u in allowed.get("users", [])]


def reminders_in(fake, room: str) -> list[dict[str, Any]]:
    return [m for m in fake.bot_messages(room) if m["content"].startswith("Reminder")]


async def test_reminders_reach_each_player_their_way_and_replace_the_last(fake, tmp_path
                                                                          ) -> None:
    running, clock, game = await a_game_with_a_deadline(fake, tmp_path)
    room, alice, bob = fake.room["id"], fake.alice, fake.bob
    try:
        said = text_of(await run_command(fake, alice, "me remind", [option("how", "dm")]))
        assert said == "You will be reminded by direct message in all your games."
        deadline = int((clock.at + timedelta(minutes=DAY)).timestamp())
        clock.at += timedelta(hours=12)
        [dm] = await fake.wait_for(lambda: dms_to(fake, alice))
        assert dm["content"] == (
            f'From "Goblin Road" (https://discord.com/channels/{fake.guild_id}/{room}):\n'
            f"Reminder: turn 1 closes at <t:{deadline}:F> (<t:{deadline}:R>), and Kael has no "
            "orders yet.")
        [ping] = await fake.wait_for(lambda: reminders_in(fake, room))
        assert ping["content"] == (f"Reminder: turn 1 closes at <t:{deadline}:F> "
                                   f"(<t:{deadline}:R>). Still to post: Kael, Mira.\n"
                                   f"<@{bob['id']}>")
        assert pinged(ping) == [bob["id"]]  # only bob: alice chose a DM

        await running.services.turns.pass_turn(game, bob["id"])
        clock.at += timedelta(hours=11)  # the 1-hour reminder replaces the 12-hour one
        await fake.wait_for(lambda: dms_to(fake, alice) and dms_to(fake, alice)[0] != dm)
        await fake.wait_for(lambda: reminders_in(fake, room)
                            and reminders_in(fake, room)[0]["id"] != ping["id"])
        [second] = reminders_in(fake, room)
        assert "Still to post: Kael." in second["content"]
        assert pinged(second) == []  # bob passed: nobody to ping
        assert len(dms_to(fake, alice)) == 1
        deleted = {r.path for r in fake.sent("DELETE", "/messages")}
        assert f"/channels/{room}/messages/{ping['id']}" in deleted
    finally:
        await running.stop()


async def test_a_player_whose_dms_are_closed_is_pinged_in_the_room(fake, tmp_path) -> None:
    running, clock, _ = await a_game_with_a_deadline(fake, tmp_path)
    room, alice = fake.room["id"], fake.alice
    try:
        text_of(await run_command(fake, alice, "me remind", [option("how", "dm")]))
        text_of(await run_command(fake, fake.bob, "me remind", [option("how", "none")]))
        fake.closed_dms.add(alice["id"])
        fake.expect_rejections = True  # the refused DM
        clock.at += timedelta(hours=12)
        await fake.wait_for(lambda: len(reminders_in(fake, room)) == 2)
        room_reminder, fallback = reminders_in(fake, room)
        assert pinged(room_reminder) == []  # bob chose none
        assert fallback["content"].endswith(
            "and Kael has no orders yet (your direct messages are closed to the bot, so it "
            f"reminds you here).\n<@{alice['id']}>")
        assert pinged(fallback) == [alice["id"]]
        assert dms_to(fake, fake.gm) == []  # nothing was given up: the GMs are not told
        assert "takes no DMs" not in " ".join(m["content"] for m in fake.bot_messages(room))
    finally:
        await running.stop()


async def test_away_shows_in_the_turn_status_and_back_ends_it(fake, tmp_path) -> None:
    running, _, _ = await a_game_with_a_deadline(fake, tmp_path)
    try:
        said = text_of(await run_command(fake, fake.alice, "me away", [option("to", "3d")]))
        assert said.startswith("You are away from ")
        status = text_of(await run_command(fake, fake.gm, "turn status"))
        assert "Missing: Mira." in status and "Away: Kael." in status
        called = text_of(await run_command(fake, fake.gm, "turn calltime",
                                           [option("in", "90m", 3)]))
        assert called.endswith(" Away: Kael (no missed turn; the game's `absence` setting says "
                               "what they do).")
        assert text_of(await run_command(fake, fake.alice, "me back")).startswith("Welcome")
        refused = text_of(await run_command(fake, fake.alice, "me away",
                                            [option("to", "someday")]))
        assert '"someday" is no date, time or duration' in refused
    finally:
        await running.stop()


async def test_the_digest_lists_the_turns_waiting_with_links(fake, tmp_path) -> None:
    running, clock, _ = await a_game_with_a_deadline(fake, tmp_path)
    try:
        text_of(await run_command(fake, fake.alice, "me remind", [option("how", "none")]))
        hour = (clock.at.hour + 1) % 24
        said = text_of(await run_command(fake, fake.alice, "me digest",
                                         [option("state", "on"), option("hour", hour, 4)]))
        assert said == f"Your daily digest comes at {hour:02d}:00 UTC."
        clock.at += timedelta(hours=1)
        [digest] = await fake.wait_for(lambda: dms_to(fake, fake.alice))
        assert digest["content"].startswith("Your daily digest: the turns waiting for your "
                                            "orders.\n- **Goblin Road**: turn 1, closes at <t:")
        assert digest["content"].endswith(
            f"Kael to post. https://discord.com/channels/{fake.guild_id}/{fake.room['id']}")
    finally:
        await running.stop()


async def test_a_reminder_due_while_the_bot_was_down_goes_out_after_it_replacing_the_last(
        fake, tmp_path) -> None:
    running, clock, _ = await a_game_with_a_deadline(fake, tmp_path)
    room, alice = fake.room["id"], fake.alice
    try:
        text_of(await run_command(fake, alice, "me remind", [option("how", "dm")]))
        clock.at += timedelta(hours=12)
        [first] = await fake.wait_for(lambda: dms_to(fake, alice))
        [board] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                               if m["content"].startswith("**Goblin Road")])
    finally:
        await running.stop()
    clock.at += timedelta(hours=11)  # the 1-hour reminder falls while the bot is down
    await running.start()
    try:
        await fake.wait_for(lambda: dms_to(fake, alice) and dms_to(fake, alice)[0] != first)
        assert len(dms_to(fake, alice)) == 1  # the 12-hour one was taken down
        boards = [m for m in fake.bot_messages(room) if m["content"].startswith("**Goblin Road")]
        assert [b["id"] for b in boards] == [board["id"]]  # the same board, kept across starts
    finally:
        await running.stop()
