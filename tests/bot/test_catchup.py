"""No post is lost while the bot is down: a restart, and a reconnect, read the rooms back and
ingest what was missed, exactly once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import KAEL_ORDERS, add_sheet, run_command, set_up_game, text_of
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


async def caught_up(running: RunningBot, rounds: int = 1) -> None:
    catch_up = running.bot.get_cog("TurnPosts").catch_up
    while catch_up.rounds < rounds:
        catch_up.finished.clear()
        await asyncio.wait_for(catch_up.finished.wait(), 15)


async def test_posts_and_edits_made_while_the_bot_was_down(fake, tmp_path) -> None:
    running = RunningBot(fake, tmp_path / "data")
    await running.start()
    room = fake.room["id"]
    try:
        await set_up_game(fake)
        first = await fake.post(room, fake.alice, KAEL_ORDERS)
        [reply] = await fake.wait_for(lambda: replies_to(fake, first))
        doomed = await fake.post(room, fake.alice, "1 AP attack Skarg with Broadsword\n"
                                                   "2 AP defend")
        [doomed_reply] = await fake.wait_for(lambda: replies_to(fake, doomed))
        await caught_up(running)
    finally:
        await running.stop()

    # while the bot is down: the post is edited (a problem now), and a new post is made
    await fake.edit(room, first["id"], "2 AP attack Nobody with Broadsword\n1 AP defend",
                    live=False)
    second = await fake.post(room, fake.alice, "3 AP defend", live=False)
    chat = await fake.post(room, fake.alice, "brb, dinner", live=False)
    await fake.delete(room, doomed["id"], live=False)

    await running.start()
    try:
        await caught_up(running)
        [new_reply] = replies_to(fake, second)
        assert "3/3 AP" in new_reply["content"]
        assert "Nobody" in fake.messages[room][reply["id"]]["content"]
        assert replies_to(fake, chat) == []
        # the deleted post's reply is gone, and its orders with it
        assert doomed_reply["id"] not in fake.messages[room]
        game_id = (await running.services.games.find(room)).id
        log = await running.services.games.audit_log(game_id, fake.gm["id"])
        assert [e.actor for e in log if e.action == "post.delete"] == ["(unknown)"]
    finally:
        await running.stop()

    # a second restart finds nothing new: nothing is sent or edited twice
    before = len(fake.requests)
    await running.start()
    try:
        await caught_up(running)
        changes = [r for r in fake.requests[before:] if r.method in ("POST", "PATCH")
                   and "/channels/" in r.path]
        assert changes == []
    finally:
        await running.stop()


async def test_posts_made_while_the_connection_was_lost(running, fake) -> None:
    """A RESUME replays what the session missed (Discord's events are kept for it): answered
    as live, with no read of the history."""
    await set_up_game(fake)
    room = fake.room["id"]
    await caught_up(running)
    await fake.drop_connections()
    missed = await fake.post(room, fake.alice, KAEL_ORDERS)  # heard by no session
    await fake.wait_for(lambda: fake.resumed >= 1, timeout=15)
    [reply] = await fake.wait_for(lambda: replies_to(fake, missed))
    assert "Kael" in reply["content"]
    assert fake.sent("GET", "/messages") == []


class SharedClock:
    """The one clock of Discord (the fake's snowflakes) and the bot, moved by the test."""

    def __init__(self) -> None:
        self.at = datetime.now(UTC).replace(microsecond=0)

    def now(self) -> datetime:
        return self.at


async def test_secret_orders_sent_by_dm_while_the_bot_was_down_are_caught_up_once(
        fake, tmp_path) -> None:
    running = RunningBot(fake, tmp_path / "data")
    await running.start()
    try:
        await set_up_game(fake)
        await caught_up(running)
    finally:
        await running.stop()
    channel = fake.dm_channel(fake.alice)["id"]
    dm = await fake.post(channel, fake.alice, KAEL_ORDERS, live=False)

    await running.start()
    try:
        await caught_up(running)
        [reply] = await fake.wait_for(lambda: replies_to(fake, dm))
        assert "3/3 AP" in reply["content"]
        game = (await running.services.games.find(fake.room["id"])).id
        assert (await running.services.turns.status(game)).posted == ("Kael",)
        # the room learns only that sealed orders arrived
        await fake.wait_for(lambda: [m for m in fake.bot_messages(fake.room["id"])
                                     if m["content"].startswith("Sealed orders arrived")])
    finally:
        await running.stop()

    # a restart reads no channel again (nothing moved) and answers nothing twice
    before = len(fake.requests)
    await running.start()
    try:
        await caught_up(running)
        assert fake.sent("GET", "/messages")[-1] in fake.requests[:before]
        assert len(replies_to(fake, dm)) == 1
    finally:
        await running.stop()


async def test_a_dm_sent_during_a_session_that_could_not_resume_is_caught_up(running,
                                                                             fake) -> None:
    await set_up_game(fake)
    await caught_up(running)
    rounds = running.bot.get_cog("TurnPosts").catch_up.rounds
    fake.gateway_gate = asyncio.Event()
    await fake.invalidate(resumable=False)
    await fake.wait_for(lambda: fake.at_gate, timeout=10)
    dm = await fake.dm(fake.alice, KAEL_ORDERS)  # no session hears it, none replays it
    fake.gateway_gate.set()
    await caught_up(running, rounds + 1)
    [reply] = await fake.wait_for(lambda: replies_to(fake, dm))
    assert "3/3 AP" in reply["content"]


async def a_deadline_in_ten_minutes(fake, tmp_path, *, bob: bool = False,
                                    outage_extends: str = "off"
                                    ) -> tuple[RunningBot, SharedClock, str]:
    """A game whose turn 1 is due in ten minutes of a clock the fake and the bot share, its NPC
    orders sealed (a deadline with NPCs without orders waits for the GM), the bot then stopped:
    the bot, the clock and the room. `bob`: Mira joins the game for bob first. The deadline
    keeps its time through the outage unless `outage_extends` is on (`test_outage.py`)."""
    clock = SharedClock()
    fake.clock = clock.now
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    room = fake.room["id"]
    await running.start()
    try:
        await set_up_game(fake)
        if bob:
            assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "mira.yaml",
                                                       fake.bob)
        text_of(await run_command(fake, fake.gm, "game set", [
            {"type": 3, "name": "name", "value": "outage_extends"},
            {"type": 3, "name": "value", "value": outage_extends}]))
        text_of(await run_command(fake, fake.gm, "turn calltime",
                                  [{"type": 3, "name": "in", "value": "10m"}]))
        game = (await running.services.games.find(room)).id
        await running.services.turns.seal(game, fake.gm["id"])
        await caught_up(running)
    finally:
        await running.stop()
    return running, clock, room


async def test_a_post_made_on_time_during_an_outage_counts_and_a_late_one_does_not(
        fake, tmp_path) -> None:
    running, clock, room = await a_deadline_in_ten_minutes(fake, tmp_path, bob=True)

    clock.at += timedelta(minutes=9)
    on_time = await fake.post(room, fake.alice, KAEL_ORDERS, live=False)
    clock.at += timedelta(minutes=2)  # past the deadline: the bot is still down
    late = await fake.post(room, fake.bob, "3 AP defend", live=False)
    clock.at += timedelta(minutes=30)

    await running.start()
    try:
        await caught_up(running)
        [accepted] = await fake.wait_for(lambda: replies_to(fake, on_time))
        assert "3/3 AP" in accepted["content"]
        [refused] = await fake.wait_for(lambda: replies_to(fake, late))
        assert "after turn 1's deadline" in refused["content"], refused["content"]
        # then time is called, with the on-time post in
        await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                        for m in fake.bot_messages(room)), timeout=15)
        game = (await running.services.games.find(room)).id
        assert (await running.services.turns.status(game)).posted == ("Kael",)
    finally:
        await running.stop()


