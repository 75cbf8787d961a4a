"""A game's own Traits (F2, "others may be introduced"): a GM adds one (name, alternate names,
the skills it suggests), the game's sheets buy it and its posts spend its SP under any of its
names, the review asks no veto of SP on a skill it suggests, the results spend them; a clash
with a rulebook Trait, a word of the post language or a limit is refused in one sentence, and a
Trait a sheet uses is not removed. An export carries the Traits, and an Xp game has none."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from fappo_bot.rules import MAX_CUSTOM_TRAITS, CustomTrait
from fappo_bot.service import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.transfer import copied, dumps, loads
from tests.service.conftest import ALICE, GM

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def kael(**changes):
    found = yaml.safe_load((ROOT / "examples" / "adventure" / "kael.yaml").read_text("utf-8"))
    found.update(changes)
    return found


#: Kael with Keen-eyed instead of Tireless and a point of Lookout instead of Searching: 30 CC
KEEN = {"traits": {"Nimble": 5, "Keen-eyed": 3},
        "skills": {"Swordfighting": 5, "Fisticuffs": 4, "Acrobatics": 3, "Stealth": 2,
                   "Lookout": 1}}


async def post(services, game, text, user=ALICE, message="m1"):
    return await services.turns.post(game, user, channel_key="c1", message_key=message, text=text)


async def test_a_gms_trait_is_bought_spent_reviewed_and_resolved(services, table, uow_factory):
    game = table["game"]
    added = await services.traits.add(game, GM, " Keen-eyed ", "Sharp, Hawk-eyed", "Lookout")
    assert (added.name, added.aliases, added.skills) == ("Keen-eyed", ("Sharp", "Hawk-eyed"),
                                                         ("Lookout",))
    listed = await services.traits.list(game)
    assert [v.name for v in listed][:10][0] == "Brawny" and listed[-1] == added

    edited = await services.characters.edit_from_data(game, GM, "Kael", kael(**KEEN))
    assert edited.ok, edited.problems
    pools = {p.name: (p.left, p.maximum) for p in edited.character.shown.pools}
    assert pools["Keen-eyed"] == (3, 3) and "Tireless" not in pools

    reply = await post(services, game, "2 AP Lookout: scan the ridge, 1 SP sharp")
    assert reply.ok, reply.problems
    assert "1 SP Keen-eyed" in reply.reply and "Keen-eyed 2" in reply.reply

    typo = await post(services, game, "2 AP Lookout: scan, 1 SP Keenly", message="m2")
    assert not typo.ok
    [problem] = typo.problems
    assert 'no Trait called "Keenly"' in problem.message and "Keen-eyed" in (problem.hint or "")

    review = await services.review.review(game, GM)
    assert not [i for i in review.items if i.field == "veto"]  # Lookout's Suggested Trait
    difficulty = next(i for i in review.items if i.field == "difficulty")
    await services.review.answer(game, GM, {difficulty.key: 4})
    await services.resolution.resolve(game, GM, 1)
    async with uow_factory() as uow:
        record = await uow.characters.by_name(game, "Kael")
    assert record.state.traits[CustomTrait("Keen-eyed")] == 2  # stored and read back by name


async def test_sp_of_a_gms_trait_on_another_skill_ask_the_veto(services, table):
    game = table["game"]
    await services.traits.add(game, GM, "Keen-eyed", skills="Lookout")
    assert (await services.characters.edit_from_data(game, GM, "Kael", kael(**KEEN))).ok
    assert (await post(services, game, "2 AP Stealth: sneak, 1 SP Keen-eyed (I see the "
                       "guards first)")).ok
    review = await services.review.review(game, GM)
    assert [i.field for i in review.items if i.field == "veto"] == ["veto"]


async def test_clashes_words_and_limits_are_refused(services, table):
    game = table["game"]
    with pytest.raises(Forbidden):
        await services.traits.add(game, ALICE, "Keen-eyed")
    for name, aliases, skills, words in [
        ("Strong", "", "", 'already a name of the Trait Brawny'),
        ("nimble", "", "", "already the Trait Nimble"),
        ("Keen-eyed", "Agile", "", "a name of the Trait Nimble"),
        ("Iron Will", "", "", "one word"),
        ("Floating", "", "", "a word of the post language"),
        ("K" * 30, "", "", "at most 24 characters"),
        ("Keen-eyed", "Keen-eyed", "", "the Trait's own name"),
        ("Keen-eyed", "", "Searching", "Searching is a rulebook skill"),
        ("Keen-eyed", "A, B, C, D, E", "", "at most 4 alternate names"),
    ]:
        with pytest.raises(InvalidInput, match=words):
            await services.traits.add(game, GM, name, aliases, skills)
    await services.traits.add(game, GM, "Keen-eyed", "Sharp", "Lookout")
    for name, aliases, skills, words in [
        ("keen-EYED", "", "", "already the Trait Keen-eyed"),
        ("Hawkish", "sharp", "", "a name of the Trait Keen-eyed"),
        ("Hawkish", "", "lookout", "already suggested by Keen-eyed"),
    ]:
        with pytest.raises(InvalidInput, match=words):
            await services.traits.add(game, GM, name, aliases, skills)
    for i in range(MAX_CUSTOM_TRAITS - 1):
        await services.traits.add(game, GM, f"Trait{chr(97 + i)}")
    with pytest.raises(InvalidInput, match=f"at most {MAX_CUSTOM_TRAITS} Traits"):
        await services.traits.add(game, GM, "Onemore")


async def test_a_trait_a_sheet_uses_is_not_removed(services, table):
    game = table["game"]
    await services.traits.add(game, GM, "Keen-eyed", skills="Lookout")
    assert (await services.characters.edit_from_data(game, GM, "Kael", kael(**KEEN))).ok
    with pytest.raises(Conflict, match=r"Keen-eyed is not removed: the sheet of Kael uses it"):
        await services.traits.remove(game, GM, "keen-eyed")
    with pytest.raises(InvalidInput, match="Nimble is a rulebook Trait"):
        await services.traits.remove(game, GM, "Agile")
    with pytest.raises(NotFound, match='no Trait of its own called "Hawkish"'):
        await services.traits.remove(game, GM, "Hawkish")
    assert (await services.characters.edit_from_data(game, GM, "Kael", kael())).ok
    removed = await services.traits.remove(game, GM, "Keen-eyed")
    assert removed.name == "Keen-eyed"
    assert [v.name for v in await services.traits.list(game) if not v.builtin] == []
    refused = await services.characters.edit_from_data(game, GM, "Kael", kael(**KEEN))
    assert not refused.ok and any("'Keen-eyed' is no Trait of this game" in p
                                  for p in refused.problems)


async def test_an_export_carries_the_games_traits(services, table, uow_factory):
    game = table["game"]
    await services.traits.add(game, GM, "Keen-eyed", "Sharp", "Lookout")
    assert (await services.characters.edit_from_data(game, GM, "Kael", kael(**KEEN))).ok
    document = loads(dumps(await services.transfer.export(game, GM)))
    ids = iter(range(10_000))
    imported = await services.transfer.import_game(
        copied(document, lambda: f"copy-{next(ids)}", "c9"))
    own = [v for v in await services.traits.list(imported.id) if not v.builtin]
    assert [(v.name, v.aliases, v.skills) for v in own] == [("Keen-eyed", ("Sharp",),
                                                              ("Lookout",))]
    async with uow_factory() as uow:
        record = await uow.characters.by_name(imported.id, "Kael")
    assert record.sheet.traits[CustomTrait("Keen-eyed")] == 3


async def test_an_xp_game_has_no_traits_of_its_own(services):
    xp = await services.games.create(channel_key="xp-1", name="Aegyptvs", creator=GM,
                                     ruleset="xp")
    with pytest.raises(Conflict, match="a game's own Traits are FAPPO's"):
        await services.traits.add(xp.id, GM, "Keen-eyed")
