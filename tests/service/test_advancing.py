"""F28: banked CC spent at the creation prices, a player asking and a GM approving."""

from __future__ import annotations

import pytest

from fappo_bot.service import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.advance_text import describe, parse_change
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, BOB, GM
from tests.service.helpers import snapshot

pytestmark = pytest.mark.integration


async def banked(services, game, awards):
    await services.resolution.resolve(game, GM, 1)
    await services.aftermath.end_adventure(game, GM, awards)


def skills(view):
    return dict(view.shown.skills)


async def test_f28_a_players_change_waits_for_a_gm_and_is_spent_when_approved(
        services, table, uow_factory):
    """[F:L467] "These points may be used to raise skills or saved to buy new Traits"."""
    game = table["game"]
    await banked(services, game, {"Kael": 3})
    asked = await services.advancement.ask(game, ALICE, "kael", "Stealth +1")
    assert (asked.applied, asked.cost, asked.banked, asked.change) == (
        False, 1, 3, "Stealth +1")
    kael = await services.characters.show(game, "Kael", GM)
    assert skills(kael)["Stealth"] == 2 and kael.shown.unspent_cc == 3  # nothing spent yet
    [waiting] = await services.advancement.waiting(game, GM)
    assert waiting.id == asked.id and waiting.cost == 1
    with pytest.raises(Forbidden):
        await services.advancement.approve(game, ALICE, asked.id)
    done = await services.advancement.approve(game, GM, asked.id)
    assert done.applied and skills(done.after)["Stealth"] == 3 and done.after.shown.unspent_cc == 2
    assert await services.advancement.waiting(game, GM) == []
    with pytest.raises(NotFound, match="approved or refused already"):
        await services.advancement.approve(game, GM, asked.id)


async def test_f28_a_gms_change_is_made_at_once_and_a_refusal_spends_nothing(
        services, table, uow_factory):
    game = table["game"]
    await banked(services, game, {"Kael": 3, "Mira": 3})
    done = await services.advancement.ask(game, GM, "Kael", "Stealth +2")
    assert done.applied and done.after.shown.unspent_cc == 1
    asked = await services.advancement.ask(game, BOB, "Mira", "Stealth +1")
    with pytest.raises(Conflict, match="already has a change waiting"):
        await services.advancement.ask(game, BOB, "Mira", "Stealth +2")
    before = await services.characters.show(game, "Mira", GM)
    refused = await services.advancement.refuse(game, GM, "mira")
    assert refused.id == asked.id and not refused.applied
    assert await services.characters.show(game, "Mira", GM) == before


async def test_a_bad_change_is_refused_when_asked_and_nothing_is_stored(
        services, table, uow_factory):
    game = table["game"]
    await banked(services, game, {"Kael": 1})
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match="costs 5 CC but Kael has 1 banked"):
        await services.advancement.ask(game, ALICE, "Kael", "trait Brawny")
    with pytest.raises(InvalidInput, match="creation"):
        await services.advancement.ask(game, ALICE, "Kael", "package Elf")
    with pytest.raises(InvalidInput, match="is no change; write"):
        await services.advancement.ask(game, ALICE, "Kael", "more swords please")
    with pytest.raises(Forbidden, match="Kael's player or a GM"):
        await services.advancement.ask(game, BOB, "Kael", "Stealth +1")
    assert await snapshot(uow_factory) == before


async def test_an_approval_checks_again_and_a_refused_one_stays_waiting(
        services, table, uow_factory):
    game = table["game"]
    await banked(services, game, {"Kael": 1})
    asked = await services.advancement.ask(game, ALICE, "Kael", "Stealth +1")
    await services.advancement.ask(game, GM, "Kael", "Searching +1")  # the GM spends it first
    with pytest.raises(InvalidInput, match="costs 1 CC but Kael has 0 banked"):
        await services.advancement.approve(game, GM, asked.id)
    assert [w.id for w in await services.advancement.waiting(game, GM)] == [asked.id]


async def test_f22_a_legendary_item_is_bought_with_cc_after_creation(services, table):
    """F22 Amb-7: "Making an item legendary after creation ... costs advancement CC"."""
    game = table["game"]
    await banked(services, game, {"Kael": 2})
    done = await services.advancement.ask(game, GM, "Kael", "legendary Longsword: accuracy, damage")
    assert done.cost == 2 and done.after.shown.unspent_cc == 0


