"""`/reveal turn:N` through the fake Discord: anyone in a game's room (a player, a GM, someone
only watching) checks a resolved turn's sealed NPC orders against the commitment the room was
shown when they were sealed, privately: the verdict, the orders as a reply reads them, and the
canonical JSON as a .json file. The room's reveal names the command. Each refusal is
one sentence: no game here, no such turn, a turn not resolved, a bad number."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from tests.bot.table import KAEL_ORDERS, run_command, set_up_game, text_of

pytestmark = pytest.mark.e2e

LONG_INTENT = "crush them " * 300  # the canonical JSON is over Discord's 2,000 characters


def turn_option(number: int) -> list[dict[str, Any]]:
    return [{"type": 4, "name": "turn", "value": number}]


async def reveal(fake, user, number: int, *, channel: str | None = None) -> list[dict[str, Any]]:
    """`/reveal turn:N`: deferred at once and privately, then the answer."""
    deferred, answer = await run_command(fake, user, "reveal", turn_option(number),
                                         channel=channel, responses=2)
    assert deferred["callback"]["type"] == 5
    assert deferred["callback"]["data"]["flags"] & 64  # only the caller sees it
    assert answer["followup"]["flags"] & 64
    assert answer["followup"]["allowed_mentions"] == {"parse": []}  # it pings nobody
    return [deferred, answer]


async def resolve_turn_one(running, fake, npc_orders: str) -> dict[str, str]:
    """Turn 1 of Goblin Road with `npc_orders` sealed and Kael's orders posted, resolved by
    the GM (through the service: the review's buttons are test_game.py's); returns the
    commitment and salt the room was shown."""
    room, gm = fake.room["id"], fake.gm["id"]
    game = await running.bot.rooms.game_id(room)
    services = running.services
    reply = await services.turns.post(game, gm, channel_key=room, message_key="npc-1",
                                      text=npc_orders)
    assert reply.ok, reply.reply
    await services.turns.seal(game, gm)
    reply = await services.turns.post(game, fake.alice["id"], channel_key=room,
                                      message_key="kael-1", text=KAEL_ORDERS)
    assert reply.ok, reply.reply
    await services.calltime.close(game, gm)
    await services.resolution.resolve(game, gm, 1)
    running.bot.delivery.wake()
    [shown] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                           if "How to check" in m["content"]], timeout=15)
    found = re.search(r"Commitment \(SHA-256\): ([0-9a-f]{64})\nSalt: (\S+)", "\n".join(
        m["content"] for m in fake.bot_messages(room)))
    assert found, shown
    return {"commitment": found.group(1), "salt": found.group(2), "reveal": shown["content"]}


def hashes_to(salt: str, canonical: str, commitment: str) -> bool:
    return hashlib.sha256(f"{salt}\n{canonical}".encode()).hexdigest() == commitment


async def test_anyone_in_the_room_checks_the_npc_orders_and_gets_the_json_as_a_file(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    # before the resolution the orders are secret: the turn is not resolved yet
    refused = text_of(await reveal(fake, fake.alice, 1))
    assert "Turn 1 is open, not resolved yet" in refused and "```" not in refused
    sealed = await resolve_turn_one(running, fake, "**Skarg**\n3 AP defend")
    # the room's reveal names the bot's command for the JSON
    assert "Here: `/reveal turn:1` shows it and checks it." in sealed["reveal"]
    # a player, the GM and bob, who only watches the room, get the same private answer
    for user in (fake.alice, fake.gm, fake.bob):
        [_, answer] = await reveal(fake, user, 1)
        content = answer["followup"]["content"]
        # the verdict first, the orders as a reply reads them, no JSON in the message
        assert content.startswith("**Turn 1's sealed NPC orders.** They match")
        assert "Skarg: 3 AP committed" in content and "```" not in content
        assert len(content) <= 2000
        assert f"Commitment (SHA-256): `{sealed['commitment']}`" in content
        assert f"salt: `{sealed['salt']}`" in content
        # the canonical JSON, exactly as hashed, is the attached file (a multipart upload)
        canonical = answer["followup"]["_files"]["turn-1-npc-orders.json"].decode()
        assert hashes_to(sealed["salt"], canonical, sealed["commitment"])
        assert [o["actor"] for o in json.loads(canonical)] == ["Skarg"]
    # nothing was said in the room by asking
    assert not any("```json" in m["content"] for m in fake.bot_messages(room))


async def test_long_npc_orders_come_as_a_json_file(running, fake) -> None:
    await set_up_game(fake)
    sealed = await resolve_turn_one(
        running, fake, f"**Skarg**\n3 AP defend\nIntent: {LONG_INTENT}")
    [_, answer] = await reveal(fake, fake.alice, 1)
    body = answer["followup"]
    files = body["_files"]
    assert sorted(files) == ["turn-1-npc-orders.json"]
    canonical = files["turn-1-npc-orders.json"].decode()
    assert len(canonical) > 2000 and hashes_to(sealed["salt"], canonical, sealed["commitment"])
    assert json.loads(canonical)[0]["intent"] == LONG_INTENT.strip()
    assert "They match" in body["content"] and "```" not in body["content"]
    # the orders as a reply reads them, cut to keep the whole check in one message
    assert len(body["content"]) <= 2000
    assert "… (the whole orders are in the file)" in body["content"]
    assert "is attached (turn-1-npc-orders.json)" in body["content"]
    assert f"printf '%s\\n' '{sealed['salt']}'; cat turn-1-npc-orders.json" in body["content"]


async def test_each_refusal_is_one_sentence(running, fake) -> None:
    elsewhere = fake.add_channel("tavern")["id"]
    text = text_of(await reveal(fake, fake.alice, 1, channel=elsewhere)).strip()
    assert text.startswith("There is no game in this channel")
    await set_up_game(fake)
    text = text_of(await reveal(fake, fake.alice, 7)).strip()
    assert text.startswith("There is no turn 7 in this game; the latest is turn 1.")
    # Discord's client refuses a number under 1; a raw request is refused by the bot too
    text = text_of(await reveal(fake, fake.alice, 0)).strip()
    assert text.startswith("0 is no turn number")
    # a direct message is no game's room (Discord offers the command in servers only)
    text = text_of(await reveal(fake, fake.alice, 1, channel=fake.dm_channel(fake.alice)["id"]))
    assert text.strip().startswith("There is no game in this channel")


async def test_no_open_turn_says_which_command_opens_one(running, fake) -> None:
    """The service names no command; the bot adds its own."""
    text_of(await run_command(fake, fake.gm, "game create",
                              [{"type": 3, "name": "name", "value": "Goblin Road"}]))
    text = text_of(await run_command(fake, fake.gm, "turn status"))
    assert "No turn has been opened yet; a GM opens the first one with /turn open." in text
