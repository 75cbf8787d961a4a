"""The outbox: messages committed with the change they report, delivered and marked sent."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import NotFound
from tests.service.conftest import GM


async def test_pending_messages_are_delivered_once(services, table):
    game = table["game"]
    await services.resolution.resolve(game, GM, 1)
    pending = await services.outbox.pending()
    assert [m.kind for m in pending][:1] == ["turn_opened"]
    assert {"results", "turn_opened"} <= {m.kind for m in pending}
    results = next(m for m in pending if m.kind == "results")
    again = await services.outbox.mark_failed(results.id, "discord is down")
    assert again.attempts == 1 and again.last_error == "discord is down"
    for message in pending:
        await services.outbox.mark_sent(message.id)
    await services.outbox.mark_sent(results.id)  # idempotent
    assert await services.outbox.pending() == []
    sent = await services.outbox.for_game(game)
    assert all(m.sent_at is not None for m in sent)
    with pytest.raises(NotFound):
        await services.outbox.mark_sent("nope")


async def _queue(uow_factory, clock, *specs):
    """Queue messages (id, dest_key[, dm]) one second apart, oldest first."""
    from fappo_bot.service.records import DestinationKind, OutboxMessage

    async with uow_factory() as uow:
        for n, (message_id, dest, *dm) in enumerate(specs):
            await uow.outbox.add(OutboxMessage(
                id=message_id, dest_key=dest, kind="notice", content=f"text {message_id}",
                dest_kind=DestinationKind.DM if dm else DestinationKind.CHANNEL,
                dedupe_key=f"k-{message_id}", created_at=clock.current + timedelta(seconds=n)))
        await uow.commit()
    clock.advance(seconds=len(specs))


async def _due(services, destinations=None):
    return [m.id for m in await services.outbox.pending(destinations=destinations)]


async def test_a_failed_delivery_backs_off_holding_back_only_its_own_destination(
    services, uow_factory, clock
):
    await _queue(uow_factory, clock, ("a1", "room-a"), ("b1", "room-b"), ("a2", "room-a"))
    failed = await services.outbox.mark_failed("a1", "503 Service Unavailable")
    assert failed.attempts == 1 and failed.next_attempt_at == clock.current + timedelta(seconds=5)
    # a2 waits behind a1 (order per destination); room-b is not held back
    assert await _due(services) == ["b1"]
    clock.advance(seconds=5)
    assert await _due(services) == ["a1", "b1", "a2"]
    again = await services.outbox.mark_failed("a1", "503 again")
    assert again.next_attempt_at == clock.current + timedelta(seconds=10)  # doubled
    await services.outbox.mark_sent("b1", ["discord-9"])
    assert await _due(services) == []
    clock.advance(seconds=10)
    await services.outbox.mark_sent("a1", ["discord-10", "discord-11"])
    assert await _due(services) == ["a2"]
    a1 = await _get(uow_factory, "a1")
    assert a1.delivered_keys == ("discord-10", "discord-11") and a1.attempts == 2


async def _get(uow_factory, message_id):
    async with uow_factory() as uow:
        return await uow.outbox.get(message_id)


async def test_delivery_is_given_up_after_the_last_attempt_with_its_reason(
    services, uow_factory, clock
):
    await _queue(uow_factory, clock, ("a1", "room-a"), ("a2", "room-a"))
    policy = services.deps.delivery
    for attempt in range(1, policy.max_attempts + 1):
        assert await _due(services) == ["a1", "a2"]
        message = await services.outbox.mark_failed("a1", f"failure {attempt}")
        clock.advance(seconds=policy.longest_wait.total_seconds())
    assert message.gave_up_at is not None and message.attempts == policy.max_attempts
    stored = await _get(uow_factory, "a1")
    assert (stored.gave_up_at, stored.last_error, stored.sent_at) == (
        message.gave_up_at, f"failure {policy.max_attempts}", None)
    # never tried again, and no longer holding back the room
    assert await _due(services) == ["a2"]
    assert (await services.outbox.mark_failed("a1", "late")).last_error == stored.last_error


async def test_a_dm_refused_for_good_is_given_up_at_once_and_kept_in_the_inbox(
    services, uow_factory, clock
):
    await _queue(uow_factory, clock, ("d1", "bob", "dm"), ("c1", "room-a"), ("d2", "bob", "dm"),
                 ("d3", "alice", "dm"))
    gave_up = await services.outbox.mark_failed("d1", "50007 Cannot send messages to this user",
                                                permanent=True)
    assert gave_up.gave_up_at == clock.current and gave_up.next_attempt_at is None
    assert await _due(services) == ["c1", "d2", "d3"]
    assert [m.id for m in await services.outbox.inbox("bob")] == ["d1", "d2"]
    await services.outbox.mark_sent("d2")
    assert [m.id for m in await services.outbox.inbox("bob")] == ["d1"]
    assert [m.id for m in await services.outbox.inbox("room-a")] == []


async def test_each_shard_gets_the_messages_of_its_own_destinations(services, uow_factory, clock):
    from fappo_bot.service.records import DestinationKind

    await _queue(uow_factory, clock, ("a1", "room-a"), ("b1", "room-b"), ("c1", "room-c"),
                 ("d1", "bob", "dm"), ("a2", "room-a"))
    assert await _due(services, {"room-a"}) == ["a1", "a2"]
    assert await _due(services, ["room-b", "room-c", "bob"]) == ["b1", "c1", "d1"]
    assert await _due(services, set()) == []
    assert await _due(services, {"room-a", "room-b", "room-c", "bob", "x"}) == [
        "a1", "b1", "c1", "d1", "a2"]
    # shard 0's process asks for the DMs alone: however many rooms' messages come first
    dms = await services.outbox.pending(limit=1, kind=DestinationKind.DM)
    assert [m.id for m in dms] == ["d1"]
    rooms = await services.outbox.pending(kind=DestinationKind.CHANNEL)
    assert [m.id for m in rooms] == ["a1", "b1", "c1", "a2"]
    both = await services.outbox.pending(destinations={"room-b", "bob"},
                                         kind=DestinationKind.DM)
    assert [m.id for m in both] == ["d1"]
