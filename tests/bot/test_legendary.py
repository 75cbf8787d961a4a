"""F22 on Discord: the GM hands a legendary item over (`/gm handover`), its new holder binds it
(`/char bind`), the owner's player gets a DM that says only that it was bound, and the owner's
reclaim breaks the binding; every answer is private (no one learns who has the item)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.table import EXAMPLES, run_command, text_of

pytestmark = pytest.mark.e2e

KAEL = (EXAMPLES / "kael.yaml").read_text(encoding="utf-8") + (
    "budget: 31\nlegendary: [{item: Broadsword, upgrades: [accuracy]}]\n")


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def add(fake, name: str, text: str, player: dict[str, Any]) -> None:
    attachment = fake.attachment(name, text.encode("utf-8"))
    options = [opt("sheet", attachment["id"], 11), opt("player", player["id"], 6)]
    answer = text_of(await run_command(fake, fake.gm, "char add", options, {
        "attachments": {attachment["id"]: attachment}, "users": {player["id"]: player}}))
    assert "joins the game" in answer, answer


def private(responses: list[dict[str, Any]]) -> str:
    [answer] = responses
    assert answer["callback"]["data"]["flags"] & 64
    return answer["callback"]["data"]["content"]


async def test_f22_handed_over_bound_the_owner_told_and_reclaimed(running, fake) -> None:
    await run_command(fake, fake.gm, "game create", [opt("name", "Sword Road")])
    await add(fake, "kael.yaml", KAEL, fake.alice)
    await add(fake, "mira.yaml", (EXAMPLES / "mira.yaml").read_text(encoding="utf-8"), fake.bob)
    listed = private(await run_command(fake, fake.gm, "gm items"))
    assert "'Broadsword' of Kael: held by Kael (with its powers)" in listed
    refused = private(await run_command(fake, fake.alice, "gm handover",
                                        [opt("item", "Broadsword"), opt("to", "Mira")]))
    assert "GM" in refused
    handed = private(await run_command(fake, fake.gm, "gm handover",
                                       [opt("item", "broadsword"), opt("to", "Mira")]))
    assert handed == ("Kael's legendary 'Broadsword' is now Mira's (its base weapon only, "
                      "until bound).")
    bound = private(await run_command(fake, fake.bob, "char bind", [
        opt("character", "Mira"), opt("item", "Broadsword"), opt("sacrifice", "Stealth")]))
    assert bound.startswith("Mira binds 'Broadsword' (1 point of Stealth sacrificed)")
    alice_dm = fake.dm_channel(fake.alice)["id"]
    await fake.wait_for(lambda: any("bound to another" in m["content"]
                                    for m in fake.bot_messages(alice_dm)))
    [told] = [m["content"] for m in fake.bot_messages(alice_dm) if "bound" in m["content"]]
    assert "Mira" not in told and "Kael's legendary item 'Broadsword'" in told
    assert not any("Broadsword" in m["content"] for m in fake.bot_messages(fake.room["id"]))
    back = private(await run_command(fake, fake.gm, "gm handover",
                                     [opt("item", "Broadsword"), opt("to", "Kael")]))
    assert "breaks the binding of Mira" in back
    again = private(await run_command(fake, fake.bob, "char bind", [
        opt("character", "Mira"), opt("item", "Broadsword")]))
    assert "does not hold a legendary item called 'Broadsword'" in again


async def test_f22_a_bind_line_in_a_post_binds_as_the_turn_resolves(running, fake) -> None:
    await run_command(fake, fake.gm, "game create", [opt("name", "Sword Road")])
    await add(fake, "kael.yaml", KAEL, fake.alice)
    await add(fake, "mira.yaml", (EXAMPLES / "mira.yaml").read_text(encoding="utf-8"), fake.bob)
    private(await run_command(fake, fake.gm, "gm handover",
                              [opt("item", "Broadsword"), opt("to", "Mira")]))
    assert "turn 1 is open" in text_of(await run_command(fake, fake.gm, "turn open"))
    room = fake.room["id"]
    await fake.post(room, fake.bob, "Mira grips the blade.\n"
                                    "Bind: Broadsword (sacrificing 1 Stealth)\n3 AP defend")
    await fake.wait_for(lambda: any("Bind Broadsword (sacrificing 1 point: Stealth"
                                    in m["content"] for m in fake.bot_messages(room)))
    await fake.post(room, fake.bob, "Bind: Longsword\n3 AP defend")
    await fake.wait_for(lambda: any("does not hold a legendary item called 'Longsword'"
                                    in m["content"] for m in fake.bot_messages(room)))
    game_id = await running.bot.rooms.game_id(room)
    await running.services.resolution.resolve(game_id, fake.gm["id"], 1)
    running.bot.delivery.wake()
    alice_dm = fake.dm_channel(fake.alice)["id"]
    await fake.wait_for(lambda: any("bound to another" in m["content"]
                                    for m in fake.bot_messages(alice_dm)))
    listed = private(await run_command(fake, fake.gm, "gm items"))
    assert "held by Mira (with its powers); bound to Mira" in listed
