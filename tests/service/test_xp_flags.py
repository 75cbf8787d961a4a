"""An Xp game's R2 flags (`xp_*`, RULINGS R2): set by its GM like any setting, listed only in Xp
games, and what every Xp use case hands the Xp core: the GM's rolls, group rolls, the odds asked
in the game, and a turn's resolution. The seed is injected (every roll of these services draws
the same one), so each test rolls the very same dice under two flag values and sees the outcome
change; each roll replays, and becomes a case, under the flags it was rolled with. Runs on the
fake, SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import yaml

from fappo_bot.adjudication.loader import load_case_text
from fappo_bot.adjudication.runner import run_case
from fappo_bot.rules_xp.config import FloorMode
from fappo_bot.service import InvalidInput, Services
from fappo_bot.service.records import Role
from fappo_bot.service.settings_text import RULES_FLAGS, TABLE_SETTINGS, setting_names
from fappo_bot.service.xp_flags import XP_FLAGS
from tests.service.conftest import ALICE, BOB, GM
from tests.service.helpers import snapshot, stored_game
from tests.service.test_xp_play import xp_sheet

#: 12d at -4 from this seed: base [6,6,5,1,2,5,2,3,2,4,5,6], heroic [5,3,4]: three 6s and one 1
FLOOR_SEED = "seed0004"
#: a collateral chain Aster 3d, Brin 2d, Cato 2d (relaunch) from this seed: Aster succeeds, Brin
#: fumbles, Cato fails and relaunches; the relaunch succeeds only with the bonus kept
CHAIN_SEED = "seed0001"


def services_with_seed(uow_factory: Any, clock: Any, seed: str) -> Services:
    """Services whose every roll draws `seed` (ids still unique)."""
    counter = itertools.count(1)
    return Services(uow_factory, clock=clock, ids=lambda: f"id{next(counter):05d}",
                    salts=lambda: seed)


async def xp_game(services: Services, channel: str, **flags: str) -> str:
    game = (await services.games.create(channel_key=channel, name=f"Sands {channel}",
                                        creator=GM, ruleset="xp")).id
    for name, value in flags.items():
        await services.games.set_setting(game, GM, name, value)
    return game


def runs_as_a_case(case: dict[str, Any]) -> None:
    (loaded,) = load_case_text(yaml.safe_dump({"cases": [case]}))
    outcome = run_case(loaded)
    assert outcome.passed, outcome


async def test_an_xp_game_lists_and_takes_its_flags_and_a_fappo_game_its_own(services,
                                                                              uow_factory):
    xp = await xp_game(services, "x1")
    shown = await services.games.settings(xp)
    flags = (await services.games.show(xp)).flags
    assert [s.name for s in shown] == [*TABLE_SETTINGS, *XP_FLAGS] == setting_names(flags)
    values = {s.name: s.value for s in shown}
    assert values == {**values, "xp_sl_floor_mode": "clamp", "xp_heroic_default": "pcs",
                      "xp_tiebreak_max_iterations": "10",
                      "xp_collateral_relaunch_bonus": "reset",
                      "xp_ones_cancel_successes": "off"}
    for name, value in (("xp_sl_floor_mode", "extrapolate"), ("xp_heroic_default", "all"),
                        ("xp_tiebreak_max_iterations", "3"),
                        ("xp_collateral_relaunch_bonus", "keep"),
                        ("xp_ones_cancel_successes", "off")):
        assert (await services.games.set_setting(xp, GM, name, value)).value == value
    view = await stored_game(services, xp)
    assert view.settings.xp.xp_sl_floor_mode is FloorMode.EXTRAPOLATE
    assert view.settings.xp.config().heroic_npc is True
    fappo = (await services.games.create(channel_key="f1", name="Road", creator=GM)).id
    assert [s.name for s in await services.games.settings(fappo)] == [*TABLE_SETTINGS,
                                                                      *RULES_FLAGS]
    before = await snapshot(uow_factory)
    refusals = (
        (xp, "xp_ones_cancel_successes", "on", "X4 Amb-1"),
        (xp, "xp_tiebreak_max_iterations", "-1", "greater than or equal to 0"),
        (xp, "xp_tiebreak_max_iterations", "1000", "less than or equal to 100"),
        (xp, "xp_sl_floor_mode", "down", "write one of clamp, extrapolate, auto_fail"),
        (xp, "pips_enabled", "on", "not played in an Xp game; its flags are xp_"),
        (fappo, "xp_sl_floor_mode", "clamp", "a FAPPO game plays FAPPO's rules flags"),
    )
    for game, name, value, text in refusals:
        with pytest.raises(InvalidInput, match=text):
            await services.games.set_setting(game, GM, name, value)
    assert await snapshot(uow_factory) == before


async def test_the_floor_mode_changes_the_same_roll_below_hopeless(uow_factory, clock):
    """X3 Amb-2 at -4 with the same 12 dice (three 6s, one 1): clamp counts 6x3, one success
    against one 1 (a success); extrapolate counts 6x4, none against one 1 (a fumble); auto_fail
    rolls nothing (a failure). The odds shown in each game follow its flag."""
    services = services_with_seed(uow_factory, clock, FLOOR_SEED)
    rolled = {}
    for mode in ("clamp", "extrapolate", "auto_fail"):
        game = await xp_game(services, mode, xp_sl_floor_mode=mode)
        view = await services.xp_rolls.roll(game, GM, name="Aster", pool=12, sl=-4)
        rolled[mode] = (game, view)
    clamp, extra, auto = (rolled[m][1].record for m in ("clamp", "extrapolate", "auto_fail"))
    assert clamp.base == extra.base and len(clamp.base) == 12
    assert (clamp.s, clamp.o, clamp.outcome.value) == (1, 1, "success")
    assert (extra.s, extra.o, extra.outcome.value) == (0, 1, "fumble")
    assert (auto.rolled, auto.base, auto.outcome.value) == (False, (), "failure")
    # each replays under its own flag, and its case says the flag and passes the adjudicator
    for mode, (game, view) in rolled.items():
        (listed,) = await services.xp_rolls.rolls(game, GM)
        assert listed.outcome == view.record.outcome.value
        case = await services.xp_rolls.case(game, GM, view.id)
        assert case.get("options") == (None if mode == "clamp" else {"xp_sl_floor_mode": mode})
        runs_as_a_case(case)
    odds = {m: await services.xp_rolls.odds(rolled[m][0], "12d -4") for m in rolled}
    assert len(set(odds.values())) == 3
    assert odds["clamp"] == await services.xp_rolls.odds(None, "12d -4")


async def test_the_heroic_default_decides_bonus_dice_and_the_odds(uow_factory, clock):
    """X5 Amb-2: the same 4d [6,6,5,1] gets two heroic dice for a PC by default, none when the
    game makes nobody heroic, and an NPC gets them when the game makes everyone heroic."""
    services = services_with_seed(uow_factory, clock, FLOOR_SEED)
    usual = await xp_game(services, "pcs")
    nobody = await xp_game(services, "none", xp_heroic_default="none")
    everyone = await xp_game(services, "all", xp_heroic_default="all")
    pc = await services.xp_rolls.roll(usual, GM, name="Aster", pool=4)
    plain = await services.xp_rolls.roll(nobody, GM, name="Aster", pool=4)
    npc = await services.xp_rolls.roll(everyone, GM, name="Guard", pool=4, who="npc")
    assert pc.record.base == plain.record.base == npc.record.base == (6, 6, 5, 1)
    assert (pc.heroic, len(pc.record.bonus), pc.record.s) == (True, 2, 4)
    assert (plain.heroic, plain.record.bonus, plain.record.s) == (False, (), 3)
    assert npc.heroic and npc.record.bonus == pc.record.bonus
    # a roll's own word still wins over the game's default
    forced = await services.xp_rolls.roll(nobody, GM, name="Aster", pool=4, heroic=True)
    assert forced.record.bonus == pc.record.bonus
    runs_as_a_case(await services.xp_rolls.case(nobody, GM, plain.id))
    assert await services.xp_rolls.odds(nobody, "4d") == await services.xp_rolls.odds(
        usual, "4d", npc=True) != await services.xp_rolls.odds(usual, "4d")
    assert await services.xp_rolls.odds(everyone, "4d", npc=True) == \
        await services.xp_rolls.odds(usual, "4d")


async def test_the_relaunch_bonus_decides_a_relaunched_chain(uow_factory, clock):
    """X11 Amb-3, the same dice: Cato's relaunch fails when the chain's bonus restarts (reset)
    and succeeds when it keeps the +1d Aster's success gave."""
    services = services_with_seed(uow_factory, clock, CHAIN_SEED)
    shown = {}
    for mode in ("reset", "keep"):
        game = await xp_game(services, mode, xp_collateral_relaunch_bonus=mode)
        shown[mode] = (game, await services.xp_groups.group(
            game, GM, kind="collateral", members="Aster 3d, Brin 2d, Cato 2d relaunch"))
    assert (shown["reset"][1].outcome, shown["keep"][1].outcome) == ("1/3", "2/3")
    game, kept = shown["keep"]
    case = await services.xp_rolls.case(game, GM, kept.id)
    assert case["options"] == {"xp_collateral_relaunch_bonus": "keep"}
    runs_as_a_case(case)
    (listed,) = await services.xp_rolls.rolls(game, GM)
    assert listed.outcome == "2/3"


