"""F22 in play: a legendary item changes hands at the GM's word, a holder binds it with one
creation point, the owner is told only that it was bound, and the owner's reclaim breaks every
binding."""

from __future__ import annotations

import pytest

from fappo_bot.service import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, BOB, GM, sheet

pytestmark = pytest.mark.integration


async def weapon(services, game, name, weapon="Broadsword"):
    view = await services.characters.show(game, name, GM)
    return next((w for w in view.shown.weapons if w == weapon), None)


async def accuracy(uow_factory, game, name, weapon="Broadsword"):
    async with uow_factory() as uow:
        record = await uow.characters.by_name(game, name)
    found = record.state.weapon(weapon)
    return None if found is None else found.accuracy


@pytest.fixture
async def game(services):
    made = await services.games.create(channel_key="c1", name="Sword Road", creator=GM)
    for player in (ALICE, BOB):
        await services.games.add_member(made.id, GM, player, Role.PLAYER)
    kael = sheet("Kael", budget=31, legendary=[{"item": "Broadsword", "upgrades": ["accuracy"]}])
    assert (await services.characters.create(made.id, ALICE, kael)).ok
    assert (await services.characters.create(made.id, BOB, sheet("Mira"))).ok
    return made.id


async def test_f22_the_item_changes_hands_is_bound_and_reclaimed(services, game, uow_factory):
    """[F:L358] "Characters can use someone else's legendary item, but the item must be
    "bound" before any special powers are available ... The original owner can reclaim a bound
    item simply by taking it into his possession. This will also break the previous
    character's binding.\""""
    [item] = await services.legendary.items(game, GM)
    assert (item.owner, item.holder, item.powers) == ("Kael", "Kael", True)
    assert await accuracy(uow_factory, game, "Kael") == 1
    taken = await services.legendary.hand_over(game, GM, "broadsword", "Mira")
    assert (taken.holder, taken.powers) == ("Mira", False)
    assert await accuracy(uow_factory, game, "Kael") is None  # no longer carried
    assert await accuracy(uow_factory, game, "Mira") == 0  # the base weapon only
    with pytest.raises(InvalidInput, match="no banked CC"):
        await services.legendary.bind_item(game, BOB, "Mira", "Broadsword")
    with pytest.raises(Forbidden, match="does not hold"):
        await services.legendary.bind_item(game, ALICE, "Kael", "Broadsword")
    bound = await services.legendary.bind_item(game, BOB, "Mira", "Broadsword",
                                               sacrifice="Stealth")
    assert (bound.powers, bound.sacrificed, bound.bound_to) == (True, "1 point of Stealth",
                                                                 ("Mira",))
    assert await accuracy(uow_factory, game, "Mira") == 1
    mira = await services.characters.show(game, "Mira", GM)
    assert dict(mira.shown.skills)["Stealth"] == 3
    told = [m for m in await services.outbox.for_game(game) if m.kind == "item_bound"]
    assert [m.dest_key for m in told] == [ALICE]
    assert "Kael's legendary item 'Broadsword' has been bound to another" in told[0].content
    assert "Mira" not in told[0].content  # no identity, no place
    back = await services.legendary.hand_over(game, GM, "Broadsword", "Kael")
    assert (back.holder, back.powers, back.broken, back.bound_to) == ("Kael", True,
                                                                      ("Mira",), ())
    assert await accuracy(uow_factory, game, "Kael") == 1
    assert await accuracy(uow_factory, game, "Mira") is None


async def test_a_hand_over_names_a_recorded_item_and_only_a_gm_gives_it(services, game):
    with pytest.raises(Forbidden):
        await services.legendary.hand_over(game, ALICE, "Broadsword", "Mira")
    with pytest.raises(NotFound, match="No legendary item called 'Excalibur'"):
        await services.legendary.hand_over(game, GM, "Excalibur", "Mira")
    with pytest.raises(Conflict, match="already has"):
        await services.legendary.hand_over(game, GM, "Broadsword", "Kael")


async def test_f22_an_item_bought_with_cc_is_recorded(services, game):
    await services.turns.open(game, GM)
    await services.resolution.resolve(game, GM, 1)
    await services.aftermath.end_adventure(game, GM, {"Mira": 1})
    await services.advancement.ask(game, GM, "Mira", "legendary Dagger: damage")
    items = {i.item: i for i in await services.legendary.items(game, GM)}
    assert items["Dagger"].owner == "Mira" and items["Dagger"].powers


async def test_f22_a_posts_bind_line_binds_the_item_as_the_turn_resolves(
        services, game, uow_factory):
    await services.legendary.hand_over(game, GM, "Broadsword", "Mira")
    await services.turns.open(game, GM)
    with pytest.raises(Forbidden, match="does not hold a legendary item called 'Longsword'"):
        await services.turns.post(game, BOB, channel_key="c1", message_key="m0",
                                  text="Bind: Longsword\n1 AP defend")
    with pytest.raises(InvalidInput, match="no banked CC"):
        await services.turns.post(game, BOB, channel_key="c1", message_key="m0",
                                  text="Bind: Broadsword\n1 AP defend")
    reply = await services.turns.post(game, BOB, channel_key="c1", message_key="m1",
                                      text="Mira takes up the blade.\n"
                                           "Bind: Broadsword (sacrificing 1 Stealth)\n"
                                           "1 AP defend")
    assert reply.ok and "Bind Broadsword (sacrificing 1 point: Stealth" in reply.reply
    assert await accuracy(uow_factory, game, "Mira") == 0  # not before the turn resolves
    await services.resolution.resolve(game, GM, 1)
    assert await accuracy(uow_factory, game, "Mira") == 1
    mira = await services.characters.show(game, "Mira", GM)
    assert dict(mira.shown.skills)["Stealth"] == 3
    assert [m.dest_key for m in await services.outbox.for_game(game)
            if m.kind == "item_bound"] == [ALICE]
    # undone and resolved again: the binding stays, and is not made (nor paid) twice
    await services.resolution.undo(game, GM)
    await services.resolution.resolve(game, GM, 1)
    mira = await services.characters.show(game, "Mira", GM)
    assert dict(mira.shown.skills)["Stealth"] == 3