async def test_call_time_waits_until_the_catch_up_is_done(fake, tmp_path) -> None:
    running, clock, room = await a_deadline_in_ten_minutes(fake, tmp_path)
    clock.at += timedelta(minutes=5)
    on_time = await fake.post(room, fake.alice, KAEL_ORDERS, live=False)
    clock.at += timedelta(minutes=30)  # the deadline is long past when the bot is back

    fake.history_gate = asyncio.Event()
    await running.start()
    try:
        await fake.wait_for(lambda: fake.sent("GET", f"/channels/{room}/messages"))
        game = (await running.services.games.find(room)).id
        delivery = running.bot.get_cog("Delivery")
        await delivery.calltime_loop.coro(delivery)  # a round of the scheduler, now
        status = await running.services.turns.status(game)
        assert status.turn.status.value == "open"
        assert not any(m["content"].startswith("Time is called")
                       for m in fake.bot_messages(room))
        fake.history_gate.set()
        await caught_up(running)
        await fake.wait_for(lambda: any(m["content"].startswith("Time is called")
                                        for m in fake.bot_messages(room)), timeout=15)
        assert "3/3 AP" in replies_to(fake, on_time)[0]["content"]
        assert (await running.services.turns.status(game)).posted == ("Kael",)
    finally:
        await running.stop()


