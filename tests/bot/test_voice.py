"""What the bot says, once and in its place, through the fake Discord and the real client: a
DM'd post's notice goes out when its use case commits (not at the outbox's next round), every
DM names its game and links its room, and a GM's command is answered once."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.bot.conftest import RunningBot, bot_settings
from tests.bot.table import (
    KAEL_ORDERS,
    add_sheet,
    review_panel,
    run_command,
    set_up_game,
    submit_modal,
    text_of,
)

pytestmark = pytest.mark.e2e


async def slow_outbox_bot(fake, tmp_path) -> RunningBot:
    """The bot with an outbox round so long that only a wake delivers within a test."""
    running = RunningBot(fake, tmp_path / "data")
    running.settings = bot_settings(fake, tmp_path / "data", outbox_interval_seconds=600.0)
    await running.start()
    return running


async def test_a_dm_posts_notice_goes_out_at_once(fake, tmp_path) -> None:
    running = await slow_outbox_bot(fake, tmp_path)
    try:
        room = fake.room["id"]
        await set_up_game(fake)
        assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "mira.yaml",
                                                   fake.bob)
        dm = await fake.dm(fake.bob, "2 AP Stealth: slip behind Skarg unseen\n1 AP defend")
        [reply] = await fake.wait_for(lambda: fake.bot_messages(dm["channel_id"]))
        # the answer in the DM names the game that took the orders, and links its room
        link = f"https://discord.com/channels/{fake.guild_id}/{room}"
        assert reply["content"].startswith(f'From "Goblin Road" ({link}):\nMira: 3/3 AP')
        # the room's notice comes with the commit, well before a 600 s round
        arrived = await fake.wait_for(
            lambda: [m for m in fake.bot_messages(room)
                     if m["content"].startswith("Sealed orders arrived")], timeout=5)
        assert len(arrived) == 1
        await asyncio.sleep(0)
    finally:
        await running.stop()


async def seal_npcs(fake) -> None:
    """The GM seals Skarg's orders by the modal of `/gm npc`."""
    [opened] = await run_command(fake, fake.gm, "gm npc")
    assert "Skarg" in text_of(await submit_modal(fake, fake.gm, opened["callback"]["data"],
                                                 "**Skarg**\n3 AP defend"))


async def test_every_dm_names_its_game_and_links_its_room(running, fake) -> None:
    room = fake.room["id"]
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "mira.yaml", fake.bob)
    await seal_npcs(fake)
    await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.dm(fake.bob, "2 AP Stealth: slip behind Skarg unseen\n1 AP defend")
    gm_dms = fake.dm_channel(fake.gm)["id"]
    [everyone] = await fake.wait_for(lambda: [m for m in fake.bot_messages(gm_dms)
                                              if "Everyone is in" in m["content"]])
    link = f"https://discord.com/channels/{fake.guild_id}/{room}"
    assert everyone["content"].startswith(f'From "Goblin Road" ({link}):\n')
    # the room's copy needs no heading: it is in the room
    [public] = [m for m in fake.bot_messages(room) if "Everyone is in" in m["content"]] or [None]
    assert public is None or not public["content"].startswith("From")


async def test_the_inbox_names_the_game_of_each_message(running, fake) -> None:
    await set_up_game(fake)
    fake.closed_dms.add(fake.gm["id"])
    await seal_npcs(fake)
    await fake.post(fake.room["id"], fake.alice, KAEL_ORDERS)
    # everyone is in: the GM's DM of it cannot go, and waits in the inbox
    await fake.wait_for(lambda: any("cannot send you direct" in m["content"]
                                    for m in fake.bot_messages(fake.room["id"])))
    inbox = text_of(await run_command(fake, fake.gm, "inbox"))
    assert 'From "Goblin Road" (https://discord.com/channels/' in inbox
    assert "Everyone is in" in inbox


def test_the_fake_takes_files_as_discord_names_them() -> None:
    """Discord reads an upload from the multipart fields `files[N]`, each described by the
    attachment of id N when the JSON lists attachments; the fake refuses anything else."""
    from tests.bot.fake_discord import file_field_errors

    assert file_field_errors({"_file_fields": ["files[0]"],
                              "attachments": [{"id": 0, "filename": "a.json"}]}) == []
    assert file_field_errors({"_file_fields": ["files[0]"]}) == []
    assert file_field_errors({"_file_fields": ["file"]}) == ["'file' is no files[N] field"]
    assert file_field_errors({"_file_fields": ["files[1]"],
                              "attachments": [{"id": 0}]}) == [
        "files[1] is in no attachment of the JSON"]


