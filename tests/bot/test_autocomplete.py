"""Autocomplete through the fake Discord, from the service's views: the games of this server
for `/gm export`, the skills of the caller's own character sheet and the characters of the
room's game as targets for `/turn line`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.table import run_command, set_up_game, text_of

pytestmark = pytest.mark.e2e


async def complete(fake, user, group: str, command: str, options: list[dict[str, Any]]
                   ) -> list[dict[str, str]]:
    data = {"id": "1", "name": group, "type": 1, "options": [
        {"type": 1, "name": command, "options": options}]}
    interaction = await fake.interact(user, fake.room["id"], 4, data)
    [answer] = await fake.answered(interaction)
    assert answer["callback"]["type"] == 8
    return answer["callback"]["data"]["choices"]


async def test_the_game_option_offers_this_servers_games(running, fake) -> None:
    await set_up_game(fake)
    other = fake.add_channel("crypt")
    text_of(await run_command(fake, fake.gm, "game create",
                              [{"type": 3, "name": "name", "value": "Crypt of Bones"}],
                              channel=other["id"]))
    focused = [{"type": 3, "name": "game", "value": "", "focused": True}]
    choices = await complete(fake, fake.gm, "gm", "export", focused)
    assert [c["name"] for c in choices] == ["Crypt of Bones", "Goblin Road"]
    focused[0]["value"] = "road"
    [road] = await complete(fake, fake.gm, "gm", "export", focused)
    assert road["name"] == "Goblin Road"
    # the choice's value is the game's id: exporting it from another room works
    crypt = next(c for c in choices if c["name"] == "Crypt of Bones")
    [_, answer] = await run_command(fake, fake.gm, "gm export",
                                    [{"type": 3, "name": "game", "value": crypt["value"]}],
                                    responses=2)
    assert sorted(answer["followup"]["_files"]) == ["Crypt-of-Bones.json", "Crypt-of-Bones.md"]


async def test_skills_come_from_the_callers_sheet_and_targets_from_the_game(running, fake
                                                                            ) -> None:
    await set_up_game(fake)
    skill = [{"type": 4, "name": "ap", "value": 2},
             {"type": 3, "name": "skill", "value": "s", "focused": True}]
    choices = await complete(fake, fake.alice, "turn", "line", skill)
    # Kael's skills with an "s": the ones starting with it first
    assert [c["value"] for c in choices] == ["Searching", "Stealth", "Swordfighting",
                                            "Acrobatics", "Fisticuffs"]
    # the GM runs no character here: no skills to offer
    assert await complete(fake, fake.gm, "turn", "line", skill) == []

    target = [{"type": 4, "name": "ap", "value": 2},
              {"type": 3, "name": "skill", "value": "Stealth"},
              {"type": 3, "name": "target", "value": "", "focused": True}]
    choices = await complete(fake, fake.alice, "turn", "line", target)
    assert [c["value"] for c in choices] == ["Kael", "Skarg"]

    [answer] = await run_command(fake, fake.alice, "turn line", [
        {"type": 4, "name": "ap", "value": 2}, {"type": 3, "name": "skill", "value": "Stealth"},
        {"type": 3, "name": "target", "value": "Skarg"},
        {"type": 3, "name": "what", "value": "slip past @everyone"}])
    text = answer["callback"]["data"]["content"]
    assert "`2 AP Stealth on Skarg: slip past" in text and "@everyone" not in text
