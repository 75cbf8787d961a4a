"""The GM's Xp rolls beyond the ad-hoc roll: Passive rolls with stored successes and
Active rolls against them (RULINGS X7), group rolls (X10, X11), PLOTs (X14), and every roll's
record and case file, for the GMs only. Every use case runs on the fake, SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
import yaml

from fappo_bot.adjudication.loader import load_case_text
from fappo_bot.adjudication.runner import run_case
from fappo_bot.service import Forbidden, InvalidInput, NotFound
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, GM


async def _xp_game(services):
    game = await services.games.create(channel_key="xp-1", name="Aegyptvs", creator=GM,
                                       ruleset="xp")
    await services.games.add_member(game.id, GM, ALICE, Role.PLAYER)
    return game


def _runs_as_a_case(case):
    (loaded,) = load_case_text(yaml.safe_dump({"cases": [case]}))
    outcome = run_case(loaded)
    assert outcome.passed, outcome


async def test_a_passive_roll_stores_its_successes_and_an_active_roll_must_beat_them(services):
    """X7: "The number of successes is deducted from any future attempts": an Active roll needs
    P + 1; the table sees nothing of the Passive roll and only success or failure of the Active
    one (Amb-8)."""
    game = await _xp_game(services)
    lock = await services.xp_rolls.passive(game.id, GM, name="Lock", pool=8, who="npc")
    p = 0 if lock.record.fumble else lock.record.s
    assert lock.stored == p and lock.kind == "passive"
    assert lock.shown.public == ""
    assert f"Stored successes: {p}" in lock.shown.gm
    pick = await services.xp_rolls.active(game.id, GM, against="lock", name="Aster", pool=6)
    assert (pick.stored, pick.against, pick.record.need) == (p, "Lock", p + 1)
    assert pick.record.success == (not pick.record.fumble and pick.record.s >= p + 1)
    assert pick.shown.public.startswith("Aster rolls 6d at Normal (5-6) against Lock: Aster ")
    assert "[" not in pick.shown.public and "stored" not in pick.shown.public
    assert f"stored {p}" in pick.shown.gm
    # by id too, and a name that is no Passive roll is refused
    again = await services.xp_rolls.active(game.id, GM, against=lock.id, name="Brin", pool=2)
    assert again.stored == p
    with pytest.raises(NotFound):
        await services.xp_rolls.active(game.id, GM, against="gem", name="Brin", pool=2)


@pytest.mark.parametrize("kind", ["assisted", "spontaneous", "collateral"])
async def test_a_group_roll_is_stored_replayed_and_becomes_a_case(services, kind):
    game = await _xp_game(services)
    shown = await services.xp_groups.group(
        game.id, GM, kind=kind, members="Aster 6d, Brin 4d superior, Guard 3d npc")
    assert shown.kind == kind and shown.name == "Aster"
    assert shown.public.startswith(
        f"{kind.capitalize()} group roll, need 1 (Aster, Brin, Guard)")
    assert "Seed salt" in shown.gm and "Seed" not in shown.public
    (listed,) = await services.xp_rolls.rolls(game.id, GM)
    assert (listed.id, listed.public, listed.outcome) == (shown.id, shown.public, shown.outcome)
    _runs_as_a_case(await services.xp_rolls.case(game.id, GM, shown.id))


async def test_group_roll_refusals_are_sentences(services):
    game = await _xp_game(services)
    for members, kind, text in (("Aster 6d", "assisted", "2 to 20"),
                                ("Aster 6d, Aster 3d", "spontaneous", "named twice"),
                                ("Aster six, Brin 3d", "collateral", "Not a roller"),
                                ("Aster 3d relaunch, Brin 3d", "assisted", "collateral"),
                                ("Aster 3d, Brin 3d", "parallel", "assisted, spontaneous")):
        with pytest.raises(InvalidInput, match=text) as refused:
            await services.xp_groups.group(game.id, GM, kind=kind, members=members)
        assert str(refused.value)[0].isupper() and str(refused.value).endswith(".")


async def test_a_plot_from_open_to_end(services):
    """X14, the gate example's events: pp and gpp move as the rules say, the table never sees
    the GM's unused surprise, and the PLOT becomes an `xp-plot` case."""
    game = await _xp_game(services)
    opened = await services.xp_plots.open(
        game.id, GM, goal="Open the gate", leader="Aster 30d", gm_pool=30,
        tasks="sneak, climb, gatehouse, open gate", surprises="gate commander")
    assert "gate commander" in opened.gm and "gate commander" not in opened.public
    assert opened.outcome == "in-progress"
    plot = services.xp_plots
    with pytest.raises(InvalidInput, match="right after"):
        await plot.event(game.id, GM, event="surprise", task="gate commander")
    with pytest.raises(InvalidInput, match="not the next task"):
        await plot.event(game.id, GM, event="auto", task="climb")
    await plot.event(game.id, GM, event="auto", task="sneak")
    shown = await plot.event(game.id, GM, event="surprise", task="gate commander",
                             before="open gate")
    assert "gate commander: to play, a surprise" in shown.public
    await plot.event(game.id, GM, event="play", task="climb", success=False)
    await plot.event(game.id, GM, event="play", task="gatehouse", success=True)
    await plot.event(game.id, GM, event="play", task="gate commander", success=True, bonus=1)
    await plot.event(game.id, GM, event="auto", task="open gate", countered=True)
    end = await plot.event(game.id, GM, event="play", task="open gate", success=True)
    assert end.outcome == "success"
    case = await services.xp_rolls.case(game.id, GM, opened.id)
    pp, gpp = case["expect"]["pp"], case["expect"]["gpp"]
    first = (await plot.show(game.id, GM)).gm
    assert f"Plot points {pp}, GM points {gpp}." in first
    _runs_as_a_case(case)
    assert case["expect"]["order"] == ["sneak", "climb", "gatehouse", "gate commander",
                                       "open gate"]


