"""The players' pace: reminders each player's way (a DM, a ping, nothing), each replacing the
last; absences (shown as away, not reminded, no missed turn); the daily digest."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import InvalidInput, NotFound
from fappo_bot.service.layout import ResultsLayout, layout_for
from fappo_bot.service.records import RemindBy
from tests.service.conftest import ALICE, BOB, GM


async def outbox(uow_factory, game):
    async with uow_factory() as uow:
        return list(await uow.outbox.for_game(game))


async def reminders(uow_factory, game):
    return [m for m in await outbox(uow_factory, game) if m.kind.startswith("reminder")]


async def test_each_missing_player_is_reminded_their_way(services, table, clock, uow_factory):
    game = table["game"]
    await services.turns.seal(game, GM)
    await services.pace.remind(ALICE, RemindBy.DM, game)  # bob keeps the game's default, ping
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=24))
    clock.advance(hours=12)
    await services.calltime.fire_due()
    room, dm = await reminders(uow_factory, game)
    assert (room.kind, room.dest_key) == ("reminder", "c1")
    assert room.payload["missing"] == ["Kael", "Mira"]
    assert room.payload["pings"] == [BOB]  # alice is reminded by DM, not pinged
    assert room.payload["replaces"] == []
    assert (dm.kind, dm.dest_key) == ("reminder_dm", ALICE)
    assert dm.payload["game"] == "Goblin Road" and dm.payload["room"] == "c1"
    assert dm.payload["characters"] == ["Kael"]
    assert dm.content.startswith("Reminder from Goblin Road: turn 1 closes at")


async def test_a_new_reminder_replaces_the_last_and_reaches_only_the_missing(
        services, table, clock, uow_factory):
    game = table["game"]
    await services.turns.seal(game, GM)
    await services.pace.remind(ALICE, RemindBy.DM)  # all her games
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=24))
    clock.advance(hours=12)
    await services.calltime.fire_due()
    first_room, first_dm = await reminders(uow_factory, game)
    await services.turns.pass_turn(game, BOB)
    clock.advance(hours=11)
    await services.calltime.fire_due()
    _, _, room, dm = await reminders(uow_factory, game)
    assert room.payload["missing"] == ["Kael"] and room.payload["pings"] == []
    assert room.payload["replaces"] == [first_room.id]
    assert dm.payload["replaces"] == [first_dm.id]


async def test_a_reminder_after_the_gm_moved_the_deadline_replaces_the_old_deadlines_one(
        services, table, clock, uow_factory):
    game = table["game"]
    await services.turns.seal(game, GM)
    await services.pace.remind(ALICE, RemindBy.DM)
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=24))
    clock.advance(hours=12)
    await services.calltime.fire_due()
    first_room, first_dm = await reminders(uow_factory, game)
    # the GM gives a day more: the reminder naming the old deadline is wrong from now on
    await services.calltime.extend(game, GM, timedelta(hours=24))
    clock.advance(hours=24)  # the new deadline's 12-hours-before reminder
    await services.calltime.fire_due()
    _, _, room, dm = await reminders(uow_factory, game)
    assert room.payload["deadline"] != first_room.payload["deadline"]
    assert room.payload["replaces"] == [first_room.id]
    assert dm.payload["replaces"] == [first_dm.id]


async def test_none_reminds_nobody_but_the_room_still_lists_them(services, table, clock,
                                                                 uow_factory):
    game = table["game"]
    await services.turns.seal(game, GM)
    await services.games.set_setting(game, GM, "remind_by", "none")
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=2))
    clock.advance(hours=1)
    await services.calltime.fire_due()
    [room] = await reminders(uow_factory, game)
    assert room.payload["pings"] == [] and room.payload["missing"] == ["Kael", "Mira"]


async def test_an_away_player_is_shown_away_not_reminded_and_misses_no_turn(
        services, table, clock, uow_factory):
    game = table["game"]
    await services.turns.seal(game, GM)
    said = await services.pace.away(ALICE, None, clock.now() + timedelta(days=3))
    assert said.startswith("You are away from 2026-03-01 12:00 UTC until 2026-03-04")
    status = await services.turns.status(game)
    assert status.away == ("Kael",) and status.missing == ("Mira",)
    assert {c.name: c.state for c in status.characters}["Kael"] == "away"
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=2))
    clock.advance(hours=1)
    await services.calltime.fire_due()
    [room] = await reminders(uow_factory, game)
    assert room.payload["missing"] == ["Mira"] and room.payload["pings"] == [BOB]
    clock.advance(hours=1)
    await services.calltime.fire_due()  # time is called: Kael is not among the missing
    [called] = [m for m in await outbox(uow_factory, game)
                if m.kind == "time_called" and m.dest_key == "c1"]
    assert called.payload["missing"] == ["Mira"]
    await services.resolution.resolve(game, GM, 1)
    missed = {c.name: c.missed_turns for c in await services.characters.list(game)}
    assert missed["Kael"] == 0 and missed["Mira"] == 1
    assert await services.pace.back(ALICE) == (
        "Welcome back: you are reminded and shown as before.")
    assert (await services.turns.status(game)).away == ()


async def test_bad_absences_and_choices_are_refused_in_words(services, table, clock):
    now = clock.now()
    with pytest.raises(InvalidInput, match="must come after its start"):
        await services.pace.away(ALICE, now + timedelta(days=2), now + timedelta(days=1))
    with pytest.raises(InvalidInput, match="at most a year"):
        await services.pace.away(ALICE, None, now + timedelta(days=400))
    with pytest.raises(NotFound, match="no such game"):
        await services.pace.remind(ALICE, RemindBy.DM, "no-such-game")
    with pytest.raises(InvalidInput, match="0 to 23"):
        await services.pace.digest(ALICE, True, 24)
    assert (await services.pace.pace_of(ALICE)).away_from is None


async def test_the_digest_is_one_dm_a_day_at_the_players_hour(services, table, clock,
                                                               uow_factory):
    game = table["game"]
    assert await services.pace.digest(ALICE, True, 15) == (
        "Your daily digest comes at 15:00 UTC.")
    assert await services.pace.send_digests() == 0  # 12:00: not yet
    clock.advance(hours=3)
    assert await services.pace.send_digests() == 1
    assert await services.pace.send_digests() == 0  # once a day
    [digest] = [m for m in await outbox(uow_factory, game) if m.kind == "digest"]
    assert digest.dest_key == ALICE
    assert digest.content == ("Your daily digest: the turns waiting for your orders.\n"
                              "- Goblin Road: turn 1, no deadline; Kael to post.")
    clock.advance(days=1)
    await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                              text="3 AP defend")
    assert await services.pace.send_digests() == 0  # nothing waits for her
    assert await services.pace.digest(ALICE, False) == "Your daily digest is off."


async def test_absence_defend_puts_every_ap_of_an_away_character_on_defense(
        services, table, clock, uow_factory):
    game = table["game"]
    await services.games.set_setting(game, GM, "absence", "defend")
    await services.pace.away(ALICE, None, None)
    await services.turns.pass_turn(game, BOB)
    await services.turns.seal(game, GM)
    await services.resolution.resolve(game, GM, 1)
    async with uow_factory() as uow:
        resolution = await uow.resolutions.latest(game)
    [kael] = [o for o in resolution.orders if o.actor == "Kael"]
    assert [(a.kind.value, a.ap) for a in kael.actions] == [("defend", 3)]
    missed = {c.name: c.missed_turns for c in await services.characters.list(game)}
    assert missed["Kael"] == 0


async def test_absence_gm_lets_a_gm_post_for_an_away_players_character(services, table, clock):
    game = table["game"]
    kael = "Character: Kael\n3 AP defend"
    refused = await services.turns.post(game, GM, channel_key="c1", message_key="g0", text=kael)
    assert not refused.ok  # not while alice is here
    await services.games.set_setting(game, GM, "absence", "gm")
    await services.pace.away(ALICE, None, clock.now() + timedelta(days=2))
    taken = await services.turns.post(game, GM, channel_key="c1", message_key="g1", text=kael)
    assert taken.ok, taken.reply
    assert (await services.turns.status(game)).posted == ("Kael",)


async def test_a_players_results_layout_is_kept_with_their_pace_and_wins_in_their_dms(
        services, table):
    game = await services.games.find("c1")
    assert game.results_layout is ResultsLayout.TEXT  # the room's default
    assert (await services.pace.pace_of(ALICE)).layout is None
    assert layout_for(game.results_layout) is ResultsLayout.TEXT
    await services.games.set_setting(game.id, GM, "results_layout", "Embeds")
    game = await services.games.find("c1")
    assert game.results_layout is ResultsLayout.EMBEDS
    with pytest.raises(InvalidInput, match="results_layout: write one of embeds, text"):
        await services.games.set_setting(game.id, GM, "results_layout", "tables")
    said = await services.pace.layout(ALICE, ResultsLayout.TEXT)
    assert said == "Your results by direct message come as plain text with headings, in all " \
                   "your games."
    await services.pace.remind(ALICE, RemindBy.DM)  # the other choices keep it
    chosen = (await services.pace.pace_of(ALICE)).layout
    assert chosen is ResultsLayout.TEXT
    assert layout_for(game.results_layout, chosen) is ResultsLayout.TEXT
    await services.pace.layout(ALICE, None)
    assert (await services.pace.pace_of(ALICE)).layout is None
    assert (await services.pace.pace_of(ALICE)).remind == {"*": RemindBy.DM}
