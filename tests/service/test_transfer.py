"""Export and import through the service: a GM's command; an export made
before the turn resolves holds no secret of that turn unless the GM asks; a copy of a game with
DM and NPC orders imports next to its original."""

from __future__ import annotations

import itertools

import pytest

from fappo_bot.service import Forbidden, NotFound
from fappo_bot.service.transfer import copied, dumps, loads
from tests.service.conftest import ALICE, BOB, EVE, GM
from tests.service.helpers import snapshot

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
