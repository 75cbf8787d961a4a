"""`/char edit` on Discord: a GM's new sheet file for a character, checked, its state kept,
what changed said privately; a player is refused and nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.table import EXAMPLES, run_command, set_up_game

pytestmark = pytest.mark.e2e


async def edit(fake, user, character: str, text: str, filename: str = "kael2.yaml"
               ) -> dict[str, Any]:
    attachment = fake.attachment(filename, text.encode("utf-8"))
    options = [{"type": 3, "name": "character", "value": character},
               {"type": 11, "name": "sheet", "value": attachment["id"]}]
    [answer] = await run_command(fake, user, "char edit", options,
                                 {"attachments": {attachment["id"]: attachment}})
    return answer["callback"]["data"]


KAEL = (EXAMPLES / "kael.yaml").read_text(encoding="utf-8")


async def test_a_gms_sheet_edit_says_what_changed_and_keeps_the_wounds(running, fake) -> None:
    await set_up_game(fake)
    game_id = await running.bot.rooms.game_id(fake.room["id"])
    async with running.services.deps.uow_factory() as uow:
        record = await uow.characters.by_name(game_id, "Kael")
        from dataclasses import replace
        await uow.characters.update(record.model_copy(update={
            "state": replace(record.state, health=2), "version": record.version + 1}))
        await uow.commit()
    new = KAEL.replace("Stealth: 2, Searching: 1", "Stealth: 3").replace("armor: medium",
                                                                         "armor: light")
    data = await edit(fake, fake.gm, "Kael", new)
    assert data["flags"] & 64
    assert data["content"].splitlines() == [
        "Kael's sheet is edited (its state is kept):",
        "- skill Stealth: 2 -> 3", "- skill Searching: removed (was 1)",
        "- armor: medium -> light"]
    assert data["embeds"]  # the new sheet
    async with running.services.deps.uow_factory() as uow:
        assert (await uow.characters.by_name(game_id, "Kael")).state.health == 2
    same = await edit(fake, fake.gm, "Kael", new)
    assert same["content"] == "Kael's sheet is unchanged."


async def test_a_bad_sheet_and_a_players_edit_change_nothing(running, fake) -> None:
    await set_up_game(fake)
    game_id = await running.bot.rooms.game_id(fake.room["id"])
    before = await running.services.characters.show(game_id, "Kael", fake.gm["id"])
    refused = await edit(fake, fake.alice, "Kael", KAEL)
    assert refused["flags"] & 64 and "GM" in refused["content"]
    bad = await edit(fake, fake.gm, "Kael", KAEL.replace("Stealth: 2", "Stealth: 9"))
    assert bad["flags"] & 64 and "Kael's sheet was not accepted" in bad["content"]
    broken = await edit(fake, fake.gm, "Kael", "name: [Kael")
    assert broken["flags"] & 64 and "kael2.yaml" in broken["content"]
    assert await running.services.characters.show(game_id, "Kael", fake.gm["id"]) == before


XP = Path(__file__).resolve().parents[2] / "examples" / "xp-adventure"


async def test_an_xp_sheet_edit_keeps_luck_and_plot_points(running, fake) -> None:
    await run_command(fake, fake.gm, "game create", [
        {"type": 3, "name": "name", "value": "Sands"}, {"type": 3, "name": "ruleset",
                                                       "value": "xp"}])
    nefer = (XP / "nefer.yaml").read_text(encoding="utf-8")
    attachment = fake.attachment("nefer.yaml", nefer.encode("utf-8"))
    await run_command(fake, fake.gm, "char add", [
        {"type": 11, "name": "sheet", "value": attachment["id"]},
        {"type": 6, "name": "player", "value": fake.alice["id"]}],
        {"attachments": {attachment["id"]: attachment}, "users": {fake.alice["id"]: fake.alice}})
    data = await edit(fake, fake.gm, "Nefer", nefer.replace("Stealth: advanced BODY",
                                                            "Stealth: master BODY")
                      .replace("luck: 1", "luck: 4"), "nefer2.yaml")
    assert data["flags"] & 64
    assert data["content"].splitlines() == [
        "Nefer's sheet is edited (its state is kept):",
        "- skill Stealth: Advanced (BODY) -> Master (BODY)"]
    game_id = await running.bot.rooms.game_id(fake.room["id"])
    view = await running.services.characters.show(game_id, "Nefer", fake.gm["id"])
    assert view.xp.luck == 1
