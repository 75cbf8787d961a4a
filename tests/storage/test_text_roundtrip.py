"""Whatever a player types is stored and read back exactly (Hypothesis), on both databases."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.records import PostRevision

from . import records as r

_IDS = itertools.count()
# U+0000 has its own test below (PostgreSQL refuses it)
TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=300)
#: an order's actor is a character name: the service refuses one over 100 characters (MAX_NAME)
#: and the column holds 200, so a longer one is no text a player can have stored
ACTOR = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1,
                max_size=200)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(text=TEXT, reply=TEXT, problems=st.lists(TEXT, max_size=3), actor=ACTOR)
async def test_any_text_round_trips(uow_factory, text, reply, problems, actor):
    async with uow_factory() as uow:
        if await uow.games.get("g1") is None:
            await uow.games.add(r.game())
            await uow.turns.add(r.turn())
            await uow.commit()
    post_id = f"p{next(_IDS)}"
    revision = PostRevision(
        post_id=post_id,
        number=1,
        text=text,
        orders=(r.order(actor),),
        ok=True,
        problems=tuple(problems),
        reply=reply,
        created_at=r.at(1),
    )
    async with uow_factory() as uow:
        await uow.posts.add(r.post(id=post_id, message=post_id), revision)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.posts.revisions(post_id) == [revision]


async def test_a_nul_character_is_stored_exactly_or_refused_with_a_reason(
    uow_factory, database_kind
):
    """PostgreSQL text cannot hold U+0000: there the post is refused with a sentence saying so and
    nothing is stored; SQLite stores it exactly."""
    async with uow_factory() as uow:
        await uow.games.add(r.game())
        await uow.turns.add(r.turn())
        await uow.commit()
    revision = PostRevision(
        post_id="p0",
        number=1,
        text="a\x00b",
        orders=(r.order("Ar\x00ia"),),
        ok=True,
        problems=("bad\x00",),
        reply="\x00",
        created_at=r.at(1),
    )
    if database_kind == "postgres":
        async with uow_factory() as uow:
            with pytest.raises(InvalidInput, match="NUL character"):
                await uow.posts.add(r.post(id="p0", message="m\x000"), revision)
        async with uow_factory() as uow:
            assert await uow.posts.get("p0") is None
        return
    async with uow_factory() as uow:
        await uow.posts.add(r.post(id="p0", message="m\x000"), revision)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.posts.revisions("p0") == [revision]
        assert (await uow.posts.by_message("chan-1", "m\x000")).id == "p0"