@pytest.mark.parametrize("iterations", ["0", "2", None])
async def test_a_turns_contest_breaks_ties_as_often_as_the_game_says(uow_factory, clock,
                                                                     iterations):
    """X7: with the same seed for every roller, Nefer's 6d against Khai's 6d tie on every roll,
    so the contest rerolls their unsuccessful dice `xp_tiebreak_max_iterations` times, or until
    no die is left (4 rerolls from this seed, under the default 10), before the players' chosen
    side wins."""
    services = services_with_seed(uow_factory, clock, FLOOR_SEED)
    flags = {} if iterations is None else {"xp_tiebreak_max_iterations": iterations}
    game = await xp_game(services, "xp-1", **flags)
    for player in (ALICE, BOB):
        await services.games.add_member(game, GM, player, Role.PLAYER)
    assert (await services.characters.create_from_data(game, ALICE, xp_sheet("nefer"))).ok
    assert (await services.characters.create_from_data(game, BOB, xp_sheet("khai"))).ok
    await services.turns.open(game, GM)
    assert (await services.turns.post(game, ALICE, channel_key="xp-1", message_key="m1",
                                      text="roll Stealth against Khai")).ok
    review = await services.review.review(game, GM)
    answers = {i.key: {"opponent": "6", "tie": "Khai"}[i.field]
               for i in review.items if i.required}
    await services.review.answer(game, GM, answers)
    done = await services.resolution.resolve(game, GM, 1)
    expected = 4 if iterations is None else int(iterations)
    nefer, khai = (next(r for r in done.rolls if r["name"] == n) for n in ("Nefer", "Khai"))
    assert nefer["dice"] == khai["dice"] and nefer["pool"] == khai["pool"] == 6
    assert len(nefer["rerolls"]) == len(khai["rerolls"]) == expected
    breaks = f"{expected} tie-break{'' if expected == 1 else 's'}"
    assert (f"Khai wins by 0 (still tied at {khai['total']} after {breaks}: the chosen side "
            "wins)") in done.text  # the room reads no rule code
    entries = [e for e in await services.games.audit_log(game, GM) if e.action == "xp.turn"]
    assert entries[0].detail.get("options") == (
        None if iterations is None else {"xp_tiebreak_max_iterations": int(iterations)})