async def test_a_room_with_250_missed_messages_gets_all_of_them(fake, tmp_path) -> None:
    running = RunningBot(fake, tmp_path / "data")
    room = fake.room["id"]
    await running.start()
    try:
        await set_up_game(fake)
        await caught_up(running)
    finally:
        await running.stop()
    first = await fake.post(room, fake.alice, "3 AP defend", live=False)
    for i in range(248):
        await fake.post(room, fake.alice, f"chat {i}", live=False)
    last = await fake.post(room, fake.alice, KAEL_ORDERS, live=False)
    before = len(fake.requests)

    await running.start()
    try:
        await caught_up(running)
        [oldest] = replies_to(fake, first)
        assert "3/3 AP" in oldest["content"]
        [newest] = replies_to(fake, last)
        assert "Kael" in newest["content"]
        reads = [r for r in fake.requests[before:] if r.method == "GET"
                 and r.path.endswith(f"/channels/{room}/messages")]
        assert len(reads) >= 3 and all(int(r.query["limit"]) <= 100 for r in reads)
    finally:
        await running.stop()


async def open_games(running: RunningBot, rooms: list[str], played: list[str]) -> None:
    """A game with turn 1 open in each room, alice a player in each: written as records in one
    transaction with the bot stopped (the service's use cases would take a dozen transactions a
    room), except in the `played` rooms, whose games are set up by the service with Kael."""
    from datetime import UTC, datetime

    from fappo_bot.service.characters import NewCharacter
    from fappo_bot.service.facade import Services
    from fappo_bot.service.records import Game, Membership, Role, TurnRecord
    from fappo_bot.storage.opening import open_storage
    from tests.bot.scenes import PC_SHEET

    gm, player = running.fake.gm["id"], running.fake.alice["id"]
    guild = str(running.fake.guild_id)
    now = datetime.now(UTC)
    async with open_storage(running.settings) as storage:
        services = Services(storage.uow_factory)
        async with storage.uow_factory() as uow:
            for i, room in enumerate(r for r in rooms if r not in played):
                game = Game(id=f"game-{i}", channel_key=room, guild_key=guild, name=f"Game {i}",
                            created_at=now)
                await uow.games.add(game)
                for user, role in ((gm, Role.GM), (player, Role.PLAYER)):
                    await uow.members.add(Membership(game_id=game.id, user_id=user, role=role))
                await uow.turns.add(TurnRecord(id=f"turn-{i}", game_id=game.id, number=1,
                                         opened_at=now))
            await uow.commit()
        for room in played:
            game_view = await services.games.create(channel_key=room, name="Goblin Road",
                                                    creator=gm, guild_key=guild)
            await services.games.add_member(game_view.id, gm, player, Role.PLAYER)
            await services.characters.create(
                game_view.id, player, NewCharacter.from_dict({**PC_SHEET, "name": "Kael"}))
            await services.turns.open(game_view.id, gm)
        while pending := await services.outbox.pending(500):
            for message in pending:
                await services.outbox.mark_sent(message.id, [])


@pytest.mark.slow
async def test_a_restart_reads_only_the_rooms_that_moved(fake, tmp_path) -> None:
    """1,000 rooms with an open turn, 3 of them posted in while the bot was down: the restart
    reads the history of those 3 only (every room's `last_message_id` comes with the guild)."""
    rooms = [fake.add_channel(f"room-{i}")["id"] for i in range(1000)]
    for room in rooms:  # each room's newest message: the turn's announcement
        await fake.post(room, fake.bot_user, "Turn 1 is open.", live=False)
    moved = [rooms[7], rooms[500], rooms[999]]
    running = RunningBot(fake, tmp_path / "data")
    await open_games(running, rooms, moved)
    await running.start()  # the first start reads every room once: none has a mark yet
    try:
        await caught_up(running)
        assert len(fake.sent("GET", "/messages")) == 1000
    finally:
        await running.stop()
    posts = [await fake.post(room, fake.alice, "3 AP defend", live=False) for room in moved]
    before = len(fake.requests)

    await running.start()
    try:
        await caught_up(running)
        reads = [r.path for r in fake.requests[before:] if r.method == "GET"
                 and r.path.endswith("/messages")]
        # the members' DM channels, opened at the first start, are read by their stored ids
        dms = {f"/channels/{fake.dm_channel(u)['id']}/messages" for u in (fake.gm, fake.alice)}
        assert sorted(r for r in reads if r not in dms) == sorted(
            f"/channels/{room}/messages" for room in moved)
        assert fake.sent("POST", "/users/@me/channels")[-1] in fake.requests[:before]
        for post in posts:
            assert "3/3 AP" in replies_to(fake, post)[0]["content"]
    finally:
        await running.stop()


