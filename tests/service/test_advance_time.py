"""The GM's "advance time" (F7 Amb-7 GM input `advance_time(seconds)`): healing by F14 and F15."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules.character import Status, StatusKind
from fappo_bot.rules.healing import HealingCheck
from fappo_bot.service import Conflict, Forbidden, InvalidInput
from fappo_bot.service.aftermath import MAX_ADVANCE_SECONDS, duration
from tests.service.conftest import ALICE, GM
from tests.service.helpers import actions, snapshot

STAGGERED, BATTERED, DYING = 1, 2, 5


async def wound(uow_factory, game, name, health, **state):
    """Put a character at a level of the standard track (as after a fight)."""
    async with uow_factory() as uow:
        record = await uow.characters.by_name(game, name)
        await uow.characters.update(record.model_copy(update={
            "state": replace(record.state, health=health, **state),
            "version": record.version + 1}))
        await uow.commit()


async def state_of(uow_factory, game, name):
    async with uow_factory() as uow:
        return await uow.characters.by_name(game, name)


async def notices(uow_factory, game):
    async with uow_factory() as uow:
        return [m.content for m in await uow.outbox.for_game(game) if m.kind == "time_advanced"]


async def test_f14_battered_heals_to_staggered_after_ten_minutes(services, table, uow_factory):
    """F14: "After the amount of time listed under "Heal," the character will regain one health
    level" [F:L178]: Battered 10 min (60 turns)."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    before = await state_of(uow_factory, game, "Kael")
    healed = await services.aftermath.advance_time(game, GM, 600)
    assert [(h.name, h.start_level, h.level, h.seconds_to_next) for h in healed] == [
        ("Kael", "Battered", "Staggered", 10)]
    after = await state_of(uow_factory, game, "Kael")
    assert after.state.health == STAGGERED and after.version == before.version + 1
    assert await notices(uow_factory, game) == [
        "10 min pass.\nKael: Battered -> Staggered; next level in 10 s"]
    assert (await actions(uow_factory, game))[-1] == "time.advance"


async def test_f14_battered_is_healthy_after_ten_minutes_and_one_turn(
    services, table, uow_factory
):
    """F14 HEAL: Battered 10 min, then Staggered 1 turn (10 s): 610 s in all."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    healed = await services.aftermath.advance_time(game, GM, 610)
    assert [(h.level, h.levels_healed, h.seconds_to_next) for h in healed] == [
        ("Healthy", 2, None)]
    assert (await state_of(uow_factory, game, "Kael")).state.health == 0
    assert await notices(uow_factory, game) == [
        "10 min 10 s pass.\nKael: Battered -> Healthy"]


async def test_f14_time_short_of_a_level_is_banked(services, table, uow_factory):
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    await services.aftermath.advance_time(game, GM, 599)
    assert (await state_of(uow_factory, game, "Kael")).state.health == BATTERED
    healed = await services.aftermath.advance_time(game, GM, 1)
    assert healed[0].level == "Staggered"


async def test_f15_dying_not_stabilized_does_not_heal(services, table, uow_factory):
    """F15: "Success stabilizes the character at Dying, allowing him to heal as normal"
    [F:L180]: not stabilized, no healing."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", DYING)
    healed = await services.aftermath.advance_time(game, GM, 31 * 86400)
    assert [(h.level, h.levels_healed, h.seconds_to_next) for h in healed] == [
        ("Dying", 0, None)]
    assert (await state_of(uow_factory, game, "Kael")).state.health == DYING
    assert "Kael: still Dying; does not heal by time until stabilized" in (
        await notices(uow_factory, game))[0]


async def test_f15_stabilized_dying_heals_to_incapacitated_in_thirty_days(
    services, table, uow_factory
):
    game = table["game"]
    await wound(uow_factory, game, "Kael", DYING,
                statuses=(Status(kind=StatusKind.STABILIZED),))
    healed = await services.aftermath.advance_time(game, GM, 30 * 86400)
    assert healed[0].level == "Incapacitated"
    assert healed[0].seconds_to_next == 14 * 86400


async def test_f14_a_solid_healing_check_halves_battered_to_five_minutes(
    services, table, uow_factory
):
    """F14: "Successful use of the Healing skill ... will cut the time to heal one level in half
    (5 minutes instead of 10 to move from Battered to Staggered, for instance)" [F:L201]."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    healed = await services.aftermath.advance_time(
        game, GM, 300, checks={"kael": HealingCheck(total=4, healer="Mira")})
    assert [(h.level, h.check) for h in healed] == [("Staggered", "Solid Success")]
    assert "(Healing check: Solid Success)" in (await notices(uow_factory, game))[0]


async def test_f14_a_bare_success_does_not_halve(services, table, uow_factory):
    """F14: the check "must result in a Solid Success or better" [F:L201]."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    healed = await services.aftermath.advance_time(
        game, GM, 300, checks={"Kael": HealingCheck(total=3, healer="Mira")})
    assert (healed[0].level, healed[0].seconds_to_next) == ("Battered", 300)


