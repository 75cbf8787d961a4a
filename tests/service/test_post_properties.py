"""Property: whatever a player posts, edits and deletes, the orders in force are those of the
newest valid write among the posts not deleted (F29 Amb-2/Amb-3; posting.md "whole or not at
all")."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fappo_bot.service import Services
from fappo_bot.service.records import Role
from fappo_bot.service.scene import orders_in_force
from fappo_bot.service.views import PostOutcome
from tests.service.conftest import ALICE, GM, FakeClock, sheet
from tests.service.fakes import FakeUowFactory

pytestmark = pytest.mark.unit

TEXTS = {
    "defend": "3 AP defend",
    "attack": "2 AP attack Skarg with Broadsword\n1 AP defend",
    "stealth": "2 AP Stealth: hide\n1 AP defend",
    "bad": "2 AP attack Gobbo",
}
KINDS = {"defend": ("defend",), "attack": ("attack", "defend"), "stealth": ("skill", "defend")}

ops = st.lists(
    st.tuples(st.sampled_from(["post", "edit", "delete"]), st.integers(0, 2),
              st.sampled_from(sorted(TEXTS))),
    max_size=12,
)


async def _play(steps: list[tuple[str, int, str]]) -> None:
    clock = FakeClock()
    counter = itertools.count()
    factory = FakeUowFactory()
    services = Services(factory, clock=clock, ids=lambda: f"id{next(counter):05d}")
    game = (await services.games.create(channel_key="c1", name="P", creator=GM)).id
    await services.games.add_member(game, GM, ALICE, Role.PLAYER)
    await services.characters.create(game, ALICE, sheet("Kael"))
    await services.characters.add_enemy(game, GM, sheet("Skarg"))
    await services.turns.open(game, GM)
    # the model: message -> (alive, kinds of its newest valid revision, time of that write)
    model: dict[int, tuple[bool, tuple[str, ...] | None, int]] = {}
    for tick, (op, message, text) in enumerate(steps):
        clock.advance(seconds=1)
        key = f"m{message}"
        alive, kinds, at = model.get(message, (False, None, -1))
        valid = text != "bad"
        if op == "delete":
            withdrawn = await services.turns.delete(game, ALICE, channel_key="c1",
                                                    message_key=key)
            assert (withdrawn is not None) == (alive and kinds is not None)
            if alive:
                model[message] = (False, kinds, at)
            continue
        if op == "post" and message in model:
            continue  # a message is posted once; later versions are edits
        if op == "edit" and message in model and not alive:
            continue  # deleted: edits are refused, covered elsewhere
        call = services.turns.post if op == "post" else services.turns.edit
        reply = await call(game, ALICE, channel_key="c1", message_key=key, text=TEXTS[text])
        assert reply.ok == valid
        if op == "edit" and alive and kinds == KINDS.get(text):
            assert reply.outcome is PostOutcome.UNCHANGED  # no write: its time stays
            continue
        if valid:
            model[message] = (True, KINDS[text], tick)
    async with factory() as uow:
        turn = await uow.turns.latest(game)
        in_force = await orders_in_force(uow, turn)
    live = [(at, kinds) for alive, kinds, at in model.values() if alive and kinds]
    expected = max(live)[1] if live else None
    found = in_force.get("kael")
    got = tuple(a.kind.value for a in found.order.actions) if found else None
    assert got == expected


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_the_newest_valid_write_is_in_force(steps):
    asyncio.run(_play(steps))
