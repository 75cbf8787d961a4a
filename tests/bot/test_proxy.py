"""Proxy posts through the fake Discord (`discord/proxy.py`): where a game takes them, a
PluralKit or Tupperbox webhook post named after a character counts for that character's player,
its edits and deletion follow; the member's original, which the app deletes and posts again, is
held for the grace and never counts nor gets a reply; other webhooks and other names are table
talk; a proxy post made while the bot was down is caught up. The grace's timer is the test's:
nothing waits for real time."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from fappo_bot.discord.proxy import reposts, speaker
from fappo_bot.settings import PLURALKIT_APP, TUPPERBOX_APP
from tests.bot.conftest import RunningBot
from tests.bot.table import KAEL_ORDERS, add_sheet, run_command, set_up_game, text_of
from tests.bot.test_catchup import caught_up
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


class Timer:
    def __init__(self, delay: float, work: Callable[[], Awaitable[None]]) -> None:
        self.delay = delay
        self.work = work
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Grace:
    """The proxy grace's timer, run by the test: nothing is released until `run`."""

    def __init__(self) -> None:
        self.timers: list[Timer] = []

    def __call__(self, delay: float, work: Callable[[], Awaitable[None]]) -> Timer:
        timer = Timer(delay, work)
        self.timers.append(timer)
        return timer

    async def run(self) -> None:
        """The grace ends for every post held now."""
        due, self.timers = self.timers, []
        for timer in due:
            if not timer.cancelled:
                await timer.work()


async def held(bot: Any, predicate: Callable[[list[Any]], bool]) -> None:
    """Wait until the posts the bot holds satisfy `predicate` (woken at each change)."""
    proxies = bot.proxies

    async def until() -> None:
        while True:
            proxies.changed.clear()
            if predicate(proxies.held()):
                return
            await proxies.changed.wait()

    await asyncio.wait_for(until(), 10)


@pytest.fixture
async def grace() -> Grace:
    return Grace()


@pytest.fixture
async def proxied_bot(fake, tmp_path, grace):
    bot = RunningBot(fake, tmp_path / "data", later=grace)
    await bot.start()
    try:
        yield bot
    finally:
        await bot.stop()


async def proxy_game(fake) -> None:
    await set_up_game(fake)
    [answer] = await run_command(fake, fake.gm, "game set", [
        {"type": 3, "name": "name", "value": "proxy_posts"},
        {"type": 3, "name": "value", "value": "on"}])
    assert answer["callback"]["data"]["content"] == "`proxy_posts` is now on."


async def test_a_pluralkit_post_counts_once_for_the_characters_player(proxied_bot, fake,
                                                                      grace) -> None:
    running = proxied_bot
    await proxy_game(fake)
    room = fake.room["id"]
    game_id = running.bot.rooms._known[room]
    # alice writes with her PluralKit tags; PluralKit posts it again as "Kael", then deletes it
    original = await fake.post(room, fake.alice, "k:" + KAEL_ORDERS)
    await held(running.bot, lambda messages: len(messages) == 1)
    proxied = await fake.webhook_post(room, "Kael [Ash]", KAEL_ORDERS,
                                      application_id=PLURALKIT_APP)
    [reply] = await fake.wait_for(lambda: replies_to(fake, proxied))
    assert "Kael" in reply["content"] and "3/3 AP" in reply["content"]
    assert reply["allowed_mentions"] == {"parse": []}
    await fake.delete(room, original["id"])
    await held(running.bot, lambda messages: messages == [])
    await grace.run()  # the original's grace ends: it was dropped, nothing happens
    assert replies_to(fake, original) == []
    status = await running.services.turns.status(game_id)
    assert status.posted == ("Kael",)
    log = await running.services.games.audit_log(game_id, fake.gm["id"])
    assert [e.actor for e in log if e.action == "post.create"] == [fake.alice["id"]]

    # PluralKit edits its message (pk;edit): the same reply follows
    await fake.edit(room, proxied["id"], "2 AP attack Nobody with Broadsword\n1 AP defend")
    await fake.wait_for(lambda: fake.sent("PATCH", f"/messages/{reply['id']}"))
    assert "Nobody" in fake.messages[room][reply["id"]]["content"]
    # and deletes it: the orders are withdrawn, the reply deleted
    await fake.edit(room, proxied["id"], "3 AP defend")
    await fake.wait_for(lambda: len(fake.sent("PATCH", f"/messages/{reply['id']}")) == 2)
    await fake.delete(room, proxied["id"])
    await fake.wait_for(lambda: fake.sent("DELETE", f"/messages/{reply['id']}"))
    status = await running.services.turns.status(game_id)
    assert status.missing == ("Kael",)