async def test_the_rooms_of_the_nearest_deadlines_are_read_first(fake, tmp_path,
                                                                 monkeypatch) -> None:
    from fappo_bot.service.facade import Services
    from fappo_bot.storage.opening import open_storage

    rooms = [fake.add_channel(f"room-{i}")["id"] for i in range(3)]
    for room in rooms:
        await fake.post(room, fake.alice, "anyone there?", live=False)
    running = RunningBot(fake, tmp_path / "data")
    await open_games(running, rooms, rooms)
    async with open_storage(running.settings) as storage:
        services = Services(storage.uow_factory)
        for room, hours in ((rooms[0], 48), (rooms[1], 2)):  # rooms[2]: no deadline
            game = await services.games.find(room)
            await services.calltime.set_deadline(game.id, fake.gm["id"],
                                                 after=timedelta(hours=hours))
    monkeypatch.setattr("fappo_bot.discord.catchup.CONCURRENCY", 1)  # reads in their order
    await running.start()
    try:
        await caught_up(running)
        reads = [r.path for r in fake.sent("GET", "/messages")]
        assert reads == [f"/channels/{room}/messages" for room in (rooms[1], rooms[0], rooms[2])]
    finally:
        await running.stop()


async def test_a_guild_that_comes_after_the_bot_is_ready_is_caught_up(fake, tmp_path) -> None:
    """A guild unavailable at READY (an outage), or whose GUILD_CREATE comes after the bot's
    short wait for them, was left out of the catch-up: what its rooms said while the bot was
    down went unanswered. It is caught up when it comes."""
    running = RunningBot(fake, tmp_path / "data")
    room = fake.room["id"]
    await running.start()
    try:
        await set_up_game(fake)
        await caught_up(running)
    finally:
        await running.stop()

    missed = await fake.post(room, fake.alice, KAEL_ORDERS, live=False)
    fake.unavailable_guilds.add(fake.guild_id)
    await running.start()
    try:
        await caught_up(running)
        assert replies_to(fake, missed) == []  # its room is not known yet
        await fake.guild_back(fake.guild_id)
        [reply] = await fake.wait_for(lambda: replies_to(fake, missed))
        assert "3/3 AP" in reply["content"]
    finally:
        await running.stop()


async def test_the_rooms_are_read_concurrently(fake, tmp_path) -> None:
    """The catch-up reads several rooms' histories at once: the fake holds every history read
    until two are in flight together (a catch-up reading one room after another never gets
    there, and the wait fails)."""
    rooms = [fake.add_channel(f"room-{i}")["id"] for i in range(3)]
    for room in rooms:
        await fake.post(room, fake.alice, "anyone there?", live=False)
    running = RunningBot(fake, tmp_path / "data")
    await open_games(running, rooms, [])
    fake.history_gate = asyncio.Event()

    def reading() -> list[str]:
        return [r.path for r in fake.in_flight
                if r.method == "GET" and r.path.endswith("/messages")]

    await running.start()
    try:
        together = await fake.wait_for(lambda: len(reading()) >= 2 and reading())
        assert len(set(together)) == len(together) >= 2  # different rooms
        fake.history_gate.set()
        await caught_up(running)
        assert sorted(r.path for r in fake.sent("GET", "/messages")) == sorted(
            f"/channels/{room}/messages" for room in rooms)
    finally:
        await running.stop()


async def test_the_bots_own_reply_moves_the_rooms_mark(fake, tmp_path) -> None:
    """Discord sends the bot its own messages too: a reply is its room's newest message, and the
    room's mark moves past it, so a restart with nothing new there does not read the room."""
    running = RunningBot(fake, tmp_path / "data")
    room = fake.room["id"]
    await running.start()
    try:
        await set_up_game(fake)
    finally:
        await running.stop()
    await running.start()  # the room is caught up at start: its live messages move its mark
    try:
        await caught_up(running)
        post = await fake.post(room, fake.alice, KAEL_ORDERS)
        [reply] = await fake.wait_for(lambda: replies_to(fake, post))
        # the events are handled in order: a DM sent after the reply's event, once answered,
        # says that event was handled too
        dm = await fake.dm(fake.bob, "hello?")
        await fake.wait_for(lambda: fake.bot_messages(dm["channel_id"]))
        assert fake.channels[room]["last_message_id"] == reply["id"]
        assert replies_to(fake, reply) == []  # the bot answers none of its own messages
    finally:
        await running.stop()
    before = len(fake.requests)
    await running.start()
    try:
        await caught_up(running)
        assert [r.path for r in fake.requests[before:]
                if r.method == "GET" and r.path == f"/channels/{room}/messages"] == []
    finally:
        await running.stop()
