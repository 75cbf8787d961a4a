"""Scene end (F27), adventure end with advancement and the tournament ledger (F28)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules.advancement import Purchase, PurchaseKind
from fappo_bot.rules.data import Trait
from fappo_bot.service import Conflict, Forbidden, InvalidInput, SceneGap
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, BOB, GM, sheet
from tests.service.helpers import snapshot, stored_game


def left(view):
    """The SP each Trait's pool of a character has now, as a reader is shown them."""
    return {p.name: p.left for p in view.shown.pools}


async def spend(uow_factory, game, name, **state):
    """Put a character in a spent state (as after a fight)."""
    async with uow_factory() as uow:
        record = await uow.characters.by_name(game, name)
        await uow.characters.update(record.model_copy(update={
            "state": replace(record.state, **state), "version": record.version + 1}))
        await uow.commit()


async def test_f27_a_nights_rest_restores_3_sp_as_the_player_allocates(
    services, table, uow_factory
):
    """F27: "3 pts: Next scene happens after a good night's rest" [F:L454-461]."""
    game = table["game"]
    await services.resolution.resolve(game, GM, 1)  # turn 2 open: between turns
    await spend(uow_factory, game, "Kael", traits={Trait.NIMBLE: 1, Trait.TIRELESS: 0},
                floating=0)
    views = await services.aftermath.end_scene(game, GM, SceneGap.NIGHT,
                                               {"kael": {"Nimble": 2, "Tireless": 1}})
    kael = next(v for v in views if v.name == "Kael")
    assert left(kael) == {"Nimble": 3, "Tireless": 1} and kael.shown.floating.left == 0
    assert (await stored_game(services, game)).settings.scene == 2


async def test_f27_without_an_allocation_the_largest_deficit_goes_first(
    services, table, uow_factory
):
    game = table["game"]
    await spend(uow_factory, game, "Kael", traits={Trait.NIMBLE: 1, Trait.TIRELESS: 2},
                floating=1)
    views = await services.aftermath.end_scene(game, GM, SceneGap.SAME_DAY)
    kael = next(v for v in views if v.name == "Kael")
    assert left(kael) == {"Nimble": 3, "Tireless": 2}


async def test_bad_rest_commands_change_nothing(services, table, uow_factory):
    game = table["game"]
    await spend(uow_factory, game, "Kael", traits={Trait.NIMBLE: 1, Trait.TIRELESS: 0})
    before = await snapshot(uow_factory)
    # over-allocation is clipped, never refused (F27 amendment); a pool Kael lacks is refused
    with pytest.raises(InvalidInput, match="Kael"):
        await services.aftermath.end_scene(game, GM, SceneGap.IMMEDIATE,
                                           {"Kael": {"Highborn": 1}})
    with pytest.raises(InvalidInput, match="Nobody"):
        await services.aftermath.end_scene(game, GM, SceneGap.NIGHT, {"Nobody": {"Nimble": 1}})
    with pytest.raises(Forbidden):
        await services.aftermath.end_scene(game, ALICE, SceneGap.NIGHT)
    await services.calltime.close(game, GM)
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="closed"):
        await services.aftermath.end_scene(game, GM, SceneGap.NIGHT)
    assert await snapshot(uow_factory) == before


