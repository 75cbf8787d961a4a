"""The GM's rulings the review asks (R1): the end of combat when someone bleeds (F18.2), fires put
out (F18.4 Amb-1) and creatures freed (F18.15), a mind spell's mood difficulty and flooded mind
(F25), Freeze heat (F18.15 Amb-1), keeping hold of an impaling weapon (F18.12 Amb-2), the
Dismemberment part (F18.8) and the Poison profile (F18.6 Amb-1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules.character import Status, StatusKind
from fappo_bot.service import InvalidInput, NewCharacter
from tests.service.conftest import GM
from tests.service.helpers import resolved, stored

BATTERED, INCAPACITATED = 2, 4


async def afflict(uow_factory, game, name, *statuses, health=None):
    """Give a character statuses (as a fight before this turn would have)."""
    async with uow_factory() as uow:
        record = await uow.characters.by_name(game, name)
        state = replace(record.state, statuses=statuses,
                        health=record.state.health if health is None else health)
        await uow.characters.update(record.model_copy(update={
            "state": state, "version": record.version + 1}))
        await uow.commit()


async def questions(services, game):
    review = await services.review.review(game, GM)
    return {(i.actor, i.field): i for i in review.items}


async def post(services, game, user, key, text):
    reply = await services.turns.post(game, user, channel_key="c1", message_key=key, text=text)
    assert reply.ok, reply.reply
    return reply


async def test_f18_2_the_review_asks_whether_the_combat_ends_when_someone_bleeds(
    services, table, uow_factory
):
    """F18.2: the victim of Bleeding "will drop to Incapacitated at the end of combat"."""
    game = table["game"]
    assert ("", "end_combat") not in await questions(services, game)
    await afflict(uow_factory, game, "Kael", Status(kind=StatusKind.BLEEDING, source="Skarg"),
                  health=BATTERED)
    item = (await questions(services, game))[("", "end_combat")]
    assert not item.required and "Kael bleeding" in item.question
    assert item.default is not None and item.default.startswith("no")
    await services.review.answer(game, GM, {item.key: "yes"})
    await resolved(services, game, GM, 1)
    kael = await stored(uow_factory, game, "Kael")
    assert kael.state.health == INCAPACITATED
    assert kael.state.statuses[0].restore_to == BATTERED


async def test_f18_2_the_gms_end_of_combat_is_the_questions_default(services, table,
                                                                    uow_factory):
    game = table["game"]
    await afflict(uow_factory, game, "Kael", Status(kind=StatusKind.BLEEDING, source="Skarg"))
    await services.review.set_inputs(game, GM, end_combat=True)
    item = (await questions(services, game))[("", "end_combat")]
    assert item.default == "yes: the GM ended it"
    await resolved(services, game, GM, 1)
    assert (await stored(uow_factory, game, "Kael")).state.health == INCAPACITATED


async def test_f18_4_and_f18_15_fire_put_out_and_freed_are_asked_of_whom_they_concern(
    services, table, uow_factory
):
    game = table["game"]
    await afflict(uow_factory, game, "Kael", Status(kind=StatusKind.BURNING, source="Skarg"))
    await afflict(uow_factory, game, "Mira", Status(kind=StatusKind.FROZEN, source="Skarg",
                                                    elapsed=0))
    items = await questions(services, game)
    assert not items[("Kael", "extinguished")].required
    assert not items[("Mira", "freed")].required
    with pytest.raises(InvalidInput, match="Answer yes or no"):
        await services.review.answer(game, GM, {items[("Kael", "extinguished")].key: "maybe"})
    await services.review.answer(game, GM, {items[("Kael", "extinguished")].key: "yes",
                                            items[("Mira", "freed")].key: "yes"})
    result = await resolved(services, game, GM, 1)
    assert (await stored(uow_factory, game, "Kael")).state.statuses == ()
    assert (await stored(uow_factory, game, "Mira")).state.statuses == ()
    assert not any(e.kind == "tick" and e.target == "Kael" for e in result.result.events)


ZARA = {"name": "Zara", "sheet": {"tier": "lieutenant", "traits": {"Uncanny": 3},
                                  "skills": {"Spellcasting": 5},
                                  "spells": [{"name": "Flee", "effects": {"mind_insert": True}}]},
        "position": 1}


async def test_f25_a_mind_spells_mood_difficulty_is_required_and_reaches_the_attack_stage(
    services, table, uow_factory
):
    """F25: the attack stage of mind magic is against the GM's mood difficulty M."""
    game = table["game"]
    assert (await services.characters.add_enemy(game, GM, NewCharacter.model_validate(
        ZARA))).ok
    await post(services, game, GM, "g1", "**Zara**\n2 AP cast Flee at Kael")
    items = await questions(services, game)
    mood = items[("Zara", "mood")]
    assert mood.required and "mood difficulty" in mood.question
    assert not items[("Zara", "flooded")].required
    with pytest.raises(InvalidInput, match="whole number"):
        await services.review.answer(game, GM, {mood.key: "angry"})
    await services.review.answer(game, GM, {mood.key: "10", items[("Zara", "flooded")].key:
                                            "yes"})
    result = await resolved(services, game, GM, 1)
    cast = next(a for a in result.result.actions if a.actor == "Zara")
    # learned: floor(6 / 2) = 3, at 1 Range 4, and the flooded mind's +2 (F25)
    assert cast.difficulty == 3 + 1 + 2
    assert cast.targets[0].difficulty == 10
    assert not any("mood difficulty is needed" in n for a in result.result.actions
                   for n in a.notes)


