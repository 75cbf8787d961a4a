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
    # the GM used commands; alice has not spoken yet, so the service does not know her name
    assert await users.display_names([gm["id"], alice["id"]]) == {gm["id"]: "gwen"}

    told: list[tuple[str, str]] = []
    real = users.set_display_name

    async def counting(user_id: str, name: str) -> None:
        told.append((user_id, name))
        await real(user_id, name)

    users.set_display_name = counting
    post = await fake.post(room, alice, KAEL_ORDERS)  # a turn post tells her name
    await fake.wait_for(lambda: replies_to(fake, post))
    assert told == [(alice["id"], "alice")]
    text_of(await run_command(fake, alice, "turn status"))
    text_of(await run_command(fake, gm, "turn status"))
    assert told == [(alice["id"], "alice")]  # unchanged names are not told again

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