async def test_f28_adventure_end_banks_awards_and_refills_every_pool(
    services, table, uow_factory
):
    """F28: "each character receives a small number of character creation points (no more
    than 3)" [F:L467]."""
    game = table["game"]
    await spend(uow_factory, game, "Kael", traits={Trait.NIMBLE: 0, Trait.TIRELESS: 0},
                floating=0)
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match="0 to 3"):
        await services.aftermath.end_adventure(game, GM, {"Kael": 4})
    with pytest.raises(InvalidInput, match="Only player characters"):
        await services.aftermath.end_adventure(game, GM, {"Skarg": 1})
    assert await snapshot(uow_factory) == before
    views = await services.aftermath.end_adventure(game, GM, {"Kael": 3, "Mira": 1})
    kael = next(v for v in views if v.name == "Kael")
    assert kael.shown.unspent_cc == 3
    assert left(kael) == {"Nimble": 5, "Tireless": 3} and kael.shown.floating.left == 1
    assert (await stored_game(services, game)).settings.adventure == 2
    raised = await services.aftermath.spend_cc(
        game, ALICE, "Kael", Purchase(kind=PurchaseKind.SKILL, name="Stealth", points=1))
    assert dict(raised.shown.skills)["Stealth"] == 3 and raised.shown.unspent_cc == 2
    with pytest.raises(InvalidInput, match="Kael"):
        await services.aftermath.spend_cc(
            game, ALICE, "Kael", Purchase(kind=PurchaseKind.SKILL, name="Stealth", points=9))
    with pytest.raises(Forbidden):
        await services.aftermath.spend_cc(
            game, BOB, "Kael", Purchase(kind=PurchaseKind.SKILL, name="Stealth", points=1))


async def test_f28_tournament_points_follow_the_player_into_new_games(services):
    """F28: "The player receives one CC point upon the successful completion of an adventure"
    ... "These points may accumulate forever" [F:L469]."""
    first = await services.games.create(channel_key="t1", name="Cup 1", creator=GM,
                                        settings={"tournament": True})
    await services.games.add_member(first.id, GM, ALICE, Role.PLAYER)
    await services.characters.create(first.id, ALICE, sheet("Kael"))
    await services.aftermath.end_adventure(first.id, GM, {"Kael": 0})
    await services.aftermath.end_adventure(first.id, GM, {}, completed=False)
    ledger = await services.aftermath.ledger(ALICE)
    assert ledger.total == 1 and len(ledger.entries) == 1
    second = await services.games.create(channel_key="t2", name="Cup 2", creator=GM,
                                         settings={"tournament": True})
    await services.games.add_member(second.id, GM, ALICE, Role.PLAYER)
    # 31 CC: one more skill point than the 30 of a fresh character
    richer = sheet("Kael", skills={"Swordfighting": 5, "Fisticuffs": 4, "Acrobatics": 3,
                                   "Stealth": 3, "Searching": 1})
    check = await services.characters.create(second.id, ALICE, richer)
    assert check.ok, check.problems
    plain = await services.games.create(channel_key="t3", name="Casual", creator=GM)
    await services.games.add_member(plain.id, GM, ALICE, Role.PLAYER)
    assert not (await services.characters.create(plain.id, ALICE, richer)).ok


async def test_f27_amb2_a_players_declaration_is_used_at_the_scene_end(
    services, table, uow_factory
):
    """F27 Amb-2: "the player's declaration; if none arrives by the GM's deadline, the engine
    allocates"."""
    game = table["game"]
    await spend(uow_factory, game, "Kael", traits={Trait.NIMBLE: 1, Trait.TIRELESS: 0},
                floating=0)
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match='no SP pool "Brawny"'):
        await services.aftermath.declare_rest(game, ALICE, "Kael", {"Brawny": 1})
    with pytest.raises(Forbidden):
        await services.aftermath.declare_rest(game, BOB, "Kael", {"Tireless": 2})
    assert await snapshot(uow_factory) == before
    assert await services.aftermath.declare_rest(game, ALICE, "Kael", {"Agile": 1}) == {
        "Nimble": 1}  # a Trait's alternate name (F1) names its pool
    assert await services.aftermath.declare_rest(game, ALICE, "Kael",
                                                 {"tireless": 2, "floating": 0}) == {
        "Tireless": 2}
    views = await services.aftermath.end_scene(game, GM, SceneGap.SAME_DAY)
    kael = next(v for v in views if v.name == "Kael")
    assert left(kael) == {"Nimble": 1, "Tireless": 2}
    assert (await stored_game(services, game)).settings.rest_declarations == {}
