"""The bot behaves as real Discord requires, not as the fake happens to allow: each behaviour
below is produced by a switch of the fake (`ack_seconds`, `denied`, `rate_limit`, `reconnect`,
`invalidate`, a reply deleted by a moderator, a post deleted before the bot answers) and the
bot's answer to it is checked, along with `fake.refusals` (what Discord would have refused)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import pytest

from tests.bot.conftest import RunningBot, bot_settings
from tests.bot.fake_discord import TOKEN, FakeDiscord
from tests.bot.table import (
    KAEL_ORDERS,
    call_time,
    components,
    review_panel,
    run_command,
    set_up_game,
    submit_modal,
    text_of,
)
from tests.bot.test_catchup import caught_up
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


class Gate:
    """Holds a service call until the test opens the gate (a slow export, a big review)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
        self.open = asyncio.Event()
        self.entered = asyncio.Event()
        real = getattr(owner, name)

        async def held(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            await self.open.wait()
            return await real(*args, **kwargs)

        monkeypatch.setattr(owner, name, held)


# ---- interactions ------------------------------------------------------------------------------
async def test_the_fake_refuses_what_discord_refuses(fake) -> None:
    """The rules the bot is held to can fail: a second answer, a followup before the answer,
    a late answer, a modal answering a modal, a custom_id over 100 characters."""
    interaction = await fake.interact(fake.gm, fake.room["id"], 2, {"name": "x", "type": 1})
    token = interaction["token"]
    base = f"{fake.api_base}/interactions/{interaction['id']}/{token}/callback"
    hook = f"{fake.api_base}/webhooks/{fake.app_id}/{token}"
    headers = {"Authorization": f"Bot {TOKEN}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.post(hook, json={"content": "early"}) as early:
            assert (early.status, (await early.json())["code"]) == (404, 10015)
        long_id = {"type": 4, "data": {"content": "x", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": "x" * 101}]}]}}
        async with http.post(base, json=long_id) as refused:
            assert (refused.status, (await refused.json())["code"]) == (400, 50035)
        async with http.post(base, json={"type": 5}) as first:
            assert first.status == 200
        async with http.post(base, json={"type": 4, "data": {"content": "again"}}) as second:
            assert (second.status, (await second.json())["code"]) == (400, 40060)
        fake.ack_seconds = 0.0
        late = await fake.interact(fake.gm, fake.room["id"], 2, {"name": "x", "type": 1})
        async with http.post(f"{fake.api_base}/interactions/{late['id']}/{late['token']}"
                             "/callback", json={"type": 5}) as too_late:
            assert (too_late.status, (await too_late.json())["code"]) == (404, 10062)
        fake.ack_seconds = None
        submit = await fake.interact(fake.gm, fake.room["id"], 5, {"custom_id": "m",
                                                                   "components": []})
        async with http.post(f"{fake.api_base}/interactions/{submit['id']}/{submit['token']}"
                             "/callback", json={"type": 9, "data": {
                                 "custom_id": "m2", "title": "t", "components": []}}) as modal:
            assert (modal.status, (await modal.json())["code"]) == (400, 50035)
    # refused on purpose here, and sent without allowed_mentions: the fixture checks the bot
    fake.expect_rejections = True
    fake.expect_unanswered = True  # the late one and the modal answering a modal
    fake.mention_problems.clear()


@pytest.mark.parametrize("command,service,method", [
    ("gm export", "transfer", "export"),
    ("gm resolve", "review", "review"),
])
async def test_slow_work_is_deferred_at_once_then_followed_up(
        running, fake, monkeypatch, command, service, method) -> None:
    """An export or the review of a big turn may take longer than the 3 s Discord waits for an
    answer: the bot defers first (privately), then answers through the webhook."""
    await set_up_game(fake)
    # sealed first: else `/gm resolve` asks about the NPCs without orders before the review
    await running.services.turns.seal(running.bot.rooms._known[fake.room["id"]], fake.gm["id"])
    fake.ack_seconds = 3.0
    gate = Gate(monkeypatch, getattr(running.services, service), method)
    interaction = await fake.command(fake.gm, fake.room["id"], command)
    await asyncio.wait_for(gate.entered.wait(), 10)
    [deferred] = await fake.answered(interaction)  # answered while the work still runs
    assert deferred["callback"]["type"] == 5
    assert deferred["callback"]["data"]["flags"] & 64
    assert fake.acked[interaction["token"]] < 3.0
    gate.open.set()
    [_, followup] = await fake.answered(interaction, 2)
    assert "followup" in followup  # the webhook route, not a second callback
    assert followup["followup"].get("flags", 0) & 64
    assert fake.refusals == []


async def test_every_answer_of_a_game_is_in_time_and_by_the_rules(running, fake) -> None:
    fake.ack_seconds = 3.0
    await set_up_game(fake)
    for name in ("turn status", "game show", "help", "inbox"):
        await run_command(fake, fake.alice, name)
    assert fake.acked and max(fake.acked.values()) < 3.0
    assert fake.refusals == []


async def test_secrets_are_ephemeral(running, fake) -> None:
    """What only one person may see is sent with flag 64: secret orders by modal, the inbox."""
    await set_up_game(fake)
    [opened] = await run_command(fake, fake.alice, "turn orders")
    assert opened["callback"]["type"] == 9  # the modal is the first answer
    [answer] = await submit_modal(fake, fake.alice, opened["callback"]["data"], KAEL_ORDERS)
    assert answer["callback"]["data"]["flags"] & 64 and "Kael" in text_of([answer])
    [inbox] = await run_command(fake, fake.alice, "inbox")
    assert inbox["callback"]["data"]["flags"] & 64
    assert fake.refusals == []


async def test_custom_ids_are_stable_and_within_100_characters(running, fake) -> None:
    await set_up_game(fake)
    opened = []
    for _ in range(2):
        [modal] = await run_command(fake, fake.alice, "turn orders")
        opened.append(modal["callback"]["data"])
        opened.append((await review_panel(fake))["followup"])
    ids = [[c["custom_id"] for c in [body, *components(body)] if "custom_id" in c]
           for body in opened]
    assert ids[0] == ids[2] and ids[1] == ids[3]  # the same on every opening: not random
    assert all(i.startswith("fappo:") and len(i) <= 100 for found in ids for i in found), ids
    # one player's modal is not another's: discord.py routes a submission by its custom_id
    [other] = await run_command(fake, fake.gm, "turn orders")
    assert other["callback"]["data"]["custom_id"] != opened[0]["custom_id"]
    assert fake.refusals == []


@pytest.mark.parametrize("kind,data", [
    (3, {"custom_id": "fappo:review:gone:1:resolve", "component_type": 2}),
    (5, {"custom_id": "fappo:orders:gone:1", "components": []}),
])
async def test_a_panel_from_before_a_restart_says_it_expired(running, fake, kind, data) -> None:
    """A button or modal no open view answers (the bot restarted since) gets one private
    sentence within Discord's 3 s, not "This interaction failed"."""
    fake.ack_seconds = 3.0
    old = fake.message_json(fake.room["id"], fake.bot_user, "Review of turn 1", flags=64)
    interaction = await fake.interact(fake.gm, fake.room["id"], kind, data, message=old)
    [answer] = await fake.answered(interaction, timeout=10)
    assert answer["callback"]["data"]["flags"] & 64
    assert "expired" in answer["callback"]["data"]["content"]
    assert fake.refusals == []


# ---- replies to posts --------------------------------------------------------------------------
async def test_a_post_deleted_before_the_reply_gets_a_plain_message(running, fake,
                                                                    monkeypatch) -> None:
    """The reply refers to the post with `fail_if_not_exists: false`: a post deleted while the
    bot worked on it does not make Discord refuse the reply."""
    await set_up_game(fake)
    room = fake.room["id"]
    gate = Gate(monkeypatch, running.services.turns, "post")
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    await asyncio.wait_for(gate.entered.wait(), 10)
    await fake.delete(room, post["id"], live=False)  # the event comes after the reply
    gate.open.set()
    [sent] = await fake.wait_for(lambda: [r for r in fake.sent("POST", f"/channels/{room}/")
                                          if "Kael" in ((r.body or {}).get("content") or "")])
    assert sent.body["message_reference"]["fail_if_not_exists"] is False
    assert fake.refusals == []


async def test_a_reply_deleted_by_a_moderator_is_written_again_on_the_next_edit(
        running, fake) -> None:
    """Editing a reply that is gone answers 404 Unknown Message (10008): the bot sends a new
    reply to the post instead of failing."""
    await set_up_game(fake)
    room = fake.room["id"]
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    del fake.messages[room][reply["id"]]  # a moderator deletes it (the bot hears nothing)
    await fake.edit(room, post["id"], "2 AP attack Nobody with Broadsword\n1 AP defend")
    [again] = await fake.wait_for(lambda: replies_to(fake, post))
    assert again["id"] != reply["id"] and "Nobody" in again["content"]
    # and the next edit edits the new reply in place
    await fake.edit(room, post["id"], KAEL_ORDERS)
    await fake.wait_for(lambda: "Nobody" not in fake.messages[room][again["id"]]["content"])
    assert len(replies_to(fake, post)) == 1


# ---- rooms the bot may not use ---------------------------------------------------------------
@pytest.mark.parametrize("code", [50013, 50001])
async def test_a_room_that_refuses_the_bot_is_one_clear_log_line(running, fake, caplog,
                                                                  code) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    fake.denied[room] = code
    caplog.set_level(logging.WARNING)
    for text in (KAEL_ORDERS, "2 AP attack Nobody with Broadsword\n1 AP defend"):
        await fake.post(room, fake.alice, text)
    await fake.wait_for(lambda: len(fake.refusals) >= 2)
    # the GM calls time: the notice for the room is given up at once, not retried forever
    await call_time(fake)
    game = running.bot.rooms._known[room]
    await fake.wait_for(lambda: any(r[2] == 403 and "/messages" in r[1]
                                    for r in fake.refusals[2:]))
    await settle(fake)
    messages = await running.services.outbox.for_game(game)
    called = next(m for m in messages if m.kind == "time_called" and m.dest_key == room)
    assert called.gave_up_at is not None and str(code) in (called.last_error or "")
    assert called.attempts == 1  # given up at once: not a retry loop
    warnings = [r for r in caplog.records if str(code) in r.getMessage()
                and "refused" in r.getMessage()]
    assert len(warnings) == 1, [r.getMessage() for r in caplog.records]
    assert "View Channel" in warnings[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.ERROR]
    # the bot goes on elsewhere: the room allowed again, the next post is answered
    del fake.denied[room]
    post = await fake.post(room, fake.alice, KAEL_ORDERS.replace("1 AP defend", "1 AP dodge"))
    await fake.wait_for(lambda: replies_to(fake, post))


# ---- rate limits -------------------------------------------------------------------------------
@pytest.mark.parametrize("is_global", [False, True])
async def test_a_429_is_waited_out_and_nothing_is_lost_or_doubled(running, fake,
                                                                  is_global) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    fake.rate_limit("POST", f"/channels/{room}/messages", 0.2, is_global=is_global)
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    [reply] = await fake.wait_for(lambda: replies_to(fake, post), timeout=15)
    assert "Kael" in reply["content"]
    limited = [r for r in fake.sent("POST", f"/channels/{room}/messages")
               if (r.body or {}).get("message_reference")]
    assert len(limited) == 2  # refused once, sent once after the wait
    assert len(replies_to(fake, post)) == 1


# ---- the gateway -------------------------------------------------------------------------------
async def test_reconnect_resumes_and_replayed_events_are_handled_once(running, fake) -> None:
    """op 7 RECONNECT: the bot resumes; Discord replays what it missed, which is answered
    exactly once, with no read of the room's history (a resumed session misses nothing)."""
    await set_up_game(fake)
    room = fake.room["id"]
    await caught_up(running)
    rounds = running.bot.get_cog("TurnPosts").catch_up.rounds
    fake.gateway_gate = asyncio.Event()
    await fake.reconnect()
    await fake.wait_for(lambda: fake.at_gate, timeout=10)  # the bot is resuming
    missed = await fake.post(room, fake.alice, KAEL_ORDERS)  # sent while away: replayed
    fake.gateway_gate.set()
    await fake.wait_for(lambda: fake.resumed >= 1, timeout=15)
    await fake.wait_for(lambda: replies_to(fake, missed))
    await settle(fake)
    assert len(replies_to(fake, missed)) == 1
    assert "Kael" in replies_to(fake, missed)[0]["content"]
    assert running.bot.get_cog("TurnPosts").catch_up.rounds == rounds
    assert fake.sent("GET", "/messages") == []
    assert not fake.sent("PATCH", "/messages/")  # nothing rewritten either
    assert fake.identified == 1  # resumed, not identified again


async def test_an_event_heard_after_the_catch_up_answered_it_changes_nothing(running, fake
                                                                             ) -> None:
    """The catch-up and a (replayed) live event may come in either order: the second finds the
    post answered and neither answers again nor rewrites the reply."""
    await set_up_game(fake)
    room = fake.room["id"]
    await caught_up(running)
    rounds = running.bot.get_cog("TurnPosts").catch_up.rounds
    fake.gateway_gate = asyncio.Event()
    await fake.invalidate(resumable=False)
    await fake.wait_for(lambda: fake.at_gate, timeout=10)
    post = await fake.post(room, fake.alice, KAEL_ORDERS, live=False)
    fake.gateway_gate.set()
    await caught_up(running, rounds + 1)
    [reply] = replies_to(fake, post)
    await fake.dispatch("MESSAGE_CREATE", post)  # the same event, late
    await settle(fake)
    assert replies_to(fake, post) == [reply]
    assert fake.messages[room][reply["id"]]["content"] == reply["content"]
    assert not fake.sent("PATCH", "/messages/")


@pytest.mark.parametrize("resumable", [True, False])
async def test_invalid_session_then_catch_up_once(running, fake, resumable) -> None:
    """op 9 INVALID SESSION: resumable, the bot resumes; not resumable, it identifies again
    (events meanwhile are lost for good) and the catch-up reads the room: each missed post is
    answered once."""
    await set_up_game(fake)
    room = fake.room["id"]
    await caught_up(running)
    rounds = running.bot.get_cog("TurnPosts").catch_up.rounds
    fake.gateway_gate = asyncio.Event()
    await fake.invalidate(resumable=resumable)
    await fake.wait_for(lambda: fake.at_gate, timeout=10)  # resuming, or identifying again
    # a resumed session gets the event replayed; a new one never hears of it
    missed = await fake.post(room, fake.alice, KAEL_ORDERS)
    fake.gateway_gate.set()
    if resumable:
        await fake.wait_for(lambda: fake.resumed >= 1, timeout=15)
    else:
        await fake.wait_for(lambda: fake.identified >= 2, timeout=15)
        await caught_up(running, rounds + 1)  # a resumed session reads no history
    await fake.wait_for(lambda: replies_to(fake, missed))
    await settle(fake)
    assert len(replies_to(fake, missed)) == 1


async def test_one_shard_of_two_identifying_again_catches_up_its_rooms(tmp_path) -> None:
    """With two shards in one process, `on_ready` comes once at start: a shard that must
    identify again later still reads its rooms back."""
    fake = FakeDiscord(shard_count=2)
    fake.gm = fake.add_user("gwen")  # type: ignore[attr-defined]
    fake.alice = fake.add_user("alice")  # type: ignore[attr-defined]
    fake.bob = fake.add_user("bob")  # type: ignore[attr-defined]
    other = fake.add_guild("Keep", shard=1)
    fake.room = fake.add_channel("keep-gate", guild=other)  # type: ignore[attr-defined]
    await fake.start()
    running = RunningBot(fake, tmp_path / "data")
    running.settings = bot_settings(fake, tmp_path / "data", shard_count=2)
    try:
        await running.start()
        await fake.wait_for(lambda: len(fake.identified_shards()) == 2, timeout=15)
        await set_up_game(fake)
        room = fake.room["id"]
        await caught_up(running, 2)
        rounds = running.bot.get_cog("TurnPosts").catch_up.rounds
        fake.gateway_gate = asyncio.Event()
        await fake.invalidate(resumable=False, shard=1)
        await fake.wait_for(lambda: fake.at_gate, timeout=10)
        missed = await fake.post(room, fake.alice, KAEL_ORDERS)  # never heard by the bot
        fake.gateway_gate.set()
        await fake.wait_for(lambda: fake.identified >= 3, timeout=15)
        await caught_up(running, rounds + 1)
        [reply] = await fake.wait_for(lambda: replies_to(fake, missed), timeout=15)
        assert "Kael" in reply["content"]
    finally:
        await running.stop()
        await fake.stop()


async def settle(fake: FakeDiscord) -> None:
    """Until the bot has made no request for a while (a late duplicate would show by then)."""
    while True:
        seen = len(fake.requests)
        try:
            await fake.wait_for(lambda seen=seen: len(fake.requests) > seen, timeout=1.0)
        except TimeoutError:
            return
