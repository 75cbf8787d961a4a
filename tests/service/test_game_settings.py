"""A game's settings and R2 flags as people write them (`service/settings_text.py`): listed with
their values, changed one at a time by a GM from typed text, every bad value one sentence; the
reminder times a GM sets are the ones call time sends; a post may speak as one of the player's
characters (`as_character`, what a proxy post does)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.rules.config import NuisanceCountMode
from fappo_bot.service import Forbidden, InvalidInput
from fappo_bot.service.records import GameSettings, Role
from fappo_bot.service.settings_text import (
    RULES_FLAGS,
    TABLE_SETTINGS,
    parse_duration,
    parse_value,
    setting_names,
    suggested_values,
)
from fappo_bot.service.xp_flags import XP_FLAGS
from tests.service.conftest import ALICE, BOB, GM, sheet
from tests.service.helpers import snapshot, stored_game
from tests.service.test_calltime import outbox_kinds


async def test_every_setting_is_listed_and_reads_back_as_it_is_shown(services, table):
    game = table["game"]
    shown = await services.games.settings(game)
    flags = (await services.games.show(game)).flags  # the ruleset's, as the adapters offer them
    assert [s.name for s in shown] == setting_names(flags) == [*TABLE_SETTINGS, *RULES_FLAGS]
    values = {s.name: s.value for s in shown}
    assert values["reminders"] == "12h, 1h" and values["proxy_posts"] == "off"
    assert values["calltime"] == "none" and values["results_visibility"] == "parties"
    # what is shown is what the GM may type back: nothing changes
    view = await stored_game(services, game)
    for item in shown:
        changed = await services.games.set_setting(game, GM, item.name, item.value)
        assert changed.value == item.value, item.name
    after = await stored_game(services, game)
    assert after.settings == view.settings and after.rules == view.rules


async def test_a_gm_sets_reminders_call_time_and_flags_from_text(services, table):
    game = table["game"]
    assert (await services.games.set_setting(game, GM, " Reminders ", "30m, 5m")).value \
        == "30m, 5m"
    assert (await services.games.set_setting(game, GM, "calltime", "1d12h")).value == "1d12h"
    assert (await services.games.set_setting(game, GM, "proxy_posts", "ON")).value == "on"
    assert (await services.games.set_setting(game, GM, "nuisance_count_mode", "level_rank")
            ).value == "level_rank"
    assert (await services.games.set_setting(game, GM, "weapon_skills", "Spear=Melee, "
                                             "Polearm=Melee")).value == "Spear=Melee, Polearm=Melee"
    assert (await services.games.set_setting(game, GM, "min_spell_difficulty", "none")
            ).value == "none"
    view = await stored_game(services, game)
    assert view.settings.reminders == (timedelta(minutes=30), timedelta(minutes=5))
    assert view.settings.calltime == timedelta(hours=36)
    assert view.settings.proxy_posts is True
    assert view.rules.nuisance_count_mode is NuisanceCountMode.LEVEL_RANK
    assert view.rules.mapped_skill("spear") == "Melee"
    assert view.rules.min_spell_difficulty is None
    await services.games.set_setting(game, GM, "reminders", "none")
    assert (await stored_game(services, game)).settings.reminders == ()


@pytest.mark.parametrize(("name", "value", "says"), [
    ("volume", "11", 'There is no setting called "volume". Settings: calltime'),
    ("scene", "3", 'There is no setting called "scene"'),  # kept by the bot, not typed
    ("tournament", "maybe", "tournament: write on or off."),
    ("results_visibility", "nobody", "write one of public, parties"),
    ("calltime", "soon", '"soon" is no duration'),
    ("reminders", "12h, later", '"later" is no duration'),
    ("inactive_threshold", "0", "inactive_threshold"),
    ("inactive_threshold", "three", "write a whole number"),
    ("weapon_skills", "Spear", "write name=value pairs"),
])
async def test_a_bad_setting_is_one_sentence_and_changes_nothing(services, table, uow_factory,
                                                                 name, value, says):
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput) as caught:
        await services.games.set_setting(table["game"], GM, name, value)
    assert says in str(caught.value)
    assert "\n" not in str(caught.value).split(":", 1)[0]
    assert await snapshot(uow_factory) == before


async def test_only_a_gm_changes_a_setting_anyone_sees_them(services, table, uow_factory):
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden, match="Only a GM"):
        await services.games.set_setting(table["game"], ALICE, "reminders", "5m")
    assert await snapshot(uow_factory) == before
    assert await services.games.settings(table["game"])


@pytest.mark.unit
def test_durations_as_people_write_them():
    assert parse_duration("90") == timedelta(minutes=90)
    assert parse_duration("1h30m") == parse_duration("1h 30min") == timedelta(minutes=90)
    assert parse_duration("2d") == timedelta(days=2)
    assert parse_duration("1w") == timedelta(weeks=1)
    with pytest.raises(ValueError, match="no duration"):
        parse_duration("h")
    assert parse_value("reminders", "2h,30m,") == (timedelta(hours=2), timedelta(minutes=30))
    assert GameSettings().proxy_posts is False


@pytest.mark.unit
def test_values_offered_as_a_gm_types():
    assert suggested_values(" Tournament ") == ["on", "off"]
    assert suggested_values("nuisance_count_mode") == [m.value for m in NuisanceCountMode]
    assert suggested_values("reminders") == suggested_values("min_spell_difficulty") == []
    assert suggested_values("nope") == []


async def test_the_reminder_times_a_gm_sets_are_the_ones_sent(services, table, clock,
                                                              uow_factory):
    game = table["game"]
    await services.games.set_setting(game, GM, "reminders", "30m")
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=2))
    clock.advance(minutes=89)  # the default reminder an hour before would be due now
    assert await services.calltime.fire_due() == []
    clock.advance(minutes=2)
    fired = await services.calltime.fire_due()
    assert [a.kind for a in fired] == ["reminder"]
    assert ("reminder", "c1") in await outbox_kinds(uow_factory, game)


async def test_a_post_speaks_as_the_character_named(services, table):
    game = table["game"]
    assert (await services.characters.create(game, ALICE, sheet("Mira", name="Lyra"))).ok
    reply = await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                                      text="3 AP defend", as_character="lyra")
    assert reply.ok and reply.characters == ("Lyra",)
    # an edit speaks as the same character
    edited = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                       text="2 AP defend", as_character="Lyra")
    assert edited.characters == ("Lyra",)
    with pytest.raises(Forbidden, match='do not give the orders of "Mira"'):
        await services.turns.post(game, ALICE, channel_key="c1", message_key="m2",
                                  text="3 AP defend", as_character="Mira")
    await services.games.add_member(game, GM, "dave", Role.PLAYER)
    with pytest.raises(Forbidden):
        await services.turns.post(game, BOB, channel_key="c1", message_key="m3",
                                  text="3 AP defend", as_character="Kael")


async def test_an_xp_game_has_its_settings_but_no_fappo_flags(services, uow_factory):
    game = (await services.games.create(channel_key="x1", name="Sands", creator=GM,
                                        ruleset="xp")).id
    assert [s.name for s in await services.games.settings(game)] == [*TABLE_SETTINGS,
                                                                     *XP_FLAGS]
    assert (await services.games.set_setting(game, GM, "reminders", "1h")).value == "1h"
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match="FAPPO's rules flags .R2. are not played"):
        await services.games.set_setting(game, GM, "pips_enabled", "on")
    with pytest.raises(InvalidInput, match="FAPPO's rules flags .R2. are not played"):
        await services.games.configure(game, GM, rules={"pips_enabled": True})
    assert await snapshot(uow_factory) == before
