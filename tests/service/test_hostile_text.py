"""BRIEF: "Nothing a user writes can ping @everyone/@here/users/roles", and Discord takes 2,000
characters a message: a whole turn with hostile names and prose, every outbox message checked."""

from __future__ import annotations

import pytest

from fappo_bot.service import InvalidInput
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, GM, sheet
from tests.service.helpers import snapshot

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
