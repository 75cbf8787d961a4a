"""Mention safety through the Discord adapter: the service hands names to the adapter as data,
as the users wrote them, and every command's answer writes them through `posting.safety`. A
game, an enemy and a display name full of mentions, then the commands that show them (the
game, a sheet, the turn's status, a refusal that names them): no answer and no message of the
room holds a live mention (Discord's `allowed_mentions` is the adapter's own defense besides)."""

from __future__ import annotations

from typing import Any

import pytest

from fappo_bot.posting.safety import has_live_mention
from tests.bot.table import add_sheet, run_command

pytestmark = pytest.mark.e2e

GAME = "Road <@123456789012345678> @everyone <#1>"
ENEMY = "Skarg <@&1> @here **b** ||s||"
LIVE = ("@everyone", "@here", "<@", "<#")


def texts(value: Any) -> list[str]:
    """Every text of an answer's body: its content, its embeds' titles, fields and footers."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in texts(v)]
    return []


def live(text: str) -> list[str]:
    return [line for line in text.splitlines()
            if has_live_mention(line) or any(mark in line for mark in LIVE)]


async def test_no_command_answer_shows_a_live_mention_of_a_hostile_name(running, fake) -> None:
    from fappo_bot.service.characters import NewCharacter
    from tests.bot.scenes import ENEMY_SHEET

    gm, alice = fake.gm, fake.alice
    answers: list[dict[str, Any]] = []
    answers += await run_command(fake, gm, "game create",
                                 [{"type": 3, "name": "name", "value": GAME}])
    assert "joins the game" in await add_sheet(fake, gm, "char add", "kael.yaml", alice)
    game_id = (await running.services.games.find(fake.room["id"])).id
    check = await running.services.characters.add_enemy(
        game_id, gm["id"], NewCharacter.from_dict({**ENEMY_SHEET, "name": ENEMY}))
    assert check.ok, check
    answers += await run_command(fake, gm, "turn open")
    answers += await run_command(fake, gm, "game show")
    answers += await run_command(fake, gm, "char sheet",
                                 [{"type": 3, "name": "name", "value": ENEMY}])
    answers += await run_command(fake, gm, "char sheet",  # refused: lists every name
                                 [{"type": 3, "name": "name", "value": "<@999> @everyone"}])
    answers += await run_command(fake, alice, "turn status")
    answers += await run_command(fake, alice, "turn undo")  # a player is refused
    shown = "\n".join(texts([a.get("callback", {}).get("data") or a.get("followup")
                              or a.get("edit") or {} for a in answers]))
    assert "Skarg" in shown and "Road" in shown and "not" in shown
    assert not live(shown), live(shown)[:5]
    room = [m["content"] for m in fake.bot_messages(fake.room["id"])]
    assert room and not [t for m in room for t in live(m)]