async def test_records_are_for_the_gms_only(services):
    game = await _xp_game(services)
    view = await services.xp_rolls.roll(game.id, GM, name="Aster", pool=4)
    for call in (services.xp_rolls.rolls(game.id, ALICE),
                 services.xp_rolls.show(game.id, ALICE, view.id),
                 services.xp_rolls.case(game.id, ALICE, view.id),
                 services.xp_rolls.passive(game.id, ALICE, name="Lock", pool=4),
                 services.xp_groups.group(game.id, ALICE, kind="spontaneous",
                                          members="A 1d, B 1d"),
                 services.xp_plots.open(game.id, ALICE, goal="g", leader="A 3d", gm_pool=3,
                                        tasks="t")):
        with pytest.raises(Forbidden, match="Only a GM"):
            await call
    shown = await services.xp_rolls.show(game.id, GM, view.id[:5])
    assert shown.gm.startswith("Aster: 4d at Normal (5-6)")
    with pytest.raises(InvalidInput, match="at least 4"):
        await services.xp_rolls.show(game.id, GM, "id")
    with pytest.raises(NotFound, match="no roll"):
        await services.xp_rolls.show(game.id, GM, "zzzzzz")
    with pytest.raises(NotFound, match="no PLOT"):
        await services.xp_plots.show(game.id, GM)


@pytest.mark.unit
def test_odds_read_the_roll_as_the_command_line_does(capsys):
    """`/odds 6d superior` and `fappo-bot odds 6d superior` print the same table."""
    from fappo_bot.cli import main
    from fappo_bot.service.xp_odds import odds_text

    assert main(["odds", "6d", "superior"]) == 0
    assert odds_text("6d superior") == capsys.readouterr().out.rstrip("\n")
    assert odds_text("3", heroic=False).startswith("3d at Normal (5-6), not heroic, need 1")
    for bad, text in (("", "how many dice"), ("six", "Six|not a number"),
                      ("4d mighty", "Unknown superiority"), ("500d", "200|100")):
        with pytest.raises(InvalidInput, match=text):
            odds_text(bad)
    with pytest.raises(InvalidInput, match="at least 1 success"):
        odds_text("4d", need=0)


@pytest.mark.unit
def test_a_relaunch_is_shown_where_it_was_paid():
    """X11: D finds the chain broken and relaunches it; B fails and relaunches himself."""
    from fappo_bot.render_xp import render_members
    from fappo_bot.rules_xp.dice import DiceStream
    from fappo_bot.rules_xp.group import Member, collateral
    from fappo_bot.rules_xp.rollers import Roller

    def member(name, pool, faces, relaunch=False):
        return Member(Roller(name, DiceStream(faces), pool, heroic=False),
                      luck=1 if relaunch else 0, relaunches=1 if relaunch else 0)

    broken = collateral([member("A", 1, [2]), member("D", 1, [5], relaunch=True)])
    assert render_members("collateral", broken).splitlines()[1].startswith(
        "D relaunches the chain with Good Luck: 1d")
    again = collateral([member("B", 1, [3, 5], relaunch=True)])
    lines = render_members("collateral", again).splitlines()
    assert lines[0].startswith("B: 1d") and lines[1].startswith("B relaunches the chain with Good Luck")


