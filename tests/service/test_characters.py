"""Characters: sheets checked by the rules (F1), GM edits, retire, transfer, NPC-ize (F30)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules.data import Trait
from fappo_bot.service import Conflict, Forbidden, InvalidInput, NewCharacter, NotFound
from fappo_bot.service.records import CharacterKind, CharacterStatus, Role
from fappo_bot.service.views import SpPool
from tests.service.conftest import ALICE, BOB, CAROL, EVE, GM, sheet
from tests.service.helpers import snapshot, stored


@pytest.fixture
async def game(services):
    view = await services.games.create(channel_key="c1", name="A", creator=GM)
    for player in (ALICE, BOB):
        await services.games.add_member(view.id, GM, player, Role.PLAYER)
    return view.id


async def test_a_player_creates_a_pc_from_a_checked_sheet(services, game, uow_factory):
    check = await services.characters.create(game, ALICE, sheet("Kael"))
    assert check.ok and check.character is not None
    kael = check.character
    assert (kael.owner, kael.runner, kael.kind) == (ALICE, ALICE, CharacterKind.PC)
    assert kael.shown.pools[0] == SpPool(name="Nimble", left=5, maximum=5, approved=5)
    assert kael.shown.weapons == ("Broadsword",)
    state = (await stored(uow_factory, game, "Kael")).state
    assert state.traits[Trait.NIMBLE] == 5 and state.trait_max[Trait.NIMBLE] == 5
    assert state.weapon() is not None and state.weapon().name == "Broadsword"
    assert (await services.characters.show(game, "kael")).id == kael.id


async def test_f1_an_overspent_sheet_comes_back_with_every_problem_and_nothing_is_stored(
    services, game, uow_factory
):
    """F1: "Every character starts with 30 character creation points" [F:L19]."""
    before = await snapshot(uow_factory)
    bad = sheet("Kael", skills={"Swordfighting": 9, "Stealth": 9}, weapons=["Laser Banana"],
                armor="mithril")
    check = await services.characters.create(game, ALICE, bad)
    assert not check.ok and check.character is None
    text = " ".join(check.problems)
    assert "Laser Banana" in text and "mithril" in text and "budget" in text
    assert await snapshot(uow_factory) == before


async def test_who_may_create_what(services, game, uow_factory):
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden, match="Only a GM"):
        await services.characters.create(game, ALICE, sheet("Skarg"), kind=CharacterKind.NPC)
    with pytest.raises(Forbidden, match="for yourself"):
        await services.characters.create(game, ALICE, sheet("Kael"), owner=BOB)
    with pytest.raises(Forbidden, match="not in the game"):
        await services.characters.create(game, EVE, sheet("Kael"))
    with pytest.raises(NotFound):
        await services.characters.create("nope", ALICE, sheet("Kael"))
    ready = sheet("Kael").build()
    assert not isinstance(ready, tuple)
    with pytest.raises(Forbidden, match="without a sheet"):
        await services.characters.create(game, ALICE, ready)
    assert await snapshot(uow_factory) == before
    assert (await services.characters.create(game, GM, sheet("Kael"), owner=BOB)).ok
    with pytest.raises(Conflict, match="already a character called"):
        await services.characters.create(game, ALICE, sheet("Kael", name="KAEL"))


async def test_enemies_and_groups_are_the_gms(services, game):
    goblins = (await services.characters.add_enemy(game, GM, sheet("Goblins"))).character
    skarg = (await services.characters.add_enemy(game, GM, sheet("Skarg"))).character
    assert goblins.kind is CharacterKind.GROUP and goblins.shown.count == 8
    assert skarg.kind is CharacterKind.ENEMY and skarg.owner is None and skarg.runner is None
    assert (await services.characters.set_count(game, GM, "Goblins", 5)).shown.count == 5
    with pytest.raises(Conflict, match="not a group"):
        await services.characters.set_count(game, GM, "Skarg", 2)
    with pytest.raises(InvalidInput):
        await services.characters.set_count(game, GM, "Goblins", -1)
    with pytest.raises(InvalidInput, match="group"):
        await services.characters.create(game, GM, sheet("Skarg", name="Grob"),
                                         kind=CharacterKind.GROUP)


async def test_a_gm_edit_keeps_wounds_and_spent_sp(services, game, uow_factory):
    await services.characters.create(game, ALICE, sheet("Kael"))
    async with uow_factory() as uow:  # Kael took a hit and spent 2 Nimble SP
        record = await uow.characters.by_name(game, "Kael")
        state = replace(record.state, health=2, traits={Trait.NIMBLE: 3, Trait.TIRELESS: 3})
        await uow.characters.update(record.model_copy(update={
            "state": state, "version": record.version + 1}))
        await uow.commit()
    with pytest.raises(Forbidden):
        await services.characters.edit(game, ALICE, "Kael", sheet("Kael"))
    edited = sheet("Kael", skills={"Swordfighting": 5, "Fisticuffs": 3, "Acrobatics": 3,
                                   "Stealth": 3, "Searching": 1})
    check = await services.characters.edit(game, GM, "Kael", edited)
    assert check.ok, check.problems
    kael = check.character
    skills = dict(kael.shown.skills)
    assert skills["Stealth"] == 3 and skills["Fisticuffs"] == 3
    assert (await stored(uow_factory, game, "Kael")).state.health == 2
    nimble = kael.shown.pools[0]  # 2 spent of 5 stay spent
    assert (nimble.name, nimble.left, nimble.approved) == ("Nimble", 3, 5)
    bad = await services.characters.edit(game, GM, "Kael", sheet("Kael", skills={"Stealth": 40}))
    assert not bad.ok and bad.problems


async def test_retire_transfer_npcize_restore(services, game, uow_factory):
    await services.characters.create(game, ALICE, sheet("Kael"))
    await services.characters.create(game, BOB, sheet("Mira"))
    with pytest.raises(Forbidden, match="player or a GM"):
        await services.characters.retire(game, BOB, "Kael")
    with pytest.raises(Conflict, match="not in this game"):
        await services.characters.transfer(game, GM, "Kael", CAROL)
    moved = await services.characters.transfer(game, GM, "Kael", BOB, permanent=False)
    assert (moved.owner, moved.runner) == (ALICE, BOB)
    npc = await services.characters.npcize(game, GM, "Kael")
    assert npc.runner is None and npc.gm_controlled
    with pytest.raises(Conflict, match="already run by the GMs"):
        await services.characters.npcize(game, GM, "Kael")
    back = await services.characters.restore_control(game, GM, "Kael")
    assert back.runner == ALICE and not back.gm_controlled
    given = await services.characters.transfer(game, GM, "Kael", BOB)
    assert (given.owner, given.runner) == (BOB, BOB)
    retired = await services.characters.retire(game, GM, "Mira")
    assert retired.status is CharacterStatus.RETIRED
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="retired"):
        await services.characters.retire(game, BOB, "Mira")
    with pytest.raises(NotFound, match="no character called"):
        await services.characters.npcize(game, GM, "Nobody")
    assert await snapshot(uow_factory) == before
    assert [c.name for c in await services.characters.list(game)] == ["Kael"]
    assert len(await services.characters.list(game, include_retired=True)) == 2


async def test_a_retired_name_is_free_for_a_new_character(services, game, uow_factory):
    """A character added to the wrong player and retired can be added again under its name;
    the retired one is kept, renamed. A name held by an active character stays taken."""
    await services.characters.create(game, GM, sheet("Kael"), owner=ALICE)
    with pytest.raises(Conflict, match="already a character"):
        await services.characters.create(game, GM, sheet("Kael"), owner=BOB)
    for _ in range(2):
        await services.characters.retire(game, GM, "Kael")
        again = await services.characters.create(game, GM, sheet("Kael"), owner=BOB)
        assert again.ok and again.character is not None and again.character.owner == BOB
    everyone = await services.characters.list(game, include_retired=True)
    assert sorted(c.name for c in everyone) == ["Kael", "Kael (retired 2)", "Kael (retired)"]
    kept = await services.characters.show(game, "Kael (retired)")
    assert kept.status is CharacterStatus.RETIRED
    assert (await stored(uow_factory, game, "Kael (retired)")).state.name == "Kael (retired)"


async def test_from_dict_reports_unreadable_sheets(services):
    with pytest.raises(InvalidInput, match="cannot be read"):
        NewCharacter.from_dict({"name": "X", "traits": "lots", "count": -2})


@pytest.mark.unit
def test_an_unknown_field_of_a_sheets_part_is_named_as_an_unknown_field():
    """A legendary item is a rules dataclass: its unknown field reads as a model's does."""
    with pytest.raises(InvalidInput) as refused:
        NewCharacter.from_dict({"name": "X", "legendary": [{"item": "Longsword", "colour": 1}]})
    assert refused.value.problems == (
        "sheet.legendary.0.colour: Extra inputs are not permitted",)


