"""Calling time or resolving on Discord while NPCs have no orders and nothing is sealed: the GM
is asked first (seal them as written, or give their orders now), as at the local table, and the
choice goes on with what was asked; the deadline tells the GMs and waits (an injected clock)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from fappo_bot.discord.commands.turns import called_answer
from tests.bot.conftest import RunningBot
from tests.bot.table import (
    add_sheet,
    components,
    run_command,
    set_up_game,
    submit_modal,
    text_of,
    use_component,
)
from tests.bot.test_access import button, game_id
from tests.bot.test_game import ManualClock

pytestmark = pytest.mark.e2e

SKARG = "**Skarg**\n3 AP defend"


def asked(body: dict[str, Any]) -> dict[str, Any]:
    """The question, privately, with its two choices."""
    assert body["flags"] & 64
    assert "No NPC orders this turn for Skarg" in body["content"], body
    assert {c.get("label") for c in components(body)} == {"Seal as written",
                                                         "Give NPC orders now"}
    return body


async def status(running, fake):
    return await running.services.turns.status(game_id(running, fake))


async def test_calltime_asks_then_seals_as_written(running, fake) -> None:
    await set_up_game(fake)
    [question] = await run_command(fake, fake.gm, "turn calltime")
    message = {**question["message"], **asked(question["callback"]["data"])}
    assert (await status(running, fake)).turn.status.value == "open"  # nothing done yet
    done = await use_component(fake, fake.gm, message, button(message, "Seal as written"),
                               responses=3)
    assert done[0]["callback"]["type"] == 6
    assert "sealed as written" in done[1]["edit"]["content"]
    assert done[2]["followup"]["content"] == called_answer(1)
    assert done[2]["followup"]["flags"] & 64  # private: the room has the notice
    now = await status(running, fake)
    assert now.turn.status.value == "closed" and now.npc_sealed


async def test_calltime_asks_then_takes_the_npc_orders_now(running, fake) -> None:
    await set_up_game(fake)
    [question] = await run_command(fake, fake.gm, "turn calltime")
    message = {**question["message"], **asked(question["callback"]["data"])}
    [opened] = await use_component(fake, fake.gm, message, button(message, "Give NPC orders now"))
    assert opened["callback"]["type"] == 9
    form = opened["callback"]["data"]
    assert form["custom_id"].startswith("fappo:npc:")
    answered = await submit_modal(fake, fake.gm, form, SKARG, message=message, responses=2)
    assert answered[0]["callback"]["data"]["flags"] & 64 and "Skarg" in text_of(answered[:1])
    assert answered[1]["followup"]["content"] == called_answer(1)
    now = await status(running, fake)
    assert now.turn.status.value == "closed" and now.npc_sealed
    orders = await running.services.turns.orders(game_id(running, fake), fake.gm["id"])
    assert any(o.character == "Skarg" and o.actions for o in orders)


async def test_a_player_is_not_asked_and_learns_no_npc(running, fake) -> None:
    await set_up_game(fake)
    [refused] = await run_command(fake, fake.alice, "turn calltime")
    data = refused["callback"]["data"]
    assert data["flags"] & 64 and "Only a GM" in data["content"]
    assert "Skarg" not in data["content"] and not components(data)


async def test_gm_resolve_asks_then_opens_the_review(running, fake) -> None:
    await set_up_game(fake)
    [deferred, question] = await run_command(fake, fake.gm, "gm resolve", responses=2)
    assert deferred["callback"]["type"] == 5
    message = {**question["message"], **asked(question["followup"])}
    done = await use_component(fake, fake.gm, message, button(message, "Seal as written"),
                               responses=3)
    assert done[2]["followup"]["content"].startswith("Review of turn 1")
    assert done[2]["followup"]["flags"] & 64
    assert (await status(running, fake)).npc_sealed


async def test_the_resolve_button_asks_about_npcs_added_since_the_panel_opened(running, fake
                                                                              ) -> None:
    gm, alice = fake.gm, fake.alice
    text_of(await run_command(fake, gm, "game create",
                              [{"type": 3, "name": "name", "value": "Goblin Road"}]))
    assert "joins the game" in await add_sheet(fake, gm, "char add", "kael.yaml", alice)
    text_of(await run_command(fake, gm, "turn open"))
    [_, panel] = await run_command(fake, gm, "gm resolve", responses=2)
    message = panel["message"]
    assert "Skarg" in await add_sheet(fake, gm, "char enemy", "skarg.yaml")
    pressed = await use_component(fake, gm, message, button(message, "Resolve the turn"),
                                  responses=2)
    assert pressed[0]["callback"]["type"] == 6
    question = {**pressed[1]["message"], **asked(pressed[1]["followup"])}
    [opened] = await use_component(fake, gm, question, button(question, "Give NPC orders now"))
    answered = await submit_modal(fake, gm, opened["callback"]["data"], SKARG,
                                  message=question, responses=2)
    assert answered[1]["followup"]["content"].startswith("Review of turn 1")
    now = await status(running, fake)
    assert now.npc_sealed and now.turn.status.value == "open"  # reviewed again, not resolved


async def test_a_deadline_without_npc_orders_tells_the_gm_and_waits(fake, tmp_path) -> None:
    clock = ManualClock()
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    await running.start()
    try:
        room = fake.room["id"]
        await set_up_game(fake)
        text_of(await run_command(fake, fake.gm, "turn calltime",
                                  [{"type": 3, "name": "in", "value": "1m"}]))
        clock.at += timedelta(minutes=2)
        dm = fake.dm_channel(fake.gm)["id"]
        [told] = await fake.wait_for(lambda: [m for m in fake.bot_messages(dm)
                                              if "time is not called" in m["content"]])
        assert "Skarg" in told["content"]
        assert not any(m["content"].startswith("Time is called") for m in fake.bot_messages(room))
        assert (await status(running, fake)).turn.status.value == "open"
        # the GM gives the orders: sealed, and the deadline, past, calls time by itself
        [opened] = await run_command(fake, fake.gm, "gm npc")
        text_of(await submit_modal(fake, fake.gm, opened["callback"]["data"], SKARG))
        await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                        for m in fake.bot_messages(room)))
        now = await status(running, fake)
        assert now.turn.status.value == "closed" and now.npc_sealed
        assert len([m for m in fake.bot_messages(dm) if "time is not called" in m["content"]]
                   ) == 1
    finally:
        await running.stop()
