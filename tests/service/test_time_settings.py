"""A game's time settings as a GM writes them (`/game set`, the table's `/set`): the time zone,
an IANA name checked against the zone database with the nearest names when it is wrong; grace
and its period; whether an outage moves a deadline. Shown in the settings list."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import InvalidInput
from tests.service.conftest import GM
from tests.service.helpers import snapshot, stored_game

pytestmark = pytest.mark.integration


async def test_the_time_settings_are_listed_with_their_defaults(services, table):
    values = {s.name: s.value for s in await services.games.settings(table["game"])}
    assert values["timezone"] == "UTC"
    assert values["grace"] == "0" and values["grace_period"] == "12h"
    assert values["outage_extends"] == "on"
    assert "grace_used" not in values  # the scheduler's counter, not a setting


async def test_a_gm_sets_the_games_zone_by_its_iana_name(services, table):
    game = table["game"]
    assert (await services.games.set_setting(game, GM, "timezone", "europe/berlin")
            ).value == "Europe/Berlin"
    assert (await stored_game(services, game)).settings.timezone == "Europe/Berlin"


async def test_a_wrong_zone_is_refused_with_the_nearest_names(services, table, uow_factory):
    game = table["game"]
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match=r'^timezone: "Europe/Berln" is no time zone: write an '
                       r"IANA name such as Europe/Berlin, America/New_York or UTC\. Did you "
                       r"mean Europe/Berlin"):
        await services.games.set_setting(game, GM, "timezone", "Europe/Berln")
    assert await snapshot(uow_factory) == before


async def test_grace_is_a_count_and_its_period_a_duration(services, table):
    game = table["game"]
    assert (await services.games.set_setting(game, GM, "grace", "2")).value == "2"
    assert (await services.games.set_setting(game, GM, "grace_period", "1d 6h")).value == "1d6h"
    assert (await services.games.set_setting(game, GM, "outage_extends", "off")).value == "off"
    settings = (await stored_game(services, game)).settings
    assert settings.grace == 2 and settings.grace_period == timedelta(hours=30)
    assert settings.outage_extends is False
    with pytest.raises(InvalidInput, match=r"grace: write a whole number, 0 or more"):
        await services.games.set_setting(game, GM, "grace", "-1")
    with pytest.raises(InvalidInput, match=r'grace_period: "soon" is no duration'):
        await services.games.set_setting(game, GM, "grace_period", "soon")
