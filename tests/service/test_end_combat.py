"""F18.2: a resolution whose GM ended the combat (`set_inputs(end_combat=True)`, or the review's
yes) takes the game out of combat, so the next turns ask no more whether the combat ends, until
a GM sets `in_combat` again; undoing that resolution brings the fight back."""

from __future__ import annotations

import pytest

from tests.service.conftest import GM
from tests.service.helpers import stored_game

pytestmark = pytest.mark.integration


async def test_ending_the_combat_takes_the_game_out_of_it_until_the_gm_says(services, table):
    game = table["game"]
    assert (await stored_game(services, game)).settings.in_combat
    await services.review.set_inputs(game, GM, end_combat=True)
    view = await services.resolution.resolve(game, GM, 1)
    assert view.combat_ended
    assert (await stored_game(services, game)).settings.in_combat is False
    again = await services.resolution.resolve(game, GM, 2)  # out of combat: nothing to end
    assert not again.combat_ended

    await services.resolution.undo(game, GM)  # turn 2's: the game stays out of combat
    assert (await stored_game(services, game)).settings.in_combat is False
    await services.games.set_setting(game, GM, "in_combat", "on")
    assert (await stored_game(services, game)).settings.in_combat


async def test_undoing_the_resolution_that_ended_it_brings_the_fight_back(services, table):
    game = table["game"]
    await services.review.set_inputs(game, GM, end_combat=True)
    await services.resolution.resolve(game, GM, 1)
    await services.resolution.undo(game, GM)
    assert (await stored_game(services, game)).settings.in_combat


async def test_a_combat_that_goes_on_stays_on(services, table):
    game = table["game"]
    await services.review.set_inputs(game, GM, end_combat=False)
    view = await services.resolution.resolve(game, GM, 1)
    assert not view.combat_ended and (await stored_game(services, game)).settings.in_combat