async def test_a_turns_roll_below_hopeless_follows_the_floor_mode(uow_factory, clock):
    """X3 Amb-2 in a turn: the GM's SL of -4 is rolled at Hopeless (clamp) or not at all."""
    services = services_with_seed(uow_factory, clock, FLOOR_SEED)
    results = {}
    for mode in ("clamp", "auto_fail"):
        game = await xp_game(services, f"t-{mode}", xp_sl_floor_mode=mode)
        await services.games.add_member(game, GM, BOB, Role.PLAYER)
        assert (await services.characters.create_from_data(game, BOB, xp_sheet("khai"))).ok
        await services.turns.open(game, GM)
        assert (await services.turns.post(game, BOB, channel_key=f"t-{mode}", message_key="m1",
                                          text="roll Lore: read the seal")).ok
        review = await services.review.review(game, GM)
        keys = {i.field: i.key for i in review.items}
        await services.review.answer(game, GM, {keys["sl"]: "-4",
                                                keys["difficulty"]: "routine"})
        done = await services.resolution.resolve(game, GM, 1)
        (results[mode],) = [r for r in done.rolls if r["name"] == "Khai"]
    assert results["clamp"]["dice"] and results["clamp"]["sl"] == -3  # rolled at Hopeless
    assert results["auto_fail"]["base"] == [] and results["auto_fail"]["outcome"] == "failure"
