"""The outbox: messages committed with the change they report, delivered and marked sent."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import NotFound
from tests.service.conftest import ALICE, GM


@pytest.fixture(autouse=True)
def _no_jitter(services):
    """The outbox's waits without their random share, so that a test can name them."""
    import dataclasses

    from fappo_bot.service.delivery import DeliveryPolicy

    services.outbox.deps = dataclasses.replace(services.outbox.deps,
                                               delivery=DeliveryPolicy(draw=lambda: 0.0))


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


async def test_a_passing_failure_is_never_given_up_and_waits_up_to_the_cap(
    services, uow_factory, clock
):
    """A rate limit or an outage is no reason to drop a message: 40 failures in a row (8 was the
    old limit) leave it waiting, each wait doubled up to the cap, the later ones of its room
    behind it; then it goes."""
    await _queue(uow_factory, clock, ("a1", "room-a"), ("a2", "room-a"))
    policy = services.deps.delivery
    waits = []
    for attempt in range(1, 41):
        assert await _due(services) == ["a1", "a2"]  # a2 goes only after a1
        message = await services.outbox.mark_failed("a1", f"429 number {attempt}")
        assert message.gave_up_at is None and message.attempts == attempt
        waits.append(message.next_attempt_at - clock.current)
        assert await _due(services) == []  # a2 waits behind a1
        clock.current = message.next_attempt_at
    assert waits[:4] == [timedelta(seconds=s) for s in (5, 10, 20, 40)]
    assert max(waits) == waits[-1] == policy.longest_wait
    await services.outbox.mark_sent("a1", ["discord-1"])
    assert await _due(services) == ["a2"]


def test_the_wait_is_jittered_and_never_shorter_than_discord_asked():
    from fappo_bot.service.delivery import DeliveryPolicy

    draws = iter([0.0, 0.5, 0.999, 0.5, 0.5])
    policy = DeliveryPolicy(first_wait=timedelta(seconds=10), longest_wait=timedelta(minutes=5),
                            jitter=0.5, draw=lambda: next(draws))
    assert policy.wait(1) == timedelta(seconds=10)
    assert policy.wait(2) == timedelta(seconds=15)  # 20 s, a quarter off
    assert policy.wait(3) == timedelta(seconds=40) * (1 - 0.5 * 0.999)
    assert policy.wait(99) == timedelta(minutes=5) * 0.75  # the cap, jittered; no overflow
    assert policy.wait(1, retry_after=timedelta(seconds=90)) == timedelta(seconds=90)
    with pytest.raises(ValueError):
        DeliveryPolicy(jitter=1.5)


async def test_a_permanent_refusal_tells_the_gms_once_and_keeps_the_message(
    services, table, uow_factory, clock
):
    from fappo_bot.service.records import DestinationKind

    game = table["game"]
    await services.resolution.resolve(game, GM, 1)
    pending = await services.outbox.pending()
    rooms = [m for m in pending if m.dest_kind is DestinationKind.CHANNEL]
    first, second = rooms[0], rooms[1]
    gave_up = await services.outbox.mark_failed(
        first.id, "the bot lacks the permission to post there (Discord 403 50013)",
        permanent=True)
    assert gave_up.gave_up_at == clock.current and gave_up.next_attempt_at is None
    notices = [m for m in await services.outbox.pending() if m.kind == "undelivered"]
    assert [(m.dest_kind, m.dest_key) for m in notices] == [(DestinationKind.DM, GM)]
    text = notices[0].content
    assert "could not be delivered to the game's room" in text
    assert "lacks the permission to post there" in text
    assert first.content.splitlines()[0][:30] in text
    # the next refusal to the same room, not read since: no second notice
    await services.outbox.mark_failed(second.id, "again (Discord 403 50013)", permanent=True)
    assert len([m for m in await services.outbox.pending() if m.kind == "undelivered"]) == 1
    # kept: the turn status's list and the GM's inbox; a player's inbox has none of it
    assert [m.id for m in await services.outbox.given_up(game)] == [first.id, second.id]
    assert {first.id, second.id} <= {m.id for m in await services.outbox.inbox(GM)}
    assert not {first.id, second.id} & {m.id for m in await services.outbox.inbox(ALICE)}
    # a GM's notice that cannot go either is kept in their inbox, and noticed by nobody
    await services.outbox.mark_failed(notices[0].id, "closed (Discord 403 50007)",
                                      permanent=True)
    assert not [m for m in await services.outbox.pending() if m.kind == "undelivered"]
    assert notices[0].id in {m.id for m in await services.outbox.inbox(GM)}


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


@pytest.mark.unit
def test_ids_sort_in_the_order_they_were_made():
    """The outbox orders a destination's messages by time, then id: two made at the same
    moment (a frozen clock, or one tick) must keep the order they were made in."""
    from fappo_bot.service.clock import uuid_ids

    made = [uuid_ids() for _ in range(1000)]
    assert made == sorted(made) and len(set(made)) == 1000
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in made)