async def test_f14_no_self_check_and_one_check_per_level(services, table, uow_factory):
    """F14 Amb-5 (only "an assisting character") and Amb-3 ("once per health level")."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput) as refused:
        await services.aftermath.advance_time(
            game, GM, 60, checks={"Kael": HealingCheck(total=9, healer="Kael")})
    assert "an assisting character" in str(refused.value)
    assert await snapshot(uow_factory) == before
    await services.aftermath.advance_time(
        game, GM, 60, checks={"Kael": HealingCheck(total=2, healer="Mira")})  # a failure
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput) as again:
        await services.aftermath.advance_time(
            game, GM, 60, checks={"Kael": HealingCheck(total=9, healer="Mira")})
    assert "once per health level" in str(again.value)
    assert await snapshot(uow_factory) == before


async def test_non_gm_and_bad_input_are_refused_and_nothing_changes(
    services, table, uow_factory
):
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden, match="Only a GM"):
        await services.aftermath.advance_time(game, ALICE, 600)
    for seconds in (-1, MAX_ADVANCE_SECONDS + 1):
        with pytest.raises(InvalidInput, match="0 to"):
            await services.aftermath.advance_time(game, GM, seconds)
    with pytest.raises(InvalidInput, match="Nobody in this game is called Zed"):
        await services.aftermath.advance_time(game, GM, 600, checks={"Zed": HealingCheck(total=5)})
    with pytest.raises(InvalidInput, match="nobody in this game is called Zed"):
        await services.aftermath.advance_time(
            game, GM, 600, checks={"Kael": HealingCheck(total=5, healer="Zed")})
    with pytest.raises(InvalidInput, match="Mira is Healthy: there is no level to heal"):
        await services.aftermath.advance_time(game, GM, 600,
                                              checks={"Mira": HealingCheck(total=5)})
    with pytest.raises(InvalidInput, match="one Healing check per patient"):
        await services.aftermath.advance_time(game, GM, 600, checks={
            "Kael": HealingCheck(total=5, healer="Mira"),
            "kael": HealingCheck(total=6, healer="Mira")})
    with pytest.raises(InvalidInput, match="fodder"):
        await services.aftermath.advance_time(game, GM, 600,
                                              checks={"Goblins": HealingCheck(total=5)})
    assert await snapshot(uow_factory) == before


async def test_time_passes_between_turns_only(services, table, uow_factory):
    """F7 Amb-7: not while the open turn has posts, nor while a closed turn awaits resolution."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", BATTERED)
    reply = await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                                      text="Kael waits.\n1 AP defend")
    assert reply.ok, reply.reply
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="already has posts"):
        await services.aftermath.advance_time(game, GM, 600)
    assert await snapshot(uow_factory) == before
    await services.calltime.close(game, GM)
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="closed"):
        await services.aftermath.advance_time(game, GM, 600)
    assert await snapshot(uow_factory) == before
    await services.resolution.resolve(game, GM, 1)  # turn 2 open, no posts yet: between turns
    # the resolved turn ran Battered's clock 10 s (F14 Amb-1 amendment): 590 s more heal it
    healed = await services.aftermath.advance_time(game, GM, 590)
    assert healed[0].level == "Staggered"


async def test_nobody_wounded_still_reports_the_time(services, table, uow_factory):
    game = table["game"]
    assert await services.aftermath.advance_time(game, GM, 3600) == []
    assert await notices(uow_factory, game) == ["1 h pass.\nNobody is wounded."]


async def test_f14_staggered_needs_no_check_and_the_notice_says_so(
    services, table, uow_factory
):
    """F14 Amb-8: Staggered and Unaffected have no difficulty: no check is made."""
    game = table["game"]
    await wound(uow_factory, game, "Kael", STAGGERED)
    healed = await services.aftermath.advance_time(
        game, GM, 5, checks={"Kael": HealingCheck(total=9, healer="Mira")})
    assert (healed[0].level, healed[0].check) == ("Staggered", None)
    assert (await notices(uow_factory, game)) == [
        "5 s pass.\nKael: still Staggered (Staggered needs no Healing check: no check was "
        "made); next level in 5 s"]


@pytest.mark.unit
def test_durations_read_as_people_write_them():
    assert [duration(s) for s in (0, 10, 600, 610, 86400, 14 * 86400 + 3661)] == [
        "0 s", "10 s", "10 min", "10 min 10 s", "1 d", "14 d 1 h 1 min 1 s"]
