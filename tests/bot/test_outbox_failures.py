"""The outbox through Discord when Discord does not take a message: a long run of 429s, a
restart while a message waits, an outage (5xx), and the refusals that are for good (the GMs
are told, `/turn status` lists it, `/inbox` keeps it). The clock is the test's: a message that
waits is tried again when the test moves the clock past its next attempt, never after a sleep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import call_time, run_command, set_up_game, text_of

pytestmark = pytest.mark.e2e

CALLED = "Time is called on turn 1"


class ManualClock:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def bot(fake, tmp_path, clock):
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    await running.start()
    running.failures = Failures(fake)
    running.failures.watch(running)
    try:
        yield running
    finally:
        await running.stop()


def room_posts(fake) -> list:
    return fake.sent("POST", f"/channels/{fake.room['id']}/messages")


def called(fake) -> list[dict]:
    return [m for m in fake.bot_messages(fake.room["id"]) if m["content"].startswith(CALLED)]


async def waiting(bot: RunningBot, fake) -> object:
    """The room's message that Discord did not take (the first of call time's: the seal
    notice or the call), as the outbox holds it now."""
    game_id = (await bot.services.games.find(fake.room["id"])).id
    found = [m for m in await bot.services.outbox.for_game(game_id)
                 if m.attempts and m.sent_at is None and m.dest_kind.value == "channel"]
    [message] = found
    return message


async def try_again(bot: RunningBot, clock: ManualClock, message) -> None:
    """Move the clock to the message's next attempt and wake the outbox."""
    clock.at = max(clock.at, message.next_attempt_at)
    bot.bot.delivery.wake()


async def test_forty_429s_then_success_deliver_the_message_exactly_once(bot, fake, clock):
    await set_up_game(fake)
    room = fake.room["id"]
    fake.rate_limit("POST", f"/channels/{room}/messages", 60.0, times=40)
    before = len(room_posts(fake))
    await call_time(fake)
    for attempt in range(1, 41):
        await fake.wait_for(lambda a=attempt: len(room_posts(fake)) - before >= a)
        message = await fake_settled(bot, fake, attempt)
        assert message.gave_up_at is None and message.sent_at is None
        # Discord's retry_after (60 s) is honoured, whatever the backoff says
        assert message.next_attempt_at - clock.at >= timedelta(seconds=60)
        await try_again(bot, clock, message)
    await fake.wait_for(lambda: called(fake))
    assert len(called(fake)) == 1
    assert len(set(bot.failures.contents)) == 1  # one message held back, 40 times
    held = bot.failures.contents[0]
    # (Discord adds its own words after a notice's stored text: the seal's /reveal command)
    assert len([m for m in fake.bot_messages(room) if m["content"].startswith(held)]) == 1
    # every attempt carried the same nonce: a redelivery Discord already took is dropped
    nonces = {r.body["nonce"] for r in room_posts(fake)[before:]
              if r.body["content"].startswith(held)}
    assert len(nonces) == 1 and len(room_posts(fake)) - before >= 41


class Failures:
    """Counts the delivery failures the outbox has recorded (the bot's `Delivery.failed`,
    wrapped), so that a test waits on them as on the fake's requests."""

    def __init__(self, fake) -> None:
        self.fake = fake
        self.contents: list[str] = []

    def watch(self, bot: RunningBot) -> None:
        delivery = bot.bot.delivery
        original = delivery.failed

        async def failed(message, *args):
            await original(message, *args)
            if message.dest_key == self.fake.room["id"]:
                self.contents.append(message.content)
            await self.fake._notify()

        delivery.failed = failed


async def fake_settled(bot: RunningBot, fake, attempts: int):
    """The room's message Discord did not take, once the outbox has recorded `attempts`
    failures of it."""
    failures = bot.failures
    await fake.wait_for(lambda: len(failures.contents) >= attempts)
    return await waiting(bot, fake)


