"""Call time (F30): deadlines, reminders before them, extend, pause, and the scheduler's query.

F30: "The GM can call time on players after giving them a reasonable amount of time to post"
[F:L481]; F30 Amb-2: "the bot only reminds"."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import Conflict, Forbidden, InvalidInput
from fappo_bot.service.records import Role, TurnStatus
from tests.service.conftest import ALICE, BOB, CAROL, EVE, GM, sheet
from tests.service.helpers import snapshot


async def outbox_kinds(uow_factory, game):
    async with uow_factory() as uow:
        return [(m.kind, m.dest_key) for m in await uow.outbox.for_game(game)]


async def test_reminders_then_call_time_at_the_deadline(services, table, clock, uow_factory):
    game = table["game"]
    await services.turns.seal(game, GM)  # else the deadline waits for the NPC orders (below)
    turn = await services.calltime.set_deadline(game, GM, after=timedelta(hours=24))
    assert turn.deadline == clock.now() + timedelta(hours=24)
    assert await services.calltime.due() == []
    clock.advance(hours=12)  # the 12-hour reminder
    due = await services.calltime.due()
    assert [(a.kind, a.missing) for a in due] == [("reminder", ("Kael", "Mira"))]
    fired = await services.calltime.fire_due()
    assert [a.kind for a in fired] == ["reminder"]
    assert await services.calltime.fire_due() == []  # sent once
    await services.turns.pass_turn(game, BOB)
    clock.advance(hours=11)  # the 1-hour reminder names only who is missing
    fired = await services.calltime.fire_due()
    assert [(a.kind, a.missing) for a in fired] == [("reminder", ("Kael",))]
    clock.advance(hours=1)
    fired = await services.calltime.fire_due()
    assert [a.kind for a in fired] == ["deadline"]
    status = await services.turns.status(game)
    assert status.turn.status is TurnStatus.CLOSED
    kinds = await outbox_kinds(uow_factory, game)
    assert kinds.count(("reminder", "c1")) == 2
    assert ("time_called", "c1") in kinds and ("time_called", GM) in kinds
    with pytest.raises(Conflict):
        await services.turns.post(game, ALICE, channel_key="c1", message_key="late",
                                  text="3 AP defend")


async def test_a_deadline_set_late_skips_reminders_already_past(services, table, clock):
    game = table["game"]
    await services.turns.seal(game, GM)
    await services.calltime.set_deadline(game, GM, after=timedelta(minutes=90))
    clock.advance(minutes=29)
    assert await services.calltime.due() == []
    clock.advance(minutes=1)  # 1 hour before: the only reminder still ahead
    assert [a.kind for a in await services.calltime.fire_due()] == ["reminder"]
    clock.advance(hours=1)
    assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]


async def test_extend_pause_resume(services, table, clock):
    game = table["game"]
    first = await services.calltime.set_deadline(game, GM, after=timedelta(hours=2))
    extended = await services.calltime.extend(game, GM, timedelta(hours=3))
    assert extended.deadline == first.deadline + timedelta(hours=3)
    clock.advance(hours=1)
    paused = await services.calltime.pause(game, GM)
    assert paused.paused and paused.deadline is None
    clock.advance(days=3)
    assert await services.calltime.fire_due() == []
    resumed = await services.calltime.resume(game, GM)
    assert resumed.deadline == clock.now() + timedelta(hours=4)
    with pytest.raises(Conflict, match="not paused"):
        await services.calltime.resume(game, GM)


async def test_bad_clock_commands_change_nothing(services, table, clock, uow_factory):
    game = table["game"]
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match="future"):
        await services.calltime.set_deadline(game, GM, at=clock.now() - timedelta(minutes=1))
    with pytest.raises(InvalidInput):
        await services.calltime.extend(game, GM, timedelta(0))
    with pytest.raises(Forbidden):
        await services.calltime.set_deadline(game, ALICE, after=timedelta(hours=1))
    with pytest.raises(Forbidden):
        await services.calltime.close(game, ALICE)
    with pytest.raises(Conflict, match="not closed"):
        await services.calltime.reopen(game, GM)
    assert await snapshot(uow_factory) == before


async def test_close_and_reopen(services, table):
    game = table["game"]
    closed = await services.calltime.close(game, GM)
    assert closed.status is TurnStatus.CLOSED
    with pytest.raises(Conflict, match="not open"):
        await services.calltime.close(game, GM)
    reopened = await services.calltime.reopen(game, GM)
    assert reopened.status is TurnStatus.OPEN
    reply = await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                                      text="3 AP defend")
    assert reply.ok


async def test_new_turns_get_the_games_default_call_time(services, table, clock):
    game = table["game"]
    await services.games.configure(game, GM, settings={"calltime": "PT48H"})
    view = await services.resolution.resolve(game, GM, 1)
    status = await services.turns.status(game)
    assert view.next_turn == 2
    assert status.turn.deadline == clock.now() + timedelta(hours=48)


async def test_a_scheduler_back_after_the_deadline_calls_time_without_stale_reminders(
    services, table, clock, uow_factory
):
    game = table["game"]
    await services.turns.seal(game, GM)
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=24))
    clock.advance(days=2)
    fired = await services.calltime.fire_due()
    assert [a.kind for a in fired] == ["deadline"]
    assert ("reminder", "c1") not in await outbox_kinds(uow_factory, game)


async def test_a_post_counts_by_when_it_was_written_not_when_it_was_handled(services, table,
                                                                            clock):
    """An adapter that was away hands in posts late: one written before the deadline counts,
    one written after it is refused as late, and an edit after it leaves the orders as they
    were, though time was not called yet; chat after the deadline is still chat."""
    game = table["game"]
    turn = await services.calltime.set_deadline(game, GM, after=timedelta(hours=1))
    deadline = turn.deadline
    clock.advance(hours=2)  # the adapter is back; the scheduler has not called time yet
    before = deadline - timedelta(minutes=5)
    reply = await services.turns.post(game, ALICE, channel_key="c1", message_key="on-time",
                                      text="3 AP defend", posted_at=before)
    assert reply.ok
    with pytest.raises(Conflict, match="after turn 1's deadline"):
        await services.turns.post(game, BOB, channel_key="c1", message_key="late",
                                  text="3 AP defend", posted_at=deadline + timedelta(seconds=1))
    with pytest.raises(Conflict, match="orders stand as they were"):
        await services.turns.edit(game, ALICE, channel_key="c1", message_key="on-time",
                                  text="2 AP defend", posted_at=deadline + timedelta(minutes=1))
    chat = await services.turns.post(game, BOB, channel_key="c1", message_key="chat",
                                     text="sorry, I overslept", posted_at=deadline
                                     + timedelta(minutes=1))
    assert chat.outcome.value == "table_talk"
    status = await services.turns.status(game)
    assert status.turn.status is TurnStatus.OPEN and set(status.posted) == {"Kael"}
    [order] = [o for o in await services.turns.orders(game, GM) if o.character == "Kael"]
    assert order.revision == 1 and order.actions == ("Kael: 3 AP committed",
                                                     "  3 AP  defend (all attacks)")


async def test_a_deadline_with_npcs_without_orders_tells_the_gms_and_waits(
    services, table, clock, uow_factory
):
    """Calling time seals the NPC orders, and a closed turn takes none: at a deadline with NPCs
    that have no orders and nothing sealed, the GMs are told (once) and the turn stays open;
    their orders, once sealed, let the next round call time."""
    game = table["game"]
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=1))
    clock.advance(hours=2)
    assert [a.kind for a in await services.calltime.fire_due()] == ["waiting"]
    status = await services.turns.status(game)
    assert status.turn.status is TurnStatus.OPEN and not status.npc_sealed
    kinds = await outbox_kinds(uow_factory, game)
    assert ("npc_wait", GM) in kinds and ("time_called", "c1") not in kinds
    async with uow_factory() as uow:
        [told] = [m for m in await uow.outbox.for_game(game) if m.kind == "npc_wait"]
    assert "Skarg" in told.content and "time is not called" in told.content
    assert await services.calltime.fire_due() == []  # told once, not at every round
    assert [k for k in await outbox_kinds(uow_factory, game) if k[0] == "npc_wait"] == [
        ("npc_wait", GM)]
    reply = await services.turns.npc_orders(game, GM, channel_key="c1", message_key="n1",
                                            text="**Skarg**\n3 AP defend")
    assert reply.ok
    assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]
    status = await services.turns.status(game)
    assert status.turn.status is TurnStatus.CLOSED and status.npc_sealed


async def test_the_npcs_to_ask_about_are_none_once_sealed(services, table):
    game = table["game"]
    assert (await services.turns.status(game)).npcs_to_confirm == ("Goblins", "Skarg")
    await services.turns.seal(game, GM)
    assert (await services.turns.status(game)).npcs_to_confirm == ()


async def test_call_time_names_the_missing_as_the_turn_status_does(services, table, clock,
                                                                  uow_factory):
    """F30: the close works out who is missing without the whole turn status; it must name the
    same characters: not who posted, passed or is away, in the game's order."""
    game = table["game"]
    assert (await services.characters.create(game, CAROL, sheet("Bran"))).ok
    await services.games.add_member(game, GM, EVE, Role.PLAYER)
    assert (await services.characters.create(game, EVE, sheet("Rats"))).ok
    await services.pace.away(ALICE, None, clock.now() + timedelta(days=1))
    await services.turns.pass_turn(game, BOB)
    status = await services.turns.status(game)
    assert status.away == ("Kael",) and status.passed == ("Mira",)
    await services.calltime.close(game, GM)
    async with uow_factory() as uow:
        [called] = [m for m in await uow.outbox.for_game(game)
                    if m.kind == "time_called" and m.dest_key == "c1"]
    assert called.payload["missing"] == list(status.missing) == ["Bran", "Rats"]
