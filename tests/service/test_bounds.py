"""Every number a sheet or a GM command accepts is bounded, with the bound in the
message, and a post over the documented size is refused before it is read (docs/bounds.md)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from fappo_bot.posting.parser import MAX_POST_CHARS, MAX_POST_LINES
from fappo_bot.rules.healing import HealingCheck
from fappo_bot.service import InvalidInput, SceneGap, bounds
from fappo_bot.service.characters import NewCharacter
from tests.service.conftest import ALICE, GM, sheet
from tests.service.helpers import snapshot

BIG = 10**18
DOCS = (Path(__file__).resolve().parents[2] / "docs" / "bounds.md").read_text(encoding="utf-8")


@pytest.mark.unit
@pytest.mark.parametrize(("change", "message"), [
    ({"count": BIG}, "count: must be from 0 to 1,000, not 1,000,000,000,000,000,000"),
    ({"count": 1_000_000}, "count: must be from 0 to 1,000, not 1,000,000"),
    ({"ap": BIG}, "ap: must be from 0 to 20"),
    ({"position": -BIG}, "position: must be from -10,000 to 10,000"),
    ({"traits": {"Brawny": BIG}}, "traits.Brawny: must be from -1,000,000 to 1,000,000"),
    ({"budget": float("inf")}, "budget: must be from -1,000,000 to 1,000,000, not inf"),
    ({"spells": [{"name": "Boom", "effects": {"damage": BIG}}]},
     "spells.0.effects.damage: must be from -1,000,000 to 1,000,000"),
])
def test_a_sheet_number_beyond_its_bound_is_refused_with_the_bound(change, message):
    with pytest.raises(InvalidInput, match=re.escape(message)):
        sheet("Goblins", **change)


@pytest.mark.unit
def test_a_group_at_its_bound_is_taken():
    assert sheet("Goblins", count=bounds.MAX_COUNT).count == bounds.MAX_COUNT
    assert isinstance(sheet("Goblins", count=bounds.MAX_COUNT), NewCharacter)


async def test_gm_commands_refuse_numbers_beyond_their_bounds(services, table, uow_factory):
    game = table["game"]
    before = await snapshot(uow_factory)
    refusals = {
        "from 0 to 1,000": lambda: services.characters.set_count(game, GM, "Goblins", BIG),
        "at most 366 days": lambda: services.calltime.set_deadline(game, GM, after=timedelta(days=10**8)),
        "366 days ": lambda: services.calltime.extend(game, GM, timedelta(days=400)),
        "from -10,000 to 10,000": lambda: services.review.set_inputs(game, GM,
                                                            end_positions={"Skarg": BIG}),
        "0 to 1,000,000": lambda: services.aftermath.declare_rest(game, ALICE, "Kael", {"Nimble": BIG}),
        "allocated at a rest must be from 0 to 1,000,000": lambda: services.aftermath.end_scene(
            game, GM, SceneGap.NIGHT, {"Kael": {"Nimble": BIG}}),
        "total must be from -1,000,000 to 1,000,000": lambda: services.aftermath.advance_time(
            game, GM, 60, checks={"Kael": HealingCheck(total=BIG)}),
    }
    for message, call in refusals.items():
        with pytest.raises(InvalidInput, match=message.strip()):
            await call()
    assert await snapshot(uow_factory) == before


async def test_a_review_difficulty_beyond_its_bound_is_refused(services, table):
    game = table["game"]
    reply = await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                                      text="2 AP Stealth: slip past\n1 AP defend")
    assert reply.ok
    review = await services.review.review(game, GM)
    key = next(i.key for i in review.items if i.field == "difficulty")
    with pytest.raises(InvalidInput, match="A difficulty is from 0 to 100"):
        await services.review.answer(game, GM, {key: str(BIG)})


@pytest.mark.parametrize("make", [
    lambda: "1 AP defend\n" * 4_400_000,  # the trial's 4.4 million lines (53 MB)
    lambda: "x" * (MAX_POST_CHARS + 1),
    lambda: "\n" * MAX_POST_LINES + "1 AP defend",
], ids=["4.4-million-lines", "characters", "lines"])
async def test_a_post_over_the_documented_size_is_refused_unread(services, table, uow_factory,
                                                                make):
    """Refused with one problem (no line of it was read: a read post reports its lines), for a
    post, an edit and NPC orders alike, and nothing is stored."""
    game = table["game"]
    text = make()
    before = await snapshot(uow_factory)
    replies = [
        await services.turns.post(game, ALICE, channel_key="c1", message_key="m1", text=text),
        await services.turns.post(game, ALICE, channel_key="dm", message_key="d1", text=text,
                                  secret=True),
        await services.turns.npc_orders(game, GM, channel_key="dm-gm", message_key="n1",
                                        text=text),
    ]
    for reply in replies:
        assert not reply.ok and len(reply.problems) == 1
        assert "a post can have at most 20,000 characters and 1,000 lines" in str(reply.problems[0])
        assert len(reply.reply) < 1_000
    assert await snapshot(uow_factory) == before
    assert (await services.turns.post(game, ALICE, channel_key="c1", message_key="m2",
                                      text="x\n" * (MAX_POST_LINES - 2) + "3 AP defend")).ok


@pytest.mark.unit
def test_the_documented_bounds_are_the_code_s():
    rows = {
        "MAX_POST_CHARS": (MAX_POST_CHARS, "at most 20,000 characters"),
        "MAX_POST_LINES": (MAX_POST_LINES, "and 1,000 lines"),
        "MAX_COUNT": (bounds.MAX_COUNT, "| 0 to 1,000 |"),
        "MAX_AP": (bounds.MAX_AP, "| 0 to 20 |"),
        "MAX_POSITION": (bounds.MAX_POSITION, "| -10,000 to 10,000 |"),
        "MAX_DIFFICULTY": (bounds.MAX_DIFFICULTY, "| 0 to 100 |"),
        "MAX_SHEET_NUMBER": (bounds.MAX_SHEET_NUMBER, "| -1,000,000 to 1,000,000"),
        "MAX_DEADLINE": (bounds.MAX_DEADLINE.days, "at most 366 days ahead"),
    }
    for name, (value, shown) in rows.items():
        assert shown in DOCS and name in DOCS, name
        assert f"{value:,}" in shown, (name, value, shown)
