"""Export and import through the service: a GM's command; an export made
before the turn resolves holds no secret of that turn unless the GM asks; a copy of a game with
DM and NPC orders imports next to its original."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta

import pytest

from fappo_bot.service import Forbidden, NotFound, Services
from fappo_bot.service.layout import ResultsLayout
from fappo_bot.service.records import RemindBy
from fappo_bot.service.settings_text import TABLE_SETTINGS
from fappo_bot.service.transfer import copied, dumps, loads
from tests.service.conftest import ALICE, BOB, EVE, GM
from tests.service.fakes import FakeUowFactory
from tests.service.helpers import snapshot, stored_game

NPC_ORDERS = "**Skarg**\n2 AP attack Kael with Broadsword\n**Goblins**\n1 AP attack Kael"


async def _turn_with_secrets(services, game):
    await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                              text="2 AP attack Goblins with Broadsword\n1 AP defend")
    await services.turns.post(game, BOB, channel_key="dm-bob", message_key="d1",
                              text="2 AP attack Kael with Dagger\n1 AP defend", secret=True)
    await services.turns.npc_orders(game, GM, channel_key="dm-gm", message_key="n1",
                                    text=NPC_ORDERS)


async def test_export_is_a_gms_command(services, table, uow_factory):
    game = table["game"]
    before = await snapshot(uow_factory)
    for user in (ALICE, EVE):
        with pytest.raises(Forbidden, match="Only a GM"):
            await services.transfer.export(game, user)
    with pytest.raises(NotFound, match="Goblin Road"):
        await services.transfer.export("nope", GM)
    assert (await services.transfer.export("Goblin Road", GM)).game.id == game
    assert await snapshot(uow_factory) == before


async def test_an_export_before_the_turn_resolves_holds_none_of_its_secrets(services, table):
    game = table["game"]
    await _turn_with_secrets(services, game)
    document = await services.transfer.export(game, GM)
    text = dumps(document)
    turn = document.turns[-1]
    assert turn.npc_commitment and turn.npc_salt is None and turn.npc_canonical is None
    assert [p.post.message_key for p in document.posts] == ["m1"]  # the public post only
    assert "attack Kael with Dagger" not in text and "salt0001" not in text
    assert len(document.withheld) == 3
    everything = await services.transfer.export(game, GM, secrets=True)
    assert {p.post.message_key for p in everything.posts} == {"m1", "d1", "n1"}
    assert everything.turns[-1].npc_salt and not everything.withheld
    await services.calltime.close(game, GM)
    await services.review.set_inputs(game, GM, end_combat=False)
    await services.review.answer(game, GM, {})
    resolved = await services.resolution.resolve(game, GM, 1)
    assert resolved
    after = await services.transfer.export(game, GM)
    assert {p.post.message_key for p in after.posts} == {"m1", "d1", "n1"}  # turn 1 is history
    assert after.turns[0].npc_salt


async def test_a_copy_with_dm_and_npc_orders_imports_next_to_its_original(
    services, table, uow_factory
):
    game = table["game"]
    await _turn_with_secrets(services, game)
    document = loads(dumps(await services.transfer.export(game, GM, secrets=True)))
    counter = itertools.count()
    copy = copied(document, lambda: f"copy{next(counter):04d}", "c2")
    with pytest.raises(Forbidden, match="Only a GM"):
        await services.transfer.import_game(copy, ALICE)
    imported = await services.transfer.import_game(copy, GM)
    assert imported.channel_key == "c2"
    again = await services.transfer.export(imported.id, GM, secrets=True)
    assert len(again.posts) == 3 and {p.post.channel_key for p in again.posts} == {
        "c2", "dm-bob", "dm-gm"}
    assert await services.transfer.find("c2") == imported
    # the original's DM is still found by its own message
    edited = await services.turns.edit(None, BOB, channel_key="dm-bob", message_key="d1",
                                       text="3 AP defend")
    assert edited.ok and edited.post_id == document.posts[1].post.id


#: a value other than the default for every table setting a GM chooses
CHOSEN = {"calltime": "36h", "reminders": "6h, 30m", "remind_by": "dm", "absence": "defend",
          "results_visibility": "public", "results_layout": "embeds", "tournament": "on",
          "in_combat": "off", "auto_open_next": "off", "proxy_posts": "on",
          "timezone": "Europe/Berlin", "grace": "2", "grace_period": "6h",
          "outage_extends": "off", "npc_seal_first": "on"}


async def test_an_export_round_trip_keeps_every_setting_the_gm_chose(services, table):
    game = table["game"]
    assert set(CHOSEN) == set(TABLE_SETTINGS)  # a new setting is added here too
    for name, value in CHOSEN.items():
        await services.games.set_setting(game, GM, name, value)
    await services.games.set_setting(game, GM, "hide_all_allocations", "on")
    before = await stored_game(services, game)
    document = loads(dumps(await services.transfer.export(game, GM)))
    counter = itertools.count()
    imported = await services.transfer.import_game(
        copied(document, lambda: f"copy{next(counter):04d}", "c2"), GM)
    after = await stored_game(services, imported.id)
    assert after.settings == before.settings and after.rules == before.rules


async def test_an_export_carries_the_players_pace_choices_and_an_old_one_still_imports(
        services, table, clock):
    """A move to a fresh database keeps how each player is reminded in the game, their
    absence and their DMs' layout; next to the original, a known player's own choices stand
    and the copy gets their reminder for the game; an export without paces imports."""
    game = table["game"]
    await services.pace.remind(ALICE, RemindBy.NONE)
    await services.pace.remind(ALICE, RemindBy.DM, game)
    await services.pace.layout(ALICE, ResultsLayout.TEXT)
    away_to = clock.now() + timedelta(days=3)
    await services.pace.away(BOB, None, away_to)
    text = dumps(await services.transfer.export(game, GM))
    counter = itertools.count()
    fresh = Services(FakeUowFactory(), clock=clock, ids=lambda: f"new{next(counter):04d}")
    await fresh.transfer.import_game(loads(text), GM)
    alice, bob = await fresh.pace.pace_of(ALICE), await fresh.pace.pace_of(BOB)
    assert alice.remind == {game: RemindBy.DM, "*": RemindBy.NONE}
    assert alice.layout is ResultsLayout.TEXT and alice.away_from is None
    assert (bob.away_to, bob.remind, bob.layout) == (away_to, {}, None)
    assert bob.away_at(clock.now())

    await services.pace.layout(ALICE, ResultsLayout.EMBEDS)  # chosen since, in this database
    copy = copied(loads(text), lambda: f"copy{next(counter):04d}", "c2")
    imported = await services.transfer.import_game(copy, GM)
    alice = await services.pace.pace_of(ALICE)
    assert alice.remind == {game: RemindBy.DM, imported.id: RemindBy.DM, "*": RemindBy.NONE}
    assert alice.layout is ResultsLayout.EMBEDS

    old = json.loads(text)
    del old["paces"]
    older = Services(FakeUowFactory(), clock=clock, ids=lambda: f"old{next(counter):04d}")
    assert (await older.transfer.import_game(loads(json.dumps(old)), GM)).id == game
    assert (await older.pace.pace_of(ALICE)).remind == {}
