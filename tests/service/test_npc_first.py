"""F30: the GM decides NPC allocations "before even posting the effects of the previous turn":
the next turn's NPC orders sealed at the end of a turn's review, before its results, and the
game setting `npc_seal_first` that requires it."""

from __future__ import annotations

import pytest

from fappo_bot.service import Conflict, Forbidden, InvalidInput
from tests.service.conftest import ALICE, GM
from tests.service.helpers import snapshot

NEXT = "**Skarg**\n2 AP attack Kael with Broadsword\n1 AP defend"


async def seal_next(services, game, user=GM, text=NEXT, key="n1"):
    return await services.npc_first.seal_next(game, user, channel_key="dm-gm", message_key=key,
                                              text=text)


async def kinds(uow_factory, game):
    async with uow_factory() as uow:
        return [(m.kind, (m.payload or {}).get("turn")) for m in await uow.outbox.for_game(game)]


async def test_f30_next_turns_npc_orders_sealed_before_the_results_become_its_sealed_post(
    services, table, uow_factory
):
    game = table["game"]
    sealed = await seal_next(services, game)
    assert sealed.turn == 2 and sealed.npc_orders == 1
    with pytest.raises(Conflict, match="already sealed"):
        await seal_next(services, game, key="n2")
    await services.resolution.resolve(game, GM, 1)
    order = await kinds(uow_factory, game)
    assert order.index(("sealed", 2)) < order.index(("results", 1))
    async with uow_factory() as uow:
        turn = await uow.turns.latest(game)
        stored = await uow.games.get(game)
    assert turn.number == 2 and turn.npc_commitment == sealed.commitment
    assert stored.settings.next_npc is None
    orders = {o.character: o for o in await services.turns.orders(game, GM)}
    assert [line.split()[2] for line in orders["Skarg"].actions[1:]] == ["attack", "defend"]
    await services.resolution.resolve(game, GM, 2)
    reveal = await services.turns.reveal(game, 2)
    assert reveal.verified and reveal.commitment == sealed.commitment


async def test_f30_only_a_gm_seals_and_a_bad_text_seals_nothing(services, table, uow_factory):
    game = table["game"]
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden):
        await seal_next(services, game, user=ALICE)
    with pytest.raises(InvalidInput, match="were not sealed") as caught:
        await seal_next(services, game, text="**Skarg**\n9 AP attack Kael with Broadsword")
    assert "line 2" in str(caught.value)
    assert await snapshot(uow_factory) == before


async def test_f30_npc_seal_first_refuses_to_resolve_before_the_next_seal(services, table):
    game = table["game"]
    await services.games.set_setting(game, GM, "npc_seal_first", "on")
    with pytest.raises(Conflict, match="seal turn 2's NPC orders first"):
        await services.resolution.resolve(game, GM, 1)
    await seal_next(services, game)
    view = await services.resolution.resolve(game, GM, 1)
    assert view.turn == 1