@pytest.mark.parametrize(("text", "kind", "name", "points"), [
    ("Swordfighting +1", "skill", "Swordfighting", 1),
    ("  swordfighting  +2 ", "skill", "swordfighting", 2),
    ("Nimble +2 SP", "trait_sp", "Nimble", 2),
    ("Agile SP +1", "trait_sp", "Agile", 1),
    ("Nimble +1", "trait_sp", "Nimble", 1),
    ("trait Tireless", "trait", "Tireless", 1),
    ("floating +1", "floating", None, 1),
    ("AP +1", "ap", None, 1),
    ("package Elf", "package", "Elf", 1),
])
def test_change_lines(text, kind, name, points):
    purchase = parse_change(text)
    assert (purchase.kind.value, purchase.name, purchase.points) == (kind, name, points)


@pytest.mark.parametrize("text", ["Swordfighting +2", "Nimble +2 SP", "trait Tireless",
                                  "floating +1", "AP +1", "package Elf",
                                  "legendary Longsword: accuracy, special: Fire, damage"])
def test_a_described_change_reads_back_as_the_same_purchase(text):
    """A waiting request is kept in these words and read again when a GM approves it."""
    purchase = parse_change(text)
    assert parse_change(describe(purchase)) == purchase


@pytest.mark.parametrize("text", ["", "Stealth", "Stealth +0", "trait", "legendary Sword",
                                  "Stealth SP +1", "x" * 300])
def test_a_bad_change_line_names_what_is_expected(text):
    with pytest.raises(InvalidInput, match="Swordfighting \\+1|short line|Say what"):
        parse_change(text)


async def test_ask_is_for_members_only(services, table):
    game = table["game"]
    await services.games.add_member(game, GM, "dave", Role.PLAYER)
    with pytest.raises(Forbidden):
        await services.advancement.ask(game, "dave", "Kael", "Stealth +1")


async def test_f22_an_approved_legendary_purchase_is_recorded(services, table):
    game = table["game"]
    await banked(services, game, {"Kael": 1})
    asked = await services.advancement.ask(game, ALICE, "Kael", "legendary Broadsword: damage")
    done = await services.advancement.approve(game, GM, asked.id)
    assert done.applied and done.cost == 1
    [item] = await services.legendary.items(game, GM)
    assert (item.item, item.owner, item.holder) == ("Broadsword", "Kael", "Kael")
    assert await services.advancement.waiting(game, GM) == []


async def test_f28_a_games_own_trait_is_bought_at_the_rulebooks_price_and_caps(
        services, table, uow_factory):
    """F2 "others may be introduced that follow the same general pattern" [F:L40]: 5 CC for
    3 SP, extra SP 1 CC each up to the tier's cap (F1), asked under an alternate name."""
    game = table["game"]
    await services.traits.add(game, GM, "Keen-eyed", "Sharp", "Lookout")
    await banked(services, game, {"Kael": 3})
    await services.aftermath.end_adventure(game, GM, {"Kael": 3})
    with pytest.raises(InvalidInput, match="'Keen-eyd' is no Trait of this game. Did you "
                                           "mean Keen-eyed\\?"):
        await services.advancement.ask(game, ALICE, "Kael", "trait Keen-eyd")
    with pytest.raises(InvalidInput, match='"Keen-eyd" is no Trait, so it has no SP to raise. '
                                           "Did you mean Keen-eyed\\?"):
        await services.advancement.ask(game, ALICE, "Kael", "Keen-eyd +1 SP")
    asked = await services.advancement.ask(game, ALICE, "Kael", "trait sharp")
    assert (asked.change, asked.cost, asked.banked) == ("trait sharp", 5, 6)
    done = await services.advancement.approve(game, GM, asked.id)
    pools = {p.name: (p.left, p.maximum) for p in done.after.shown.pools}
    assert pools["Keen-eyed"] == (3, 3) and done.after.shown.unspent_cc == 1
    for _ in range(2):
        await services.aftermath.end_adventure(game, GM, {"Kael": 3})
    with pytest.raises(InvalidInput, match="already owns Keen-eyed"):
        await services.advancement.ask(game, GM, "Kael", "trait Keen-eyed")
    raised = await services.advancement.ask(game, GM, "Kael", "Sharp +1 SP")
    assert raised.change == "Sharp +1 SP" and raised.cost == 1
    await services.advancement.ask(game, GM, "Kael", "Keen-eyed +1 SP")
    with pytest.raises(InvalidInput, match="Keen-eyed would have 6 SP; the cap is 5"):
        await services.advancement.ask(game, GM, "Kael", "Keen-eyed +1 SP")
    skill = await services.advancement.ask(game, GM, "Kael", "Lookout +1")
    assert skills(skill.after)["Lookout"] == 1  # the skill it suggests is on the menu
