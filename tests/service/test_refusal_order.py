"""Which refusal comes first in the GM-only use cases that read an input: a missing game, then
anyone but a GM (told only that GMs do that, never what is wrong with the input), then the
input, and only then whether the game's rules have the feature (or, for the clock, the
turn's state)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

from fappo_bot.service import Conflict, Forbidden, InvalidInput, NotFound, Services
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, GM
from tests.service.helpers import snapshot


def _bad_inputs(s, game, user):
    """Each use case with an input it refuses (an unknown setting, a sheet that is no sheet, a
    roll, an event and a rank change out of bounds)."""
    return [
        lambda: s.games.set_setting(game, user, "no_such_setting", "on"),
        lambda: s.characters.edit_from_data(game, user, "Kael", {"name": ""}),
        lambda: s.xp_rolls.roll(game, user, name="", pool=99),
        lambda: s.xp_events.event(game, user, kind="nap"),
        lambda: s.xp_events.rank(game, user, name="Aster", rank="luck", change=0),
        lambda: s.xp_groups.group(game, user, kind="spontaneous", members="A 1d"),
        lambda: s.xp_plots.open(game, user, goal="", leader="A 3d", gm_pool=3, tasks="t"),
        lambda: s.xp_plots.event(game, user, event="x", task="t"),
        lambda: s.xp_timed.reroll(game, user, name="A", pool=3, unit="1m", units=0),
        lambda: s.xp_timed.augment(game, user, name="A", pool=3, augments="A 2d"),
    ]


def _good_rolls(s, game, user):
    """The Xp GM's use cases with an input they take."""
    return [
        lambda: s.xp_rolls.roll(game, user, name="Aster", pool=3),
        lambda: s.xp_events.event(game, user, kind="session"),
        lambda: s.xp_events.rank(game, user, name="Aster", rank="physical", change=-1),
        lambda: s.xp_groups.group(game, user, kind="spontaneous", members="A 1d, B 2d"),
        lambda: s.xp_plots.open(game, user, goal="g", leader="A 3d", gm_pool=3, tasks="t"),
        lambda: s.xp_plots.event(game, user, event="auto", task="t"),
        lambda: s.xp_timed.reroll(game, user, name="A", pool=3, unit="1m", units=2),
        lambda: s.xp_timed.augment(game, user, name="A", pool=3, augments="Lore 2d"),
    ]


async def test_a_missing_game_comes_before_the_input(services):
    for call in _bad_inputs(services, "no-such-game", GM):
        with pytest.raises(NotFound, match="no such game"):
            await call()


async def test_a_player_is_told_only_that_gms_do_that(services, table, uow_factory):
    xp = await services.games.create(channel_key="xp-1", name="Aegyptvs", creator=GM,
                                     ruleset="xp")
    await services.games.add_member(xp.id, GM, ALICE, Role.PLAYER)
    before = await snapshot(uow_factory)
    for game in (table["game"], xp.id):
        for call in _bad_inputs(services, game, ALICE):
            with pytest.raises(Forbidden, match="Only a GM"):
                await call()
    assert await snapshot(uow_factory) == before


async def test_a_gm_hears_of_the_input_before_the_rules(services, table, uow_factory):
    """In a FAPPO game, the GM's Xp roll, event, rank change, group roll, PLOT, PLOT event,
    reroll or augmented roll with a wrong input is told what is wrong with it; with a right one,
    that dice-pool rolls are for Xp games."""
    game = table["game"]
    before = await snapshot(uow_factory)
    for call in _bad_inputs(services, game, GM)[2:]:
        with pytest.raises(InvalidInput):
            await call()
    for call in _good_rolls(services, game, GM):
        with pytest.raises(Conflict, match="dice-pool rolls are for Xp games"):
            await call()
    assert await snapshot(uow_factory) == before


def _clock_calls(s, game, user, *, bad):
    """The GM's deadline and extension, each with an input it refuses (`bad`: a deadline given
    twice, an extension backwards) or one it takes."""
    hour = timedelta(hours=1)
    if bad:
        return [lambda: s.calltime.set_deadline(game, user, at=s.calltime.now() + hour,
                                                after=hour),
                lambda: s.calltime.extend(game, user, -hour)]
    return [lambda: s.calltime.set_deadline(game, user, after=hour),
            lambda: s.calltime.extend(game, user, hour)]


async def test_the_clock_refuses_in_order_game_gm_input_turn(services, table, uow_factory):
    """A deadline and an extension: a missing game, then anyone but a GM, then the input,
    and only then a turn that is not open (here, time called)."""
    game = table["game"]
    for call in _clock_calls(services, "no-such-game", GM, bad=True):
        with pytest.raises(NotFound, match="no such game"):
            await call()
    await services.calltime.close(game, GM)
    before = await snapshot(uow_factory)
    for call in _clock_calls(services, game, ALICE, bad=True):
        with pytest.raises(Forbidden, match="Only a GM"):
            await call()
    for call in _clock_calls(services, game, GM, bad=True):
        with pytest.raises(InvalidInput):
            await call()
    for call in _clock_calls(services, game, GM, bad=False):
        with pytest.raises(Conflict, match="Turn 1 is not open"):
            await call()
    assert await snapshot(uow_factory) == before


async def test_the_clock_is_one_transaction(services, table, uow_factory, clock):
    """A deadline set, an extension and each refusal: one unit of work each (the GM's role,
    the input and the turn are checked in the transaction that writes)."""
    opened: list[object] = []

    def counting():
        opened.append(None)
        return uow_factory()

    ids = itertools.count(1)
    counted = Services(counting, clock=clock, ids=lambda: f"counted{next(ids)}")
    game = table["game"]
    calls = [*_clock_calls(counted, game, GM, bad=False),
             *_clock_calls(counted, game, ALICE, bad=True),
             *_clock_calls(counted, game, GM, bad=True)]
    for call in calls:
        try:
            await call()
        except (Forbidden, InvalidInput):
            pass
    assert len(opened) == len(calls)
    status = await services.turns.status(game)
    assert status.turn.deadline == clock.now() + timedelta(hours=2)
