"""One whole turn of a game through the fake Discord and the real client: sheets, the NPC orders
by modal, posts with a problem fixed by an edit, table talk, a deletion, secret orders by DM, a
GM whose DMs are closed, call time fired by the scheduler at the deadline, the GM's review as an
ephemeral view, the resolution's results in the room, and an undo. The assertions are on the JSON
the bot sent."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import (
    KAEL_ORDERS,
    add_sheet,
    components,
    run_command,
    set_up_game,
    submit_modal,
    text_of,
    use_component,
)
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


class ManualClock:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at


async def test_a_whole_turn(fake, tmp_path) -> None:
    clock = ManualClock()
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    await running.start()
    try:
        await play_a_turn(running, fake, clock)
    finally:
        await running.stop()


async def play_a_turn(running: RunningBot, fake, clock: ManualClock) -> None:
    room = fake.room["id"]
    gm, alice, bob = fake.gm, fake.alice, fake.bob
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, gm, "char add", "mira.yaml", bob)
    fake.closed_dms.add(gm["id"])

    # the GM's NPC orders, by modal: sealed, the commitment published in the room
    [opened] = await run_command(fake, gm, "gm npc")
    modal = opened["callback"]["data"]
    assert opened["callback"]["type"] == 9
    answer = text_of(await submit_modal(fake, gm, modal, "**Skarg**\n3 AP defend"))
    assert "Skarg" in answer
    await fake.wait_for(lambda: any("sealed" in m["content"] for m in fake.bot_messages(room)))

    # a post with a problem, fixed by an edit; table talk; a second post deleted
    post = await fake.post(room, alice, "2 AP attack Skarg with Broadsword\n2 AP defend")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "AP" in reply["content"] and "3" in reply["content"]
    await fake.edit(room, post["id"], KAEL_ORDERS)
    await fake.wait_for(lambda: "3/3 AP" in fake.messages[room][reply["id"]]["content"])
    await fake.post(room, alice, "Kael grins at the goblin.")
    extra = await fake.post(room, alice, "3 AP defend")
    [extra_reply] = await fake.wait_for(lambda: replies_to(fake, extra))
    await fake.delete(room, extra["id"])
    await fake.wait_for(lambda: extra_reply["id"] not in fake.messages[room])

    # secret orders by DM: the room only learns that sealed orders arrived
    dm = await fake.dm(bob, "2 AP Stealth: slip behind Skarg unseen\n1 AP defend")
    await fake.wait_for(lambda: fake.bot_messages(dm["channel_id"]))
    assert "Mira" in fake.bot_messages(dm["channel_id"])[0]["content"]
    [arrived] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if m["content"].startswith("Sealed orders arrived")])
    assert "Mira" not in arrived["content"] and arrived["allowed_mentions"] == {"parse": []}
    assert not any("Stealth" in m["content"] for m in fake.bot_messages(room))

    # call time in one minute; the scheduler fires it when the clock passes the deadline
    text_of(await run_command(fake, gm, "turn calltime",
                              [{"type": 3, "name": "in", "value": "1m"}]))
    clock.at += timedelta(minutes=2)
    await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                    for m in fake.bot_messages(room)), timeout=15)
    # the GM's copy of the notice could not be sent by DM: the room says so, pinging the GM only
    [notice] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                            if "cannot send you direct" in m["content"]])
    assert notice["allowed_mentions"] == {"parse": [], "users": [int(gm["id"])]}

    # the review, one question at a time, then the resolution
    [deferred, panel] = await run_command(fake, gm, "gm resolve", responses=2)
    assert deferred["callback"]["type"] == 5  # deferred at once: a big turn's review is slow
    assert deferred["callback"]["data"]["flags"] & 64  # ephemeral
    message = panel["message"]
    for _ in range(20):
        found = {c.get("label") or c.get("placeholder"): c for c in components(message)}
        if "Resolve the turn" in found:
            await use_component(fake, gm, message, found["Resolve the turn"])
            break
        select = next((c for c in components(message) if c["type"] == 3), None)
        # an answer is deferred (type 6) then the panel edited; keeping a default is at once
        if select is not None:
            answered = await use_component(fake, gm, message, select,
                                           [select["options"][0]["value"]], responses=2)
        elif "Keep the default" in found:
            answered = await use_component(fake, gm, message, found["Keep the default"])
        else:
            [asked] = await use_component(fake, gm, message, found["Answer"])
            answered = await submit_modal(fake, gm, asked["callback"]["data"], "3",
                                          message=message, responses=2)
        last = answered[-1]
        message = {**message, **(last.get("edit") or last["callback"]["data"])}
    else:
        raise AssertionError("the review never offered to resolve")
    results = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                           if "Turn 1" in m["content"] and "Kael" in
                                           m["content"] and "resolved" not in m["content"]
                                           and m["content"] != fake.messages[room].get(
                                               reply["id"], {}).get("content")], timeout=15)
    for message in fake.bot_messages(room):
        assert len(message["content"]) <= 2000
        assert message["allowed_mentions"]["parse"] == []
    assert results
    said = "\n".join(m["content"] for m in results)
    # each action named as its player wrote it, with its numbers; Mira's orders came by DM but
    # target no other player's character: public once the turn resolves (F29 Amb-4)
    assert re.search(r"- Kael attacks Skarg with Broadsword: \d+ vs \d+ \(Skarg defends "
                     r"with 3 AP\), ", said), said
    assert re.search(r"- Mira tries Stealth \(slip behind Skarg unseen\): \d+ vs \d+, ", said)
    assert "- Kael defends" not in said and "- Skarg defends" not in said  # folded
    # every character under "Where things stand"; no internal id, no rule code
    for name in ("Kael", "Mira", "Skarg"):
        assert f"\n- {name}: " in said.split("**Where things stand**")[1]
    assert not re.search(r"\bt\d+-[a-z]", said) and not re.search(r"\((?:RULINGS )?[FX]\d", said)

    # undo: the resolution is rolled back
    undone = text_of(await run_command(fake, gm, "gm undo"))
    assert "undone" in undone
