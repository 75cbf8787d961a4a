"""A turn's results as the room and the players read them on Discord (the JSON the bot sent):
each action named as written, no internal id, no rule code; a duel between players by DM goes
to its parties (and the GM), the room listing its parties without their health."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.bot.table import (
    add_sheet,
    call_time,
    components,
    review_panel,
    submit_modal,
    use_component,
)

pytestmark = pytest.mark.e2e

RULE_CODE = re.compile(r"\((?:RULINGS )?[FX]\d|RULINGS [FX]\d")
INTERNAL_ID = re.compile(r"\bt\d+-[a-z]")


async def resolve_through_the_panel(fake: Any) -> None:
    message = (await review_panel(fake))["message"]
    for _ in range(20):
        found = {c.get("label") or c.get("placeholder"): c for c in components(message)}
        if "Resolve the turn" in found:
            await use_component(fake, fake.gm, message, found["Resolve the turn"])
            return
        select = next((c for c in components(message) if c["type"] == 3), None)
        if select is not None:
            answered = await use_component(fake, fake.gm, message, select,
                                           [select["options"][0]["value"]], responses=2)
        elif "Keep the default" in found:
            answered = await use_component(fake, fake.gm, message, found["Keep the default"])
        else:
            [asked] = await use_component(fake, fake.gm, message, found["Answer"])
            answered = await submit_modal(fake, fake.gm, asked["callback"]["data"], "3",
                                          message=message, responses=2)
        last = answered[-1]
        message = {**message, **(last.get("edit") or last["callback"]["data"])}
    raise AssertionError("the review never offered to resolve")


async def test_a_duel_by_dm_goes_to_its_parties_and_the_room_still_lists_everyone(
        running, fake) -> None:
    from tests.bot.table import set_up_game

    room, gm, alice, bob = fake.room["id"], fake.gm, fake.alice, fake.bob
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, gm, "char add", "mira.yaml", bob)
    kael = await fake.dm(alice, "2 AP attack Mira with Broadsword\n1 AP defend")
    mira = await fake.dm(bob, "2 AP defend against Kael\nGuard: 1 SP Clever against Kael")
    for dm in (kael, mira):
        await fake.wait_for(lambda dm=dm: fake.bot_messages(dm["channel_id"]))
    await call_time(fake)
    await resolve_through_the_panel(fake)

    def results_in(channel: str) -> list[dict[str, Any]]:
        return [m for m in fake.bot_messages(channel) if "Turn 1 results" in m["content"]]

    [public] = await fake.wait_for(lambda: results_in(room), timeout=15)
    [to_bob] = await fake.wait_for(lambda: results_in(mira["channel_id"]), timeout=15)
    [to_alice] = await fake.wait_for(lambda: results_in(kael["channel_id"]), timeout=15)
    room_text = public["content"]
    # the room: nothing of the duel, but every character listed
    assert "attacks Mira" not in room_text and "Broadsword" not in room_text
    assert "- Mira: this turn's results went to the parties only" in room_text
    assert "- Kael: this turn's results went to the parties only" in room_text
    assert "- Skarg: " in room_text
    # each party reads the duel, the numbers and what moved the level; its own allocations,
    # not the other party's
    duel = re.compile(r"- Kael attacks Mira with Broadsword: \d+ vs \d+ \(Mira defends"
                      r"(?P<ap> with 2 AP)?\), .*from a Guard: ")
    seen_by_bob, seen_by_alice = duel.search(to_bob["content"]), duel.search(to_alice["content"])
    assert seen_by_bob and seen_by_bob["ap"], to_bob["content"]
    assert seen_by_alice and not seen_by_alice["ap"], to_alice["content"]
    for message in (public, to_bob, to_alice):
        assert not RULE_CODE.search(message["content"]), message["content"]
        assert not INTERNAL_ID.search(message["content"]), message["content"]
        assert message["allowed_mentions"]["parse"] == []
        assert len(message["content"]) <= 2000
