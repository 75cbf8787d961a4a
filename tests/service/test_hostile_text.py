"""BRIEF: "Nothing a user writes can ping @everyone/@here/users/roles", and Discord takes 2,000
characters a message: a whole turn with hostile names and prose, every outbox message checked."""

from __future__ import annotations

import re

import pytest

from fappo_bot.service import InvalidInput
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, BOB, GM, sheet
from tests.service.helpers import resolved, snapshot

MENTIONS = "@everyone @here <@123> <@&456> <#789>"
FENCE = "```"
LONG = "x" * 3000  # one 3,000-character line
KAEL = f"Kael {MENTIONS}"
MIRA = f"Mira @here {FENCE}"
SKARG = "Skarg <@&456> <#789>"
OGRE = "Ogre" + "o" * 2996  # a 3,000-character name: refused, with a message
LIVE = ("@everyone", "@here", "<@")


async def _post(services, game, user, text, *, secret=False):
    reply = await services.turns.post(game, user, channel_key=f"dm-{user}" if secret else "c1",
                                      message_key=f"{user}-{len(text)}", text=text,
                                      secret=secret)
    assert reply.ok, reply.reply
    return reply


async def test_a_name_too_long_is_refused_with_a_message_and_nothing_stored(
    services, uow_factory
):
    """BRIEF: "Bad user input always gets a clear, specific message, never a traceback" (a
    3,000-character name was a database error on PostgreSQL, whose name columns hold 200)."""
    game = (await services.games.create(channel_key="c1", name="Road", creator=GM)).id
    await services.games.add_member(game, GM, ALICE, Role.PLAYER)
    assert (await services.characters.create(game, ALICE, sheet("Kael"))).ok
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match="at most 100 characters; this one has 3000"):
        await services.characters.add_enemy(game, GM, sheet("Skarg", name=OGRE))
    with pytest.raises(InvalidInput, match="at most 100 characters"):
        await services.characters.create(game, ALICE, sheet("Mira", name="M" * 101))
    with pytest.raises(InvalidInput, match="at most 100 characters"):
        await services.characters.edit(game, GM, "Kael", sheet("Kael", name=OGRE))
    with pytest.raises(InvalidInput, match="at most 100 characters"):
        await services.games.create(channel_key="c2", name=OGRE, creator=GM)
    assert await snapshot(uow_factory) == before
    assert (await services.characters.add_enemy(game, GM, sheet("Skarg", name="S" * 100))).ok


async def test_no_outbox_message_of_a_hostile_turn_can_ping_or_exceed_2000_characters(
    services, uow_factory
):
    game = (await services.games.create(channel_key="c1", name=f"Road {MENTIONS} {FENCE}",
                                        creator=GM)).id
    for player in (ALICE, BOB):
        await services.games.add_member(game, GM, player, Role.PLAYER)
    assert (await services.characters.create(game, ALICE, sheet("Kael", name=KAEL))).ok
    assert (await services.characters.create(game, BOB, sheet("Mira", name=MIRA))).ok
    assert (await services.characters.add_enemy(game, GM, sheet("Skarg", name=SKARG))).ok
    assert (await services.characters.add_enemy(game, GM, sheet("Goblins", name="Ogre"))).ok
    await services.turns.open(game, GM)
    await _post(services, game, ALICE,
                f"Kael shouts {MENTIONS} and {FENCE}\n{LONG}\n"
                f"2 AP attack Skarg with Broadsword, +1 ({MENTIONS} high ground)\n1 AP defend\n"
                f"Intent: {MENTIONS} {LONG}\nOOC: {MENTIONS} {FENCE} {LONG}")
    await _post(services, game, BOB, f"{FENCE} {MENTIONS}\n{LONG}\n"
                                     f"2 AP attack Kael with Dagger ({MENTIONS} {LONG})\n"
                                     f"1 AP defend\nIntent: {FENCE}{MENTIONS}", secret=True)
    await _post(services, game, GM, f"**Skarg**\n2 AP attack Kael with Broadsword ({MENTIONS} "
                                    f"{LONG})\nIntent: {MENTIONS} {FENCE} {LONG}\n**Ogre**\n"
                                    "2 AP attack Mira")
    review = await services.review.review(game, GM)
    answers = {i.key: "accept" for i in review.items if i.required and i.field == "claim"}
    assert answers  # the claim's reason is prose too
    await services.review.answer(game, GM, answers)
    view = await resolved(services, game, GM, 1)
    assert view.result.actions
    async with uow_factory() as uow:
        messages = list(await uow.outbox.for_game(game))
    kinds = {m.kind for m in messages}
    assert {"turn_opened", "sealed", "results", "results_private", "revealed"} <= kinds
    for message in messages:
        assert len(message.content) <= 2000, (message.kind, len(message.content))
        for live in LIVE:
            assert live not in message.content, (message.kind, live, message.content[:300])
    # the names are there, only made inert, and the long lines are split, not cut off
    assert any("Kael @\u200beveryone" in m.content for m in messages if m.kind == "results")
    assert any("Mira @\u200bhere" in m.content for m in messages
               if m.kind == "results_private")
    revealed = [m for m in messages if m.kind == "revealed"]
    shown = [m for m in revealed if "```json" not in m.content]
    assert len(shown) >= 3  # two 3,000-character lines need three messages at least
    assert "".join(m.content for m in shown).count(LONG) == 2  # the why and the intent, whole
    # split parts keep their order and their dedupe keys follow the first
    keys = [m.dedupe_key for m in revealed]
    assert keys[1:] == [f"{keys[0]}#{n}" for n in range(2, len(keys) + 1)]
    # the parts of the reveal carry its data, numbered; the adapters' renderings ping nobody
    # although the payloads keep the names as written
    assert [(m.part, m.parts) for m in shown] == [(n, len(shown)) for n in range(1, len(shown) + 1)]
    assert all(m.payload == shown[0].payload and m.payload["turn"] == 1 for m in shown)
    from fappo_bot.console.rendering import rendered as at_the_table
    from fappo_bot.discord.rendering import rendered as on_discord

    assert any("@everyone" in str(m.payload) for m in messages)
    for message in messages:
        for text in (on_discord(message), at_the_table(message).text):
            for live in LIVE:
                assert live not in text, (message.kind, live, text[:300])
    # the code fences a user wrote cannot open a block: every block is the bot's own JSON
    for message in messages:
        fences = re.findall(r"```", message.content)
        if fences:
            assert message.kind == "revealed" and "```json\n" in message.content
            assert len(fences) == 2