async def test_an_enemys_sheet_is_shown_to_gms_only_when_the_service_knows_who_asks(
    services, game
):
    await services.characters.create(game, ALICE, sheet("Kael"))
    assert (await services.characters.add_enemy(game, GM, sheet("Skarg"))).ok
    # a player sees a player character's sheet, even another player's
    assert (await services.characters.show(game, "Kael", BOB)).name == "Kael"
    with pytest.raises(Forbidden, match="Skarg's sheet is for the GMs only"):
        await services.characters.show(game, "skarg", ALICE)
    assert (await services.characters.show(game, "Skarg", GM)).kind is CharacterKind.ENEMY
    # the operator and the service's own callers name no viewer
    assert (await services.characters.show(game, "Skarg")).name == "Skarg"


async def test_f19_a_plaser_comes_charged_an_edit_keeps_the_charge_and_ammo_recharges(
    services, game, uow_factory
):
    """F19: "A plaser has a battery with 'ammo' 10". A new sheet's plaser is full; a GM's edit
    keeps what is left unless it gives `ammo`, which recharges the battery."""
    check = await services.characters.create(game, ALICE, sheet("Kael", weapons=["Plaser 4"]))
    assert check.ok, check.problems
    assert (await stored(uow_factory, game, "Kael")).state.ammo == 10
    plain = await services.characters.create(game, BOB, sheet("Mira"))
    assert plain.ok and (await stored(uow_factory, game, "Mira")).state.ammo is None  # no plaser, no battery to track
    async with uow_factory() as uow:  # two setting-4 shots fired
        record = await uow.characters.by_name(game, "Kael")
        await uow.characters.update(record.model_copy(update={
            "state": replace(record.state, ammo=2),
            "version": record.version + 1}))
        await uow.commit()
    kept = await services.characters.edit(game, GM, "Kael", sheet("Kael", weapons=["Plaser 4"]))
    assert kept.ok and (await stored(uow_factory, game, "Kael")).state.ammo == 2
    full = await services.characters.edit(game, GM, "Kael",
                                          sheet("Kael", weapons=["Plaser 4"], ammo=10))
    assert full.ok and (await stored(uow_factory, game, "Kael")).state.ammo == 10
    with pytest.raises(InvalidInput):
        sheet("Kael", weapons=["Plaser 4"], ammo=11)
