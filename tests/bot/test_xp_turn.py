"""An Xp turn through the fake Discord and the real client: the game created with the
Xp rules, Xp sheets attached, a post answered with the roll and its pool, the GM's review panel
(the same panel as FAPPO's), and the results in the room with every die."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.bot.table import (
    add_sheet,
    components,
    run_command,
    submit_modal,
    text_of,
    use_component,
)
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e

XP = Path(__file__).resolve().parents[2] / "examples" / "xp-adventure"


async def attach(fake, user: dict[str, Any], command: str, file: str,
                 player: dict[str, Any] | None = None) -> str:
    return await add_sheet(fake, user, command, file, player, folder=XP)


async def test_an_xp_turn_on_discord(fake, running) -> None:
    room = fake.room["id"]
    gm, alice = fake.gm, fake.alice
    created = text_of(await run_command(fake, gm, "game create", [
        {"type": 3, "name": "name", "value": "Tomb of Ankh"},
        {"type": 3, "name": "ruleset", "value": "xp"}]))
    assert "Xp rules" in created, created
    # /help in an Xp game's room adds the Xp post forms (a FAPPO room's stays as it was)
    helped = text_of(await run_command(fake, alice, "help"))
    assert "Xp posts" in helped and "roll SKILL against NAME" in helped
    # the forms say their rules in words: no code a player cannot look up
    assert "rerolls over time" in helped and "(X9)" not in helped and "X17" not in helped
    joined = await attach(fake, gm, "char add", "nefer.yaml", alice)
    assert "Nefer" in joined and "joins the game" in joined
    assert "Stealth: Advanced, BODY" in joined  # the Xp sheet's embed
    assert "Guard" in await attach(fake, gm, "char enemy", "guard.yaml")
    assert "turn 1 is open" in text_of(await run_command(fake, gm, "turn open"))

    # a post: the reply names the roll and its pool; a problem names its line
    post = await fake.post(room, alice, "Nefer slips along the wall.\n"
                                        "roll Stealth against Guard: past the guard")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "a contest of Stealth against Guard" in reply["content"]
    assert "6d (4 + rank 1 + characteristic 1)" in reply["content"]
    wrong = await fake.post(room, alice, "roll Sneaking")
    [problem] = await fake.wait_for(lambda: replies_to(fake, wrong))
    assert 'line 1 "roll Sneaking"' in problem["content"]
    await fake.delete(room, wrong["id"])

    # the review panel: what the guard rolls (a free answer), then resolve
    # deferred at once (a big turn's review may take longer than Discord's 3 s), privately
    [deferred, panel] = await run_command(fake, gm, "gm resolve", responses=2)
    assert deferred["callback"]["type"] == 5
    assert deferred["callback"]["data"]["flags"] & 64  # ephemeral
    message = panel["message"]
    asked = []
    for _ in range(10):
        found = {c.get("label") or c.get("placeholder"): c for c in components(message)}
        asked.append(message.get("content", ""))
        if "Resolve the turn" in found:
            await use_component(fake, gm, message, found["Resolve the turn"])
            break
        [asked_modal] = await use_component(fake, gm, message, found["Answer"])
        # the answer is acknowledged at once (type 6), then the panel edited
        answered = await submit_modal(fake, gm, asked_modal["callback"]["data"], "Perception",
                                      message=message, responses=2)
        message = {**message, **answered[-1]["edit"]}
    else:
        raise AssertionError("the review never offered to resolve")
    assert any("what does Guard roll?" in text for text in asked)

    [results] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if m["content"].startswith("Turn 1 results (Xp)")],
                                    timeout=15)
    text = results["content"]
    assert "Nefer, Stealth (\"past the guard\") against Guard (Perception)" in text
    nefer = re.search(r"Nefer: 6d at Normal \(5-6\): \[([1-6](?: [1-6]){5})\]", text)
    guard = re.search(r"Guard: 4d at Normal \(5-6\): \[([1-6](?: [1-6]){3})\]", text)
    assert nefer and guard, text  # every die of both sides
    assert not re.search(r"\((?:RULINGS )?X\d|RULINGS X\d", text), text  # the rules in words
    assert results["allowed_mentions"]["parse"] == []