def enemy(name, weapon):
    return NewCharacter.model_validate({
        "name": name, "weapons": [weapon], "position": 0,
        "sheet": {"tier": "lieutenant", "traits": {"Brawny": 3},
                  "skills": {"Swordfighting": 5}}})


async def test_f18_dismemberment_part_and_keeping_hold_are_asked_of_the_weapons_with_them(
    services, table, uow_factory
):
    """F18.8: the GM picks the part; F18.12 Amb-2: an impaling weapon leaves the hand unless the
    attacker keeps hold of it (a GM input)."""
    game = table["game"]
    for name, weapon in (("Duelist", "Lightsword"), ("Spearman", "Spear")):
        assert (await services.characters.add_enemy(game, GM, enemy(name, weapon))).ok
    await post(services, game, GM, "g1", "**Duelist**\n2 AP attack Kael with Lightsword\n"
                                         "**Spearman**\n2 AP attack Mira with Spear using Swordfighting")
    items = await questions(services, game)
    part, hold = items[("Duelist", "part")], items[("Spearman", "hold")]
    assert not part.required and part.default == "none named"
    assert not hold.required and hold.default == "no: it stays in the victim"
    assert ("Duelist", "hold") not in items and ("Spearman", "part") not in items
    with pytest.raises(InvalidInput, match="up to 100 characters"):
        await services.review.answer(game, GM, {part.key: "x" * 101})
    review = await services.review.answer(game, GM, {part.key: "sword arm", hold.key: "yes"})
    assert {(i.actor, i.field): i.answer for i in review.items}[("Duelist", "part")] == \
        "sword arm"
    await resolved(services, game, GM, 1)


GOOD_CASE = ("2 AP Pickpocket on Skarg: lift his purse\n1 AP attack Skarg with Dagger\n"
             "Good case: the purse hangs from his sword belt, cut in one stroke")


async def test_f8_a_good_case_lets_a_post_mix_concentration_with_an_attack_if_the_gm_accepts(
    services, table
):
    """F8: a concentration action cannot be mixed with others "unless the player can make a
    good case"; the GM rules on it in the review."""
    game = table["game"]
    refused = await services.turns.post(game, "bob", channel_key="c1", message_key="m0",
                                        text=GOOD_CASE.rsplit("\n", 1)[0])
    assert not refused.ok and "Good case:" in refused.reply
    reply = await post(services, game, "bob", "m1", GOOD_CASE)
    assert "Good case (for the GM to rule on): the purse hangs" in reply.reply
    item = (await questions(services, game))[("Mira", "good_case")]
    assert item.required and item.index is None and item.choices == ("accept", "refuse")
    await services.review.answer(game, GM, {item.key: "accept"})
    result = await resolved(services, game, GM, 1)
    assert [a.kind for a in result.result.actions if a.actor == "Mira"] == ["skill", "attack"]
    assert not result.result.errors