async def test_an_original_reposted_is_dropped_even_if_its_deletion_is_late(
        proxied_bot, fake, grace) -> None:
    running = proxied_bot
    await proxy_game(fake)
    room = fake.room["id"]
    original = await fake.post(room, fake.alice, "[" + KAEL_ORDERS + "]")
    untouched = await fake.post(room, fake.alice, "3 AP defend")
    await held(running.bot, lambda messages: len(messages) == 2)
    # Tupperbox reposts the text inside her brackets; its deletion of the original is slow
    proxied = await fake.webhook_post(room, "Kael", KAEL_ORDERS, application_id=TUPPERBOX_APP)
    await fake.wait_for(lambda: replies_to(fake, proxied))
    assert [m.id for m in running.bot.proxies.held()] == [int(untouched["id"])]
    await grace.run()  # the grace ends before the deletion: the original is not posted
    [reply] = await fake.wait_for(lambda: replies_to(fake, untouched))
    await fake.delete(room, original["id"])
    assert replies_to(fake, original) == []
    log = await running.services.games.audit_log(running.bot.rooms._known[room], fake.gm["id"])
    assert len([e for e in log if e.action == "post.create"]) == 2  # the proxy's, the other


async def test_a_proxy_post_as_someone_elses_character_does_not_count(proxied_bot, fake,
                                                                        grace) -> None:
    running = proxied_bot
    await proxy_game(fake)
    assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "mira.yaml", fake.bob)
    room = fake.room["id"]
    game_id = running.bot.rooms._known[room]
    # bob has PluralKit post his text as "Kael", alice's character: first the repost, then
    # the deletion of his original
    original = await fake.post(room, fake.bob, "k:" + KAEL_ORDERS)
    await held(running.bot, lambda messages: len(messages) == 1)
    proxied = await fake.webhook_post(room, "Kael", KAEL_ORDERS, application_id=PLURALKIT_APP)
    [refused] = await fake.wait_for(lambda: replies_to(fake, proxied))
    assert refused["content"] == ("This proxy post does not count: Kael is not the character "
                                  "of the one who wrote it.")
    assert refused["allowed_mentions"] == {"parse": []}
    await fake.delete(room, original["id"])
    # then the other way round: the original deleted first, then the repost
    second = await fake.post(room, fake.bob, "k:3 AP defend")
    await held(running.bot, lambda messages: len(messages) == 1)
    await fake.delete(room, second["id"])
    await held(running.bot, lambda messages: messages == [])
    again = await fake.webhook_post(room, "Kael", "3 AP defend", application_id=PLURALKIT_APP)
    [refused] = await fake.wait_for(lambda: replies_to(fake, again))
    assert refused["content"].startswith("This proxy post does not count")
    # alice's own, the same way round, counts
    third = await fake.post(room, fake.alice, "k:" + KAEL_ORDERS)
    await held(running.bot, lambda messages: len(messages) == 1)
    await fake.delete(room, third["id"])
    await held(running.bot, lambda messages: messages == [])
    hers = await fake.webhook_post(room, "Kael", KAEL_ORDERS, application_id=PLURALKIT_APP)
    [reply] = await fake.wait_for(lambda: replies_to(fake, hers))
    assert "3/3 AP" in reply["content"]
    await grace.run()
    status = await running.services.turns.status(game_id)
    assert status.posted == ("Kael",) and "Mira" in status.missing


async def test_a_members_own_post_waits_for_the_grace_and_reads_as_last_edited(
        proxied_bot, fake, grace) -> None:
    running = proxied_bot
    await proxy_game(fake)
    room = fake.room["id"]
    post = await fake.post(room, fake.alice, "3 AP defend")
    await held(running.bot, lambda messages: len(messages) == 1)
    assert [t.delay for t in grace.timers] == [2.0]
    await fake.edit(room, post["id"], KAEL_ORDERS)
    await held(running.bot, lambda messages: messages[0].content == KAEL_ORDERS)
    assert replies_to(fake, post) == []  # nothing yet: no reply flashes under a proxied post
    await grace.run()
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "attack Skarg" in reply["content"] or "Skarg" in reply["content"]
    status = await running.services.turns.status(
            (await running.services.games.find(room)).id)
    assert status.posted == ("Kael",)