async def test_help_has_topics_each_a_page_with_an_example(running, fake) -> None:
    index = text_of(await run_command(fake, fake.alice, "help"))
    for key in ("turn", "secret", "gm", "settings", "xp", "commands"):
        assert f"`/help topic:{key}`" in index
    # the topic is a choice Discord's client offers (the published tree says so)
    [helped] = [c for c in fake.commands if c["name"] == "help"]
    [topic] = helped["options"]
    assert [c["value"] for c in topic["choices"]] == ["turn", "secret", "gm", "settings", "pace",
                                                     "xp", "commands"]
    turn = await run_command(fake, fake.alice, "help", [{"type": 3, "name": "topic",
                                                        "value": "turn"}])
    body = turn[0]["callback"]["data"]
    assert body["flags"] & 64 and body["content"].startswith("**Playing a turn**")
    assert "2 AP attack Skarg with Broadsword" in body["content"]
    gm = text_of(await run_command(fake, fake.gm, "help", [{"type": 3, "name": "topic",
                                                            "value": "gm"}]))
    assert "`/gm resolve`" in gm and "`/turn calltime in:1d`" in gm
    assert "`/game trait add name:Keen-eyed aliases:Sharp skills:Lookout`" in gm
    assert "`/game trait list`" in gm and "`/game trait remove name:Keen-eyed`" in gm
    settings = text_of(await run_command(fake, fake.gm, "help", [
        {"type": 3, "name": "topic", "value": "settings"}]))
    assert "`/game set name:results_layout value:embeds`" in settings
    assert "`/me layout how:embeds|text|game`" in settings
    # the examples' options are the published commands' own
    [game] = [c for c in fake.commands if c["name"] == "game"]
    [trait] = [o for o in game["options"] if o["name"] == "trait"]
    options = {sub["name"]: {o["name"] for o in sub.get("options", [])}
               for sub in trait["options"]}
    assert {"name", "aliases", "skills"} <= options["add"] and "name" in options["remove"]


def published_names(commands: list[dict]) -> set[str]:
    """Every command of the published tree by its full name (`game create`, `xp plot open`)."""
    names: set[str] = set()
    for command in commands:
        subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
        if not subs:
            names.add(command["name"])
        for sub in subs:
            inner = [o for o in sub.get("options", []) if o["type"] == 1] if sub["type"] == 2 else []
            names |= ({f"{command['name']} {sub['name']} {o['name']}" for o in inner}
                      if sub["type"] == 2 else {f"{command['name']} {sub['name']}"})
    return names


async def test_help_lists_every_command_the_bot_published(running, fake) -> None:
    """The list of commands is read from the bot's own tree: each published command is in it
    under its group, and `/help topic:commands` is that list."""
    page = text_of(await run_command(fake, fake.alice, "help", [{"type": 3, "name": "topic",
                                                                "value": "commands"}]))
    assert page.startswith("**Every command**\n")
    listed: set[str] = set()
    for group, subs in re.findall(r"`/([a-z ]+?) ([a-z|]+)`", page):
        listed |= {f"{group} {sub}" for sub in subs.split("|")}
    listed |= set(re.findall(r"`/([a-z]+)(?: [a-z]+:[^`]*)?`:", page))
    assert listed == published_names(fake.commands)
    assert page.split("\n", 1)[1] in text_of(await run_command(fake, fake.alice, "help"))


async def test_each_notice_is_said_once_in_its_place(running, fake) -> None:
    """A GM's command the room is told of answers the GM privately with what comes next (not
    the notice again); the GM who calls time gets no DM of it; two secret orders read as two."""
    room = fake.room["id"]
    await set_up_game(fake)  # /turn open, answered
    opened = [m for m in fake.bot_messages(room) if m["content"].startswith("Turn 1 is open")]
    assert len(opened) == 1
    assert "Mira" not in opened[0]["content"]
    assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "mira.yaml", fake.bob)
    await fake.dm(fake.alice, KAEL_ORDERS)
    await fake.dm(fake.bob, "2 AP Stealth: slip behind Skarg unseen\n1 AP defend")
    arrived = await fake.wait_for(
        lambda: (found := [m["content"] for m in fake.bot_messages(room)
                           if m["content"].startswith("Sealed orders arrived")])
        and len(found) == 2 and found)
    assert arrived[0] != arrived[1] and "(2 sets of them so far)" in arrived[1]
    await seal_npcs(fake)
    [answer] = await run_command(fake, fake.gm, "turn calltime")
    body = answer["callback"]["data"]
    assert body["flags"] & 64 and body["content"].startswith("Done: the room is told that time")
    assert "`/gm resolve`" in body["content"]
    await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                    for m in fake.bot_messages(room)))
    called = [m for m in fake.bot_messages(room) if m["content"].startswith("Time is called")]
    assert len(called) == 1
    gm_dms = fake.dm_channel(fake.gm)["id"]
    assert not any("Time is called" in m["content"] for m in fake.bot_messages(gm_dms))


async def test_the_review_shows_each_optional_questions_real_default(running, fake) -> None:
    """Kael's attack asks whether Skarg is flat-footed: optional, and "no" unless the GM says
    otherwise; the panel says that default, and that no required question holds the turn."""
    await set_up_game(fake)
    await seal_npcs(fake)
    await fake.post(fake.room["id"], fake.alice, KAEL_ORDERS)
    await run_command(fake, fake.gm, "turn calltime")
    panel = await review_panel(fake)
    content = panel["followup"]["content"]
    assert "flat-footed" in content and "(optional; default: no)" in content
    assert "default: None" not in content and "question(s)" not in content
    assert "no required question left, then 2 optional ones (each keeps its default" in content