async def test_a_restart_while_a_message_waits_still_delivers_it(bot, fake, clock):
    await set_up_game(fake)
    room = fake.room["id"]
    fake.rate_limit("POST", f"/channels/{room}/messages", 45.0, times=3)
    fake.server_error("POST", f"/channels/{room}/messages", times=2)
    await call_time(fake)
    for attempt in range(1, 4):
        message = await fake_settled(bot, fake, attempt)
        await try_again(bot, clock, message)
    message = await fake_settled(bot, fake, 4)
    assert "503" in (message.last_error or "") and message.gave_up_at is None
    await bot.stop()  # mid-backoff: the wait is in the database, not in the process
    await bot.start()
    bot.failures.watch(bot)
    await try_again(bot, clock, message)
    message = await fake_settled(bot, fake, 5)
    await try_again(bot, clock, message)
    await fake.wait_for(lambda: called(fake))
    assert len(called(fake)) == 1


async def test_a_permanent_refusal_tells_the_gms_and_shows_in_turn_status(bot, fake, clock):
    await set_up_game(fake)
    room = fake.room["id"]
    fake.refuse("POST", f"/channels/{room}/messages", 50013)
    await call_time(fake)
    message = await fake_settled(bot, fake, 1)
    assert message.gave_up_at is not None and "50013" in (message.last_error or "")
    held = message.content.splitlines()[0]
    # the GM is told privately: which message, where, why, and where to read it
    dm = await fake.wait_for(lambda: [
        m for channel, messages in fake.messages.items()
        if fake.channels.get(channel, {}).get("type") == 1
        and fake.channels[channel]["recipients"][0]["id"] == fake.gm["id"]
        for m in messages.values() if "could not be delivered" in m["content"]])
    text = dm[0]["content"]
    assert "the game's room" in text and "permission to post there" in text
    assert held[:40] in text and "/inbox" in text
    # never tried again, and what came after it in the room is not held back
    game_id = (await bot.services.games.find(room)).id
    after = [m.content for m in await bot.services.outbox.for_game(game_id)
             if m.dest_key == room and (m.created_at, m.id) > (message.created_at, message.id)]
    await fake.wait_for(lambda: all(any(m["content"] == c for m in fake.bot_messages(room))
                                    for c in after))
    assert not [m for m in fake.bot_messages(room) if m["content"].startswith(held)]
    status = text_of(await run_command(fake, fake.gm, "turn status"))
    assert "Not delivered" in status
    assert "to the game's room: the bot lacks the permission to post there" in status
    # the GM reads it in /inbox; then it is done, and the status no longer lists it
    inbox = text_of(await run_command(fake, fake.gm, "inbox"))
    assert "Not delivered to the game's room" in inbox and held in inbox
    assert "Not delivered" not in text_of(await run_command(fake, fake.gm, "turn status"))


async def test_a_403_without_a_permanent_code_is_tried_again(bot, fake, clock):
    """A 403 with no Discord code is a proxy's or an outage's answer, not Discord's word about
    the room: the message waits and goes, the GMs are not told."""
    await set_up_game(fake)
    room = fake.room["id"]
    fake.fail("POST", f"/channels/{room}/messages", 403, {"message": "Forbidden", "code": 0})
    await call_time(fake)
    message = await fake_settled(bot, fake, 1)
    assert message.gave_up_at is None
    await try_again(bot, clock, message)
    await fake.wait_for(lambda: called(fake))
    assert not any("could not be delivered" in m["content"]
                   for messages in fake.messages.values() for m in messages.values())


class _Response:
    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = "reason"
        self.headers = headers or {}


@pytest.mark.parametrize(("status", "code", "permanent"), [
    (429, 0, False), (500, 0, False), (503, 0, False),
    (403, 0, False), (404, 0, False),  # no Discord code: a proxy's or an outage's answer
    (404, 10003, True), (403, 50001, True), (403, 50013, True), (403, 50007, True),
    (404, 10013, True), (400, 50035, True), (413, 40005, True),
])
def test_what_is_given_up_and_what_is_tried_again(status, code, permanent) -> None:
    import discord

    from fappo_bot.discord.delivery import failure_of

    headers = {"Retry-After": "2", "X-RateLimit-Reset-After": "1.5"} if status == 429 else {}
    error = discord.HTTPException(_Response(status, headers), {"message": "m", "code": code})
    failure = failure_of(error)
    assert failure.permanent is permanent
    assert failure.rate_limited is (status == 429)
    if status == 429:
        assert failure.retry_after == timedelta(seconds=2)  # the larger of the two
    limited = failure_of(discord.RateLimited(75.0))
    assert (limited.permanent, limited.retry_after) == (False, timedelta(seconds=75))
    assert not failure_of(TimeoutError()).permanent
