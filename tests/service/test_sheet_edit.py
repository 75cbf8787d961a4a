"""A GM's sheet edit from a sheet as written (`edit_from_data`): checked like a new sheet, the
character's state kept (health, spent SP, statuses, banked CC; an Xp character's Luck and plot
points), what changed listed, and the audit log told."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from fappo_bot.rules import Status, StatusKind
from fappo_bot.service import Forbidden, InvalidInput
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, BOB, GM

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def data(folder: str, name: str, **changes):
    found = yaml.safe_load((ROOT / "examples" / folder / f"{name}.yaml").read_text("utf-8"))
    found.update(changes)
    return found


async def test_a_gms_edit_keeps_the_state_and_lists_what_changed(services, table, uow_factory):
    game = table["game"]
    await services.resolution.resolve(game, GM, 1)
    await services.aftermath.end_adventure(game, GM, {"Kael": 2})
    kael = await services.characters.show(game, "Kael", GM)
    nimble = kael.shown.pools[0]
    async with uow_factory() as uow:
        record = await uow.characters.by_name(game, "Kael")
        traits = {t: v - 2 if t.value == "Nimble" else v for t, v in record.state.traits.items()}
        state = replace(record.state, health=2, statuses=(Status(StatusKind.PRONE),),
                        traits=traits)
        await uow.characters.update(record.model_copy(update={"state": state,
                                                              "version": record.version + 1}))
        await uow.commit()
    new = data("adventure", "kael", skills={"Swordfighting": 5, "Fisticuffs": 3,
                                            "Acrobatics": 3, "Stealth": 3, "Searching": 1},
               armor="light")
    reply = await services.characters.edit_from_data(game, GM, "kael", new)
    assert reply.ok, reply.problems
    assert reply.changes == ("skill Fisticuffs: 4 -> 3", "skill Stealth: 2 -> 3",
                             "armor: medium -> light")
    shown = reply.character.shown
    assert shown.unspent_cc == 2 and shown.statuses == ("prone",)
    assert (shown.pools[0].left, shown.pools[0].maximum) == (nimble.maximum - 2, nimble.maximum)
    async with uow_factory() as uow:
        assert (await uow.characters.by_name(game, "Kael")).state.health == 2
        entries = [e for e in await uow.audit.list(game) if e.action == "character.edit"]
    assert entries and entries[-1].detail["changes"] == list(reply.changes)


async def test_a_bad_sheet_or_a_player_changes_nothing(services, table, uow_factory):
    game = table["game"]
    before = await services.characters.show(game, "Kael", GM)
    with pytest.raises(Forbidden):
        await services.characters.edit_from_data(game, ALICE, "Kael", data("adventure", "kael"))
    with pytest.raises(Forbidden):  # told only that GMs edit sheets, not what is wrong
        await services.characters.edit_from_data(game, ALICE, "Kael", {"name": "Kael", "x": 1})
    bad = await services.characters.edit_from_data(
        game, GM, "Kael", data("adventure", "kael", skills={"Stealth": 9}))
    assert not bad.ok and bad.problems
    with pytest.raises(InvalidInput, match="cannot be read"):
        await services.characters.edit_from_data(game, GM, "Kael", {"name": "Kael", "hp": 3})
    assert await services.characters.show(game, "Kael", GM) == before


async def test_an_xp_edit_keeps_luck_and_plot_points(services):
    game = await services.games.create(channel_key="xp-1", name="Aegyptvs", creator=GM,
                                       ruleset="xp")
    await services.games.add_member(game.id, GM, BOB, Role.PLAYER)
    made = await services.characters.create_from_data(game.id, BOB, data("xp-adventure",
                                                                          "nefer"))
    assert made.ok, made.problems
    edited = data("xp-adventure", "nefer", luck=5, plot_points=4,
                  flaws=["Cannot resist a wager"],
                  skills={"Stealth": "master BODY", "Acrobatics": "master BODY"})
    reply = await services.characters.edit_from_data(game.id, GM, "Nefer", edited)
    assert reply.ok, reply.problems
    assert (reply.character.xp.luck, reply.character.xp.plot_points) == (1, 1)
    assert "skill Stealth: Advanced (BODY) -> Master (BODY)" in reply.changes
    assert "skill Lockpicking: removed (was Normal (MIND))" in reply.changes
    assert "flaws: Cannot resist a wager, Fears the jackal god -> Cannot resist a wager" in \
        reply.changes
    bad = await services.characters.edit_from_data(game.id, GM, "Nefer",
                                                   {"name": "Nefer", "who": "pc",
                                                    "characteristics": {"BODY": 99}})
    assert not bad.ok and bad.problems
