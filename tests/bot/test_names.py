"""Display names through the fake Discord: whoever posts or uses a command has their display
name told to the service (a guild nickname first), once per change, so the service's views and
sentences name them as Discord shows them."""

from __future__ import annotations

import pytest

from tests.bot.table import KAEL_ORDERS, run_command, set_up_game, text_of
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


async def test_names_are_told_once_per_change(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    gm, alice = fake.gm, fake.alice
    users = running.services.users
    # the GM used commands, and named alice as the player of a character
    assert await users.display_names([gm["id"], alice["id"]]) == {gm["id"]: "gwen",
                                                                  alice["id"]: "alice"}

    told: list[tuple[str, str]] = []
    real = users.set_display_name

    async def counting(user_id: str, name: str) -> None:
        told.append((user_id, name))
        await real(user_id, name)

    users.set_display_name = counting
    post = await fake.post(room, alice, KAEL_ORDERS)
    await fake.wait_for(lambda: replies_to(fake, post))
    assert told == []  # unchanged names are not told again
    alice["global_name"] = "Alicia"  # a turn post tells a new name
    post = await fake.post(room, alice, "3 AP defend")
    await fake.wait_for(lambda: replies_to(fake, post))
    assert told == [(alice["id"], "Alicia")]
    text_of(await run_command(fake, alice, "turn status"))
    text_of(await run_command(fake, gm, "turn status"))
    assert told == [(alice["id"], "Alicia")]

    alice["nick"] = "Lady Alice"  # a guild nickname is the name shown there
    text_of(await run_command(fake, alice, "turn status"))
    assert told[1:] == [(alice["id"], "Lady Alice")]
    game = await running.services.games.show(running.bot.rooms._known[room])
    assert game.names[alice["id"]] == "Lady Alice" and game.names[gm["id"]] == "gwen"


async def test_a_dm_tells_the_name_too(running, fake) -> None:
    await set_up_game(fake)
    bob = fake.bob
    bob["global_name"] = "Bobby"
    await fake.dm(bob, "hello")
    users = running.services.users
    await fake.wait_for(lambda: running.bot.names._told.get(bob["id"]) == "Bobby")
    assert await users.display_names([bob["id"]]) == {bob["id"]: "Bobby"}


async def test_an_edit_tells_a_changed_name(running, fake) -> None:
    await set_up_game(fake)
    room, alice = fake.room["id"], fake.alice
    post = await fake.post(room, alice, KAEL_ORDERS)
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    alice["global_name"] = "Ally"
    await fake.edit(room, post["id"], "3 AP defend")
    await fake.wait_for(lambda: fake.sent("PATCH", f"/messages/{reply['id']}"))
    assert await running.services.users.display_names([alice["id"]]) == {alice["id"]: "Ally"}


async def test_game_show_names_people_as_discord_shows_them(running, fake) -> None:
    await set_up_game(fake)
    gm, alice = fake.gm, fake.alice
    alice["nick"] = "Lady @everyone"
    text_of(await run_command(fake, alice, "turn status"))
    [answer] = await run_command(fake, gm, "game show")
    data = answer["callback"]["data"]
    assert data["flags"] & 64 and data["allowed_mentions"] == {"parse": []}
    assert "GMs: gwen." in data["content"]
    assert "Players: Lady @" in data["content"] and "@everyone" not in data["content"]
    assert "<@" not in data["content"]


async def test_a_post_tells_the_guild_nickname(running, fake) -> None:
    """A guild message's event carries its author's membership: the post tells the name shown
    in that guild, the nickname first."""
    await set_up_game(fake)
    room, alice = fake.room["id"], fake.alice
    alice["nick"] = "Lady Alice"
    post = await fake.post(room, alice, KAEL_ORDERS)
    await fake.wait_for(lambda: replies_to(fake, post))
    assert await running.services.users.display_names([alice["id"]]) == {
        alice["id"]: "Lady Alice"}