async def test_other_webhooks_and_other_names_are_table_talk(proxied_bot, fake, grace) -> None:
    running = proxied_bot
    await proxy_game(fake)
    room = fake.room["id"]
    others = [
        await fake.webhook_post(room, "Kael", KAEL_ORDERS, application_id=None),
        await fake.webhook_post(room, "Kael", KAEL_ORDERS, application_id=12345),
        await fake.webhook_post(room, "Zed", KAEL_ORDERS, application_id=PLURALKIT_APP),
        await fake.webhook_post(room, "Kaelan", KAEL_ORDERS, application_id=PLURALKIT_APP),
        # an enemy is the GMs' to order, never a proxy's
        await fake.webhook_post(room, "Skarg", "3 AP defend", application_id=TUPPERBOX_APP),
    ]
    marker = await fake.webhook_post(room, "  kael  ", KAEL_ORDERS,
                                     application_id=TUPPERBOX_APP)
    await fake.wait_for(lambda: replies_to(fake, marker))
    assert all(replies_to(fake, message) == [] for message in others)
    assert grace.timers == []  # webhooks are never held
    log = await running.services.games.audit_log(running.bot.rooms._known[room], fake.gm["id"])
    assert len([e for e in log if e.action == "post.create"]) == 1


async def test_a_game_without_proxy_posts_ignores_them_and_holds_nothing(proxied_bot, fake,
                                                                         grace) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    proxied = await fake.webhook_post(room, "Kael", KAEL_ORDERS, application_id=PLURALKIT_APP)
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: replies_to(fake, post))  # at once: no grace here
    assert grace.timers == [] and replies_to(fake, proxied) == []


async def test_a_proxy_post_made_while_the_bot_was_down_is_caught_up(fake, tmp_path,
                                                                     grace) -> None:
    running = RunningBot(fake, tmp_path / "data", later=grace)
    await running.start()
    room = fake.room["id"]
    try:
        await proxy_game(fake)
        await caught_up(running)
    finally:
        await running.stop()
    # while the bot is down, PluralKit reposts alice's message (the original is gone) and a
    # webhook of another app posts
    proxied = await fake.webhook_post(room, "Kael", KAEL_ORDERS, application_id=PLURALKIT_APP,
                                      live=False)
    other = await fake.webhook_post(room, "Kael", "3 AP defend", application_id=999,
                                    live=False)
    await running.start()
    try:
        await caught_up(running)
        [reply] = replies_to(fake, proxied)
        assert "3/3 AP" in reply["content"]
        assert replies_to(fake, other) == []
        status = await running.services.turns.status(
            (await running.services.games.find(room)).id)
        assert status.posted == ("Kael",)
    finally:
        await running.stop()


async def test_the_setting_is_changed_by_a_gm_only(proxied_bot, fake) -> None:
    await set_up_game(fake)
    [answer] = await run_command(fake, fake.alice, "game set", [
        {"type": 3, "name": "name", "value": "proxy_posts"},
        {"type": 3, "name": "value", "value": "on"}])
    assert answer["callback"]["data"]["flags"] & 64
    assert "Only a GM" in text_of([answer])
    game = await proxied_bot.services.games.show(proxied_bot.bot.rooms._known[fake.room["id"]])
    assert game.proxy_posts is False


def test_which_character_a_proxy_name_names() -> None:
    class Named:
        def __init__(self, name: str) -> None:
            self.name = name

    kael, kael_tor, mira = Named("Kael"), Named("Kael Tor"), Named("Mira")
    cast: Any = [kael, kael_tor, mira]
    assert speaker("Kael", cast) is kael
    assert speaker("  KAEL   [Ash] ", cast) is kael
    assert speaker("Kael (he/him)", cast) is kael
    assert speaker("Kael Tor | Ash", cast) is kael_tor  # the longest name wins
    assert speaker("Kaelan", cast) is None and speaker("Sir Kael", cast) is None


def test_which_post_a_proxy_post_reposts() -> None:
    assert reposts("2 AP defend", "k:2 AP defend")
    assert reposts("2 AP defend", "[2 AP defend]")
    assert reposts("2 AP defend", "2 AP defend")
    assert not reposts("ok", "ok, so here is my whole plan for this turn " * 3)
    assert not reposts("2 AP defend", "3 AP defend")
