"""A deadline that fell while the bot was down moves by the outage's length
(`CallTimeService.outage`, the game's `outage_extends`, on by default), and the room is told;
any other deadline keeps its time."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import notices
from fappo_bot.service.records import TurnStatus
from tests.service.conftest import GM

pytestmark = pytest.mark.integration


async def _moved_notices(uow_factory, game):
    async with uow_factory() as uow:
        return [notices.read(m.kind, m.payload) for m in await uow.outbox.for_game(game)
                if m.kind == "deadline_moved"]


async def _kinds(uow_factory, game):
    async with uow_factory() as uow:
        return [m.kind for m in await uow.outbox.for_game(game)]


async def test_a_deadline_in_the_outage_moves_by_its_length(services, table, clock, uow_factory):
    game = table["game"]
    await services.turns.seal(game, GM)
    first = await services.calltime.set_deadline(game, GM, after=timedelta(hours=2))
    began = clock.now() + timedelta(minutes=30)
    ended = clock.advance(hours=5)  # down from 30 minutes in, 4h30m
    [moved] = await services.calltime.outage(began, ended)
    assert moved.deadline == first.deadline + timedelta(hours=4, minutes=30)
    [told] = await _moved_notices(uow_factory, game)
    assert told.by == "4h30m" and told.deadline == moved.deadline
    # the 1-hour reminder fell in the outage too: it is not sent late ("1 hour left" with 2)
    assert await services.calltime.fire_due() == []
    clock.advance(minutes=30)  # an hour before the moved deadline: its reminder
    assert [a.kind for a in await services.calltime.fire_due()] == ["reminder"]
    clock.advance(hours=1)
    assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]
    # told once: the same outage seen again moves nothing
    assert await services.calltime.outage(began, ended) == []
    assert len(await _moved_notices(uow_factory, game)) == 1


async def test_a_deadline_outside_the_outage_keeps_its_time(services, table, clock, uow_factory):
    game = table["game"]
    first = await services.calltime.set_deadline(game, GM, after=timedelta(hours=8))
    assert await services.calltime.outage(clock.now(), clock.advance(hours=2)) == []
    assert (await services.turns.status(game)).turn.deadline == first.deadline
    assert await _moved_notices(uow_factory, game) == []


async def test_a_game_that_keeps_its_deadlines_through_an_outage(services, table, clock,
                                                                 uow_factory):
    game = table["game"]
    await services.games.set_setting(game, GM, "outage_extends", "off")
    await services.turns.seal(game, GM)
    first = await services.calltime.set_deadline(game, GM, after=timedelta(hours=1))
    assert await services.calltime.outage(clock.now(), clock.advance(hours=2)) == []
    assert (await services.turns.status(game)).turn.deadline == first.deadline
    assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]
    assert (await services.turns.status(game)).turn.status is TurnStatus.CLOSED
    assert "deadline_moved" not in await _kinds(uow_factory, game)


async def test_a_paused_turn_has_no_deadline_to_move(services, table, clock):
    game = table["game"]
    await services.calltime.set_deadline(game, GM, after=timedelta(hours=1))
    await services.calltime.pause(game, GM)
    assert await services.calltime.outage(clock.now(), clock.advance(hours=2)) == []
