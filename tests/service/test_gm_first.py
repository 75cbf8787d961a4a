"""GM-only use cases check the caller's role before anything else: a player who tries one is
told that only a GM does that, never what would be wrong with the input (a deadline too far,
a count out of range, a bad setting, a roll's pool). The GM, asking the same, is told what is
wrong, so each case below refuses for another reason once the caller may ask."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from fappo_bot.service import Forbidden, InvalidInput, Services
from fappo_bot.service.aftermath import SceneGap
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, GM

Call = Callable[[Services, str, str], Awaitable[Any]]

FAPPO_CALLS: dict[str, Call] = {
    "deadline too far": lambda s, g, who: s.calltime.set_deadline(
        g, who, after=timedelta(days=10_000)),
    "deadline in the past": lambda s, g, who: s.calltime.set_deadline(
        g, who, at=s.calltime.now() - timedelta(hours=1)),
    "deadline twice": lambda s, g, who: s.calltime.set_deadline(
        g, who, at=s.calltime.now() + timedelta(hours=1), after=timedelta(hours=1)),
    "extend backwards": lambda s, g, who: s.calltime.extend(g, who, timedelta(minutes=-5)),
    "unknown setting": lambda s, g, who: s.games.set_setting(g, who, "no_such_setting", "1"),
    "count out of range": lambda s, g, who: s.characters.set_count(g, who, "Goblins", -1),
    "SP out of range": lambda s, g, who: s.aftermath.end_scene(
        g, who, SceneGap.NIGHT, {"Kael": {"Nimble": -1}}),
    "award out of range": lambda s, g, who: s.aftermath.end_adventure(g, who, {"Kael": 99}),
    "time out of range": lambda s, g, who: s.aftermath.advance_time(g, who, -1),
}

XP_CALLS: dict[str, Call] = {
    "roll of too many dice": lambda s, g, who: s.xp_rolls.roll(g, who, name="A", pool=10**6),
    "group of one": lambda s, g, who: s.xp_groups.group(g, who, kind="spontaneous",
                                                        members="A 1d"),
    "PLOT without a goal": lambda s, g, who: s.xp_plots.open(
        g, who, goal="", leader="A 3d", gm_pool=3, tasks="t"),
    "PLOT event of no kind": lambda s, g, who: s.xp_plots.event(g, who, event="x", task="t"),
}


@pytest.mark.parametrize("case", list(FAPPO_CALLS))
async def test_a_player_is_told_only_gms_do_that(services, table, case) -> None:
    call = FAPPO_CALLS[case]
    with pytest.raises(Forbidden, match="Only a GM"):
        await call(services, table["game"], ALICE)
    with pytest.raises(InvalidInput):  # the input is what the GM is told about
        await call(services, table["game"], GM)


@pytest.mark.parametrize("case", list(XP_CALLS))
async def test_a_player_is_told_only_gms_roll_in_xp(services, case) -> None:
    game = await services.games.create(channel_key="xp-1", name="Aegyptvs", creator=GM,
                                       ruleset="xp")
    await services.games.add_member(game.id, GM, ALICE, Role.PLAYER)
    call = XP_CALLS[case]
    with pytest.raises(Forbidden, match="Only a GM"):
        await call(services, game.id, ALICE)
    with pytest.raises(InvalidInput):
        await call(services, game.id, GM)