async def test_f8_a_refused_good_case_refuses_the_order_as_posted(services, table):
    game = table["game"]
    await post(services, game, "bob", "m1", GOOD_CASE)
    item = (await questions(services, game))[("Mira", "good_case")]
    await services.review.answer(game, GM, {item.key: "refuse"})
    result = await resolved(services, game, GM, 1)
    assert [e.code.value for e in result.result.errors if e.actor == "Mira"] == [
        "concentration-conflict"]


async def test_f14_a_healing_check_posted_in_a_turn_halves_the_patients_time(
    services, table, uow_factory
):
    """F14: "Successful use of the Healing skill ... will cut the time to heal one level in
    half ... must result in a Solid Success or better" [F:L201]: posted in a turn, with its SP."""
    from tests.service.conftest import CAROL, sheet

    game = table["game"]
    assert (await services.characters.create(game, CAROL, sheet("Bran"))).ok
    await afflict(uow_factory, game, "Kael", health=BATTERED)
    healing = "3 AP Healing on Kael: stitch the cut, 1 SP floating"
    # orders that concern another player's character go by DM (F29)
    assert (await services.turns.post(game, CAROL, channel_key="dm-carol", message_key="b1",
                                      text=healing, secret=True)).ok
    result = await resolved(services, game, GM, 1)
    kael = await stored(uow_factory, game, "Kael")
    assert kael.state.heal_checked and kael.state.heal_halved
    [event] = [e for e in result.result.events if e.kind == "healing_check"]
    assert event.character == "Kael" and "halves the time to heal Battered" in event.detail
    # one check a level (F14): a second one is refused, and says why
    assert (await services.turns.post(game, CAROL, channel_key="dm-carol", message_key="b2",
                                      text="3 AP Healing on Kael", secret=True)).ok
    again = await resolved(services, game, GM, 2)
    assert any(e.kind == "healing_refused" and "once per health level" in e.detail
               for e in again.result.events)


async def test_f18_6_a_sheets_weapon_carries_its_poison_and_the_review_does_not_ask_it(
    services, table, uow_factory
):
    """RULINGS F18.6 Amb-1: the weapon data gives the profile; a sheet's weapon entry carries
    it (and the Special); the review asks only where none is given."""
    game = table["game"]
    asp = NewCharacter.from_dict({
        "name": "Asp", "tier": "lieutenant", "traits": {"Clever": 3},
        "skills": {"Knife Fighting": 5}, "position": 0,
        "weapons": [{"name": "Dagger", "poison": {"kind": "nerve", "penalty": 3, "ap_loss": 1,
                                                  "duration": 2}}]})
    assert (await services.characters.add_enemy(game, GM, asp)).ok
    bad = NewCharacter.from_dict({**asp.model_dump(mode="json", exclude={"sheet"}),
                                  "name": "Bad", "tier": "lieutenant",
                                  "traits": {"Clever": 3}, "skills": {"Knife Fighting": 5},
                                  "weapons": [{"name": "Dagger", "poison": {"kind": "sleepy"}}]})
    refused = await services.characters.add_enemy(game, GM, bad)
    assert not refused.ok and "mortal, nerve or custom" in " ".join(refused.problems)
    await post(services, game, GM, "g1", "**Asp**\n3 AP attack Mira with Dagger going for Poison")
    items = await questions(services, game)
    assert ("Asp", "profile") not in items and ("Asp", "flat_footed") in items
    await services.review.answer(game, GM, {items[("Asp", "flat_footed")].key: "yes"})
    await resolved(services, game, GM, 1)
    mira = await stored(uow_factory, game, "Mira")
    [poison] = [s for s in mira.state.statuses if s.kind is StatusKind.POISONED]
    assert (poison.note, poison.penalty, poison.ap_loss) == ("nerve", 3, 1)
