"""Grace, as the Diplomacy judges do it (`service/grace.py`): each player has the game's
`grace` automatic extensions; a deadline that finds late players with some left moves once by
`grace_period`, each of them spends one, and the room is told, naming them. Budget spent or
none set: time is called as without it. Away players spend none (an injected predicate)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import notices
from fappo_bot.service.facade import Services
from fappo_bot.service.records import TurnStatus
from tests.service.conftest import ALICE, BOB, GM
from tests.service.helpers import stored_game

pytestmark = pytest.mark.integration


async def _grace_notices(uow_factory, game):
    async with uow_factory() as uow:
        return [notices.read(m.kind, m.payload) for m in await uow.outbox.for_game(game)
                if m.kind == "grace"]


async def _used(services, game):
    return (await stored_game(services, game)).settings.grace_used


async def _with_grace(services, game, grace: str, period: str = "12h"):
    await services.games.set_setting(game, GM, "grace", grace)
    await services.games.set_setting(game, GM, "grace_period", period)
    await services.games.set_setting(game, GM, "reminders", "none")
    await services.turns.seal(game, GM)  # else the deadline waits for the NPC orders
    return await services.calltime.set_deadline(game, GM, after=timedelta(hours=24))


async def test_a_deadline_with_late_players_moves_once_and_each_spends_one(
        services, table, clock, uow_factory):
    game = table["game"]
    first = await _with_grace(services, game, "1")
    clock.advance(hours=24)
    fired = await services.calltime.fire_due()
    assert [a.kind for a in fired] == ["grace"]
    status = await services.turns.status(game)
    assert status.turn.status is TurnStatus.OPEN
    assert status.turn.deadline == first.deadline + timedelta(hours=12)
    assert await _used(services, game) == {ALICE: 1, BOB: 1}
    [told] = await _grace_notices(uow_factory, game)
    assert told.late == ("Kael", "Mira") and told.by == "12h"
    assert told.deadline == first.deadline + timedelta(hours=12)
    assert await services.calltime.fire_due() == []  # once: not again before the new deadline

    # Kael posts in the grace; Mira's player has none left: time is called at the new deadline
    assert (await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                                      text="3 AP defend")).ok
    clock.advance(hours=12)
    assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]
    status = await services.turns.status(game)
    assert status.turn.status is TurnStatus.CLOSED and status.posted == ("Kael",)
    assert len(await _grace_notices(uow_factory, game)) == 1


async def test_a_budget_lasts_its_number_of_deadlines_across_restarts(
        services, table, clock, uow_factory):
    game = table["game"]
    first = await _with_grace(services, game, "2", "6h")
    await services.turns.pass_turn(game, BOB)  # only Kael is late
    clock.advance(hours=24)
    assert [a.kind for a in await services.calltime.fire_due()] == ["grace"]
    # the bot restarts: the counters and the moved deadline are in the database
    again = Services(uow_factory, clock=clock)
    clock.advance(hours=6)
    assert [a.kind for a in await again.calltime.fire_due()] == ["grace"]
    assert (await again.turns.status(game)).turn.deadline == first.deadline + timedelta(hours=12)
    assert await _used(again, game) == {ALICE: 2}
    clock.advance(hours=6)
    assert [a.kind for a in await again.calltime.fire_due()] == ["deadline"]
    assert [n.late for n in await _grace_notices(uow_factory, game)] == [("Kael",), ("Kael",)]


async def test_no_grace_set_calls_time_as_before(services, table, clock, uow_factory):
    game = table["game"]
    await _with_grace(services, game, "0")
    clock.advance(hours=24)
    assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]
    assert await _grace_notices(uow_factory, game) == []
    assert await _used(services, game) == {}


async def test_everyone_in_needs_no_grace(services, table, clock, uow_factory):
    game = table["game"]
    await _with_grace(services, game, "3")
    await services.turns.pass_turn(game, ALICE)
    await services.turns.pass_turn(game, BOB)
    clock.advance(hours=24)
    assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]
    assert await _used(services, game) == {}


async def test_an_away_player_spends_no_grace_and_holds_nothing_back(
        services, table, clock, uow_factory):
    game = table["game"]
    first = await _with_grace(services, game, "1")

    async def bob_is_away(uow, game_record, user, at):
        return user == BOB

    clock.advance(hours=24)
    assert [a.kind for a in await services.calltime.fire_due(away=bob_is_away)] == ["grace"]
    assert await _used(services, game) == {ALICE: 1}
    [told] = await _grace_notices(uow_factory, game)
    assert told.late == ("Kael",)
    clock.advance(hours=12)
    assert [a.kind for a in await services.calltime.fire_due(away=bob_is_away)] == ["deadline"]
    assert (await services.turns.status(game)).turn.deadline == first.deadline + timedelta(
        hours=12)


async def test_a_scheduler_back_long_after_the_deadline_gives_a_period_from_now(
        services, table, clock):
    game = table["game"]
    await _with_grace(services, game, "1", "1h")
    clock.advance(hours=30)  # the deadline and its period are both past
    assert [a.kind for a in await services.calltime.fire_due()] == ["grace"]
    assert (await services.turns.status(game)).turn.deadline == clock.now() + timedelta(hours=1)
