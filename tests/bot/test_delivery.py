"""Secret orders by DM, the outbox through Discord (nonces, a 429 survived, a player whose DMs
are closed), and the published command tree within Discord's limits."""

from __future__ import annotations

import asyncio
import contextlib
import re

import pytest

from tests.bot.table import KAEL_ORDERS, call_time, run_command, set_up_game
from tests.bot.test_settings import user_option

pytestmark = pytest.mark.e2e


async def test_secret_orders_by_dm_count_for_the_only_open_game(running, fake) -> None:
    await set_up_game(fake)
    dm = await fake.dm(fake.alice, KAEL_ORDERS)
    channel = dm["channel_id"]
    await fake.wait_for(lambda: fake.bot_messages(channel))
    [reply] = fake.bot_messages(channel)
    assert "Kael" in reply["content"]
    game_id = running.bot.rooms._known[fake.room["id"]]
    status = await running.services.turns.status(game_id)
    assert status.posted == ("Kael",)
    # the room learns nothing of the orders themselves
    assert not any("Broadsword" in m["content"] for m in fake.bot_messages(fake.room["id"]))


async def test_a_dm_from_someone_in_no_game_gets_one_sentence(running, fake) -> None:
    dm = await fake.dm(fake.bob, "2 AP attack Skarg")
    await fake.wait_for(lambda: fake.bot_messages(dm["channel_id"]))
    [reply] = fake.bot_messages(dm["channel_id"])
    assert reply["content"].startswith("You are in no game with an open turn")


async def test_results_survive_a_429_and_carry_nonces(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    fake.fail("POST", f"/channels/{room}/messages", 429,
              {"message": "You are being rate limited.", "retry_after": 0.05, "global": False},
              {"Via": "1.1 google", "Retry-After": "1", "X-RateLimit-Scope": "user"})
    before = len(fake.requests)
    await call_time(fake)
    await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                    for m in fake.bot_messages(room)))
    posts = [r for r in fake.requests[before:]
             if r.method == "POST" and r.path == f"/channels/{room}/messages"]
    # the first message was refused once (429), then sent again with the same nonce
    assert posts[0].body == posts[1].body and posts[0].body["enforce_nonce"] is True
    assert [m["content"][:20] for m in fake.bot_messages(room)][-2:] == [
        r.body["content"][:20] for r in posts[1:]]
    contents = [m["content"] for m in fake.bot_messages(room)]
    assert len(contents) == len(set(contents))  # nothing lost, nothing twice


async def call_time_by_another_gm(fake) -> None:
    """Bob, made a GM, calls time: gwen, the other GM, is told by DM (the GM who calls it is
    not: the room's notice says it to them)."""
    options, resolved = user_option(fake.bob)
    await run_command(fake, fake.gm, "game gm", options, resolved)
    await call_time(fake, fake.bob)


async def test_a_player_whose_dms_are_closed_is_told_in_the_room(running, fake) -> None:
    await set_up_game(fake)
    fake.closed_dms.add(fake.gm["id"])
    room = fake.room["id"]
    await call_time_by_another_gm(fake)
    notice = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                          if "cannot send you direct messages" in m["content"]])
    assert notice[0]["content"].startswith(f"<@{fake.gm['id']}>")
    assert notice[0]["allowed_mentions"] == {"parse": [], "users": [int(fake.gm["id"])]}
    # the undelivered DM stays in the outbox, with the reason
    game_id = running.bot.rooms._known[room]
    kept = [m for m in await running.services.outbox.for_game(game_id)
            if m.dest_kind.value == "dm" and m.sent_at is None]
    assert kept and "50007" in (kept[0].last_error or "")


NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


def _check(command: dict, problems: list[str], path: str = "") -> int:
    where = f"{path}/{command['name']}"
    if not NAME.match(command["name"]):
        problems.append(f"{where}: bad name")
    if not 1 <= len(command.get("description", "")) <= 100:
        problems.append(f"{where}: description of {len(command.get('description', ''))}")
    options = command.get("options") or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options")
    size = len(command["name"]) + len(command.get("description", ""))
    for option in options:
        size += _check(option, problems, where)
        if len(option.get("choices") or []) > 25:
            problems.append(f"{where}/{option['name']}: too many choices")
    return size


async def test_the_published_command_tree_is_within_discords_limits(running, fake) -> None:
    problems: list[str] = []
    for command in fake.commands:
        if _check(command, problems) > 4000:
            problems.append(f"/{command['name']}: over 4,000 characters")
    assert problems == []
    names = {c["name"]: [o["name"] for o in c.get("options") or []] for c in fake.commands}
    assert names["game"] == ["trait", "create", "show", "player", "gm", "remove", "settings",
                             "set", "status", "ledger", "link"]
    assert names["me"] == ["remind", "away", "back", "digest", "layout", "link"]
    assert {"open", "status", "pass", "calltime"} <= set(names["turn"])
    assert {"resolve", "undo"} <= set(names["gm"])
    guild_only = {c["name"]: c["contexts"] for c in fake.commands}
    assert guild_only["game"] == [0] and guild_only["help"] is None


async def test_inbox_shows_what_could_not_be_sent_by_dm(running, fake) -> None:
    await set_up_game(fake)
    fake.closed_dms.add(fake.gm["id"])
    room = fake.room["id"]
    await call_time_by_another_gm(fake)
    await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                 if "cannot send you direct messages" in m["content"]])
    [answer] = await run_command(fake, fake.gm, "inbox")
    assert answer["callback"]["data"]["flags"] & 64
    assert "Time is called on turn 1" in answer["callback"]["data"]["content"]
    [again] = await run_command(fake, fake.gm, "inbox")
    assert again["callback"]["data"]["content"] == "Nothing is waiting for you."


async def test_a_stale_board_wakes_the_outbox_loop_without_reading_the_outbox(running) -> None:
    """A post touches its room's board and queues nothing: the loop's round that brings the
    board up to date reads the outbox only when something was queued, or when its interval
    came (the messages whose retry came due)."""
    delivery = running.bot.delivery
    loop = delivery.outbox_loop
    loop.cancel()  # its rounds are run one by one here
    with contextlib.suppress(asyncio.CancelledError):
        await loop.get_task()
    reads: list[object] = []
    refreshes: list[object] = []
    outbox, boards = running.services.outbox, running.bot.boards
    pending, refresh = outbox.pending, boards.refresh

    async def read(*args: object) -> object:
        reads.append(args)
        return await pending(*args)

    async def refreshed() -> None:
        refreshes.append(())
        await refresh()

    outbox.pending, boards.refresh = read, refreshed
    running.settings.discord.outbox_interval_seconds = 60.0
    delivery.wake()
    await loop.coro(delivery)
    assert (len(reads), len(refreshes)) == (1, 1)
    delivery.wake_boards()
    await loop.coro(delivery)
    assert (len(reads), len(refreshes)) == (1, 2)  # the boards only
    running.settings.discord.outbox_interval_seconds = 0.0  # from now on, up at once
    delivery.wake()
    await loop.coro(delivery)
    assert (len(reads), len(refreshes)) == (2, 3)
    await loop.coro(delivery)  # woken by nothing: the interval's round
    assert (len(reads), len(refreshes)) == (3, 4)
