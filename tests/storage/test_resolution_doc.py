"""A resolution is stored with each of its character values once, and a resolution stored in the
earlier form (three documents more) still reads back whole, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from sqlalchemy import select, update

from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.results import ActionResult, Event, TurnResult, TurnState
from fappo_bot.service.records import Resolution
from fappo_bot.storage import mappers
from fappo_bot.storage.queries import RESOLUTIONS
from fappo_bot.storage.values import RawJSON

from . import records as r

pytestmark = pytest.mark.integration


def _played() -> Resolution:
    """A turn of three characters as `resolve` leaves it: the state before is the records' own
    states, Bryn's finalized state is its state after, Aria's sheet is its state."""
    aria = r.character("c1", "Aria")
    aria = aria.model_copy(update={"state": aria.sheet})
    bryn, cora = r.character("c2", "Bryn"), r.character("c3", "Cora", owner=None)
    records = (aria, bryn, cora)
    before = TurnState(
        turn=4,
        characters=tuple(c.state for c in records),
        pending=(PendingHit(id="h1", target="Aria", attacker="Cora", levels=1, turn=4),),
    )
    bryn_after = replace(bryn.state, health=3)
    finalized = TurnState(turn=4, characters=(aria.state, bryn_after, cora.state))
    after = TurnState(
        turn=5,
        characters=(replace(aria.state, health=1), bryn_after, cora.state),
        pending=before.pending,
    )
    result = TurnResult(
        turn=4,
        state=after,
        finalized=finalized,
        hits=before.pending,
        actions=(ActionResult(actor="Cora", index=0, kind="attack", target="Aria", damage=1),),
        events=(Event(kind="bleed", character="Bryn", levels=1),),
    )
    return r.resolution(
        id="r4",
        turn_number=4,
        result=result,
        state_before=before,
        state_after=after,
        characters_before=records,
    )


async def _stored_row(engine, resolution_id: str) -> dict[str, str]:
    async with engine.connect() as connection:
        row = (
            await connection.execute(
                select(
                    RESOLUTIONS.c.result,
                    RESOLUTIONS.c.state_before,
                    RESOLUTIONS.c.state_after,
                    RESOLUTIONS.c.characters_before,
                ).where(RESOLUTIONS.c.id == resolution_id)
            )
        ).one()
    return dict(row._mapping)


async def _seeded(uow_factory, *resolutions: Resolution) -> None:
    async with uow_factory() as uow:
        await uow.games.add(r.game())
        await uow.turns.add(r.turn())
        for resolution in resolutions:
            await uow.resolutions.add(resolution)
        await uow.commit()


async def test_each_character_value_of_a_resolution_is_stored_once(uow_factory, engine):
    played = _played()
    await _seeded(uow_factory, played)
    stored = await _stored_row(engine, "r4")
    document = json.loads(stored["result"])
    # 3 records x (sheet, state) + before 3 + finalized 3 + after 3 = 15 values, 7 distinct:
    # Aria's sheet (its state too, before and finalized), Bryn's and Cora's sheets, Bryn's and
    # Cora's states (Cora's also finalized and after), Bryn's state after, Aria's
    assert len(document["characters"]) == 7
    assert {
        json.loads(stored[c]) for c in ("state_before", "state_after", "characters_before")
    } == {None}
    async with uow_factory() as uow:
        back = await uow.resolutions.get("r4")
    assert back == played
    assert back is not None and back.state_after is back.result.state


async def test_a_state_after_of_its_own_and_no_finalized_state_read_back(uow_factory):
    other = TurnState(turn=2, characters=(r.sheet("Dara"),))
    plain = r.resolution(id="r5", state_after=other)
    await _seeded(uow_factory, plain)
    async with uow_factory() as uow:
        back = await uow.resolutions.get("r5")
    assert back == plain and back is not None and back.result.finalized is None


async def test_a_resolution_stored_in_the_earlier_form_reads_back_whole(uow_factory, engine):
    """Rows written before the compact form: the result, the state before, the state after (JSON
    null when it was the result's own) and the records each a document of their own."""
    played = _played()
    other = played.model_copy(update={"id": "r6", "state_after": TurnState(turn=9)})
    await _seeded(uow_factory, played, other)
    for resolution, state_after in (
        (played, RawJSON("null")),
        (other, mappers.docs(mappers._STATE, other.state_after)),
    ):
        async with engine.begin() as connection:
            await connection.execute(
                update(RESOLUTIONS)
                .where(RESOLUTIONS.c.id == resolution.id)
                .values(
                    result=mappers.docs(mappers._RESULT, resolution.result),
                    state_before=mappers.docs(mappers._STATE, resolution.state_before),
                    state_after=state_after,
                    characters_before=mappers.docs(mappers._RECORDS, resolution.characters_before),
                )
            )
    assert not json.loads((await _stored_row(engine, "r4"))["result"]).get("v")
    async with uow_factory() as uow:
        assert await uow.resolutions.get("r4") == played
        assert await uow.resolutions.get("r6") == other