async def test_nothing_live_leaves_the_xp_use_cases(services):
    """The mention guard for the Xp GM rolls: names, tasks and goals written as mentions come back inert
    from every Xp use case (values and refusals), and every one of them is called."""
    import inspect

    from fappo_bot.service.xp_group import XpGroupService
    from fappo_bot.service.xp_plots import XpPlotService
    from fappo_bot.service.xp_rolls import XpRollService
    from tests.service.test_guard_walk import KAEL, PROSE, SKARG, Recorder

    game = (await _xp_game(services)).id
    s = Recorder(services)
    roll = await s.xp_rolls.roll(game, GM, name=KAEL, pool=3)
    await s.xp_rolls.passive(game, GM, name=SKARG, pool=3)
    await s.xp_rolls.active(game, GM, against=SKARG, name=PROSE, pool=3)
    await s.xp_rolls.active(game, GM, against="@everyone", name=PROSE, pool=3)  # refused
    await s.xp_groups.group(game, GM, kind="collateral", members=f"{KAEL} 2d, @here 2d relaunch")
    await s.xp_groups.group(game, GM, kind="@everyone", members="a 1d, b 1d")  # refused
    await s.xp_plots.open(game, GM, goal=PROSE, leader=f"{KAEL} 30d", gm_pool=3,
                          tasks=f"{SKARG}, @everyone", surprises="@here")
    await s.xp_plots.event(game, GM, event="auto", task=SKARG)
    await s.xp_plots.event(game, GM, event="play", task="<@1>", success=True)  # refused
    await s.xp_plots.show(game, GM)
    await s.xp_plots.tasks(game, GM)
    await s.xp_plots.tasks(game, GM, hidden=True)
    await s.xp_rolls.rolls(game, GM)
    await s.xp_rolls.show(game, GM, roll.id)
    await s.xp_rolls.stored_roll(game, GM, roll.id)
    await s.xp_rolls.case(game, GM, roll.id)
    await s.xp_rolls.show(game, GM, "<@123456>")  # refused
    await s.xp_rolls.odds(game, "3d superior")
    await s.xp_rolls.odds(game, "@everyone 3d")  # refused
    expected = {f"{group}.{name}"
                for group, kind in (("xp_rolls", XpRollService), ("xp_groups", XpGroupService),
                                    ("xp_plots", XpPlotService))
                for name, value in inspect.getmembers(kind)
                if not name.startswith("_") and inspect.iscoroutinefunction(value)}
    assert expected - s.called == set()
    assert not s.leaks, s.leaks[:5]


async def test_an_exported_copy_keeps_its_rolls_and_plot(services):
    """The rolls live in the audit log, which an export carries; a copy under new ids keeps the
    PLOT's events tied to their PLOT, and every record still replays from its seed."""
    import itertools

    from fappo_bot.service.transfer import copied

    game = await _xp_game(services)
    await services.xp_rolls.roll(game.id, GM, name="Aster", pool=5)
    await services.xp_groups.group(game.id, GM, kind="assisted", members="A 3d, B 2d")
    await services.xp_plots.open(game.id, GM, goal="Gate", leader="Aster 30d", gm_pool=3,
                                 tasks="sneak, climb")
    await services.xp_plots.event(game.id, GM, event="auto", task="sneak")
    before = [(r.kind, r.gm) for r in await services.xp_rolls.rolls(game.id, GM)]
    counter = itertools.count(1)
    document = await services.transfer.export(game.id, GM)
    copy = await services.transfer.import_game(
        copied(document, lambda: f"copy{next(counter):04d}", "xp-2"), GM)
    after = [(r.kind, r.gm) for r in await services.xp_rolls.rolls(copy.id, GM)]
    assert after == before and len(after) == 3
    assert "1. sneak: passed with a plot point" in (await services.xp_plots.show(copy.id, GM)).gm
    assert await services.xp_plots.tasks(copy.id, GM) == ["climb"]


async def test_a_good_luck_relaunch_takes_the_luck_off_the_characters_sheet(services, uow_factory):
    """X11 Amb-2: a relaunch costs 1 Luck. A member named after a character of the game pays it
    from the Xp sheet (the ruling keeps Luck on the sheet); at 0 Luck the relaunch is refused in
    one sentence; a name the game does not know (an improvised extra) pays nothing here."""
    from tests.service.test_xp_play import xp_sheet

    game = await _xp_game(services)
    assert (await services.characters.create_from_data(game.id, ALICE, xp_sheet("nefer"))).ok
    assert (await services.characters.show(game.id, "Nefer")).xp.luck == 1
    # Extra has no dice (an automatic failure): the chain reaches Nefer broken, she relaunches it
    shown = await services.xp_groups.group(game.id, GM, kind="collateral",
                                           members="Extra 0d, nefer 2d relaunch")
    assert "nefer relaunches the chain with Good Luck" in shown.public
    assert shown.public.endswith("Nefer: Luck 1 -> 0 (Good Luck, X11)")
    assert (await services.characters.show(game.id, "Nefer")).xp.luck == 0
    assert (await services.xp_rolls.show(game.id, GM, shown.id)).public == shown.public
    with pytest.raises(InvalidInput, match=r"^Nefer has no Luck left to relaunch the chain"):
        await services.xp_groups.group(game.id, GM, kind="collateral",
                                       members="Extra 0d, Nefer 2d relaunch")
    assert len(await services.xp_rolls.rolls(game.id, GM)) == 1  # the refused roll is not kept
    # an improvised name keeps its Luck in the GM's notes, as before
    extra = await services.xp_groups.group(game.id, GM, kind="collateral",
                                           members="Extra 0d, Brin 2d relaunch")
    assert "Brin relaunches the chain with Good Luck" in extra.public and "Luck 1 ->" not in extra.public
