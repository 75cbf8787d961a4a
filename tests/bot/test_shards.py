"""A real multi-shard run: two `fappo-bot run` processes, one with shard 0 and one with shard 1 of
two, sharing one PostgreSQL database, against the fake Discord serving both shards (each gateway
session hears only its guilds' events; DMs go to shard 0).

With a game in a guild of each shard: each room's posts are answered by the process of its
shard only, the results and notices of each game are delivered exactly once by the process that
owns the room, a deadline both processes see due at the same moment is fired once, and DMs
(which only shard 0 hears) carry secret orders to the games of either shard.

Each process has its own REST base (`fake.api_base_for`), so the fake knows which one made each
request. Skipped, saying why, when PostgreSQL is unreachable."""

from __future__ import annotations

import asyncio
import os
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.bot.fake_discord import TOKEN, FakeDiscord
from tests.bot.table import KAEL_ORDERS, add_sheet, components, run_command, text_of
from tests.bot.test_posts import replies_to

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.slow]

MIRA_ORDERS = "Mira circles the goblin.\n2 AP attack Skarg with Dagger\n1 AP defend"
BRAN_ORDERS = "Bran keeps watch.\n3 AP defend"


class BotProcess:
    """One `fappo-bot run` with some shards, its REST requests tagged with its name."""

    def __init__(self, fake: FakeDiscord, name: str, shards: list[int], count: int,
                 database_url: str, home: Path) -> None:
        self.fake, self.name, self.shards, self.count = fake, name, shards, count
        self.database_url = database_url
        self.home = home / name
        self.home.mkdir(parents=True)
        self.log = self.home / "bot.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FAPPO_")}
        env.update(
            FAPPO_DISCORD__TOKEN=TOKEN, FAPPO_DISCORD__API_BASE=self.fake.api_base_for(self.name),
            FAPPO_DISCORD__GATEWAY_URL=self.fake.gateway_url,
            FAPPO_DISCORD__SHARD_IDS=str(self.shards), FAPPO_DISCORD__SHARD_COUNT=str(self.count),
            FAPPO_DISCORD__OUTBOX_INTERVAL_SECONDS="0.2", FAPPO_DATABASE__URL=self.database_url,
            FAPPO_TURNS__SCHEDULER_INTERVAL_SECONDS="0.05", FAPPO_DATA_DIR=str(self.home / "data"),
            FAPPO_LOG_LEVEL="INFO")
        with self.log.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "fappo_bot.cli", "run", env=env, cwd=self.home,
                stdout=log, stderr=log)

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), 20)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class ShiftedClock:
    """The GM's clock, `behind` the real one: a deadline set with it is already due for the
    bot processes (which read the real clock)."""

    def __init__(self, behind: timedelta) -> None:
        self.behind = behind

    def now(self) -> datetime:
        return datetime.now(UTC) - self.behind


@pytest.fixture
async def sharded() -> Any:
    fake = FakeDiscord(shard_count=2)
    fake.gm = fake.add_user("gwen")  # type: ignore[attr-defined]
    for name in ("alice", "bob", "carol", "dave", "erin"):
        setattr(fake, name, fake.add_user(name))
    keep = fake.add_guild("Keep", shard=1)
    fake.room = fake.add_channel("goblin-road")  # type: ignore[attr-defined]  # shard 0
    fake.keep = fake.add_channel("keep-gate", guild=keep)  # type: ignore[attr-defined]
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def set_up(fake: FakeDiscord, room: str, name: str, kael: dict[str, Any],
                 mira: dict[str, Any]) -> None:
    """The game `name` in `room`: Kael, Mira, and Bran (erin's, in every game), and Skarg."""
    gm = fake.gm  # type: ignore[attr-defined]
    created = text_of(await run_command(fake, gm, "game create",
                                        [{"type": 3, "name": "name", "value": name}],
                                        channel=room))
    assert name in created, created
    for sheet, player in (("kael.yaml", kael), ("mira.yaml", mira),
                          ("bran.yaml", fake.erin)):  # type: ignore[attr-defined]
        assert "joins the game" in await add_sheet(fake, gm, "char add", sheet, player,
                                                   channel=room)
    assert "Skarg" in await add_sheet(fake, gm, "char enemy", "skarg.yaml", channel=room)
    assert "turn 1 is open" in text_of(await run_command(fake, gm, "turn open", channel=room))


def posted_by(fake: FakeDiscord, channel: str) -> Counter[str]:
    """Which processes sent messages to `channel` (by POST), and how many each."""
    return Counter(r.via for r in fake.sent("POST", f"/channels/{channel}/messages"))


def callbacks_by(fake: FakeDiscord, interaction: dict[str, Any]) -> set[str]:
    return {r.via for r in fake.requests if interaction["token"] in r.path}


async def answer_review(services: Any, game: str, gm: str) -> None:
    """The GM answers every required question of the review (the first choice, or 3)."""
    for _ in range(30):
        review = await services.review.review(game, gm)
        item = next((i for i in review.items if i.required and not i.answered), None)
        if item is None:
            return
        await services.review.answer(game, gm, {item.key: item.choices[0] if item.choices
                                                else "3"})
    raise AssertionError("the review never ran out of questions")


async def test_two_processes_with_one_shard_each_share_one_postgres(
        sharded, fresh_postgres_database, tmp_path) -> None:
    from fappo_bot.service.facade import Services
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

    fake = sharded
    url = fresh_postgres_database()  # skips, saying why, without a server
    road, keep = fake.room["id"], fake.keep["id"]
    owner = {road: "p0", keep: "p1"}
    processes = [BotProcess(fake, "p0", [0], 2, url, tmp_path),
                 BotProcess(fake, "p1", [1], 2, url, tmp_path)]
    engine = None
    try:
        for process in processes:
            await process.start()
        await fake.wait_for(lambda: {(0, 2), (1, 2)} <= set(fake.identified_shards()),
                            timeout=90)
        # each gateway session was told its own guild only
        assert fake.guilds_of_shard(0, 2) == [fake.guild_id]
        assert fake.guilds_of_shard(1, 2) == [int(fake.keep["guild_id"])]

        # a game in each guild, set up by slash commands each answered by its shard's process
        await set_up(fake, road, "Goblin Road", fake.alice, fake.bob)
        await set_up(fake, keep, "Keep Gate", fake.carol, fake.dave)
        for token, interaction in fake._interactions.items():
            assert callbacks_by(fake, interaction) == {owner[interaction["channel_id"]]}, token
        for room in (road, keep):
            await fake.wait_for(lambda room=room: any(
                m["content"].startswith("Turn 1 is open") for m in fake.bot_messages(room)),
                timeout=30)

        # posts in each room: answered once, by the process of the room's shard
        kael_post = await fake.post(road, fake.alice, KAEL_ORDERS)
        carol_post = await fake.post(keep, fake.carol, KAEL_ORDERS)
        for post in (kael_post, carol_post):
            [reply] = await fake.wait_for(lambda post=post: replies_to(fake, post), timeout=30)
            assert "3/3 AP" in reply["content"], reply["content"]
            assert set(posted_by(fake, post["channel_id"])) == {owner[post["channel_id"]]}

        # secret orders by DM, for a game of each shard: only shard 0 hears DMs
        bob_dm = await fake.dm(fake.bob, MIRA_ORDERS)
        dave_dm = await fake.dm(fake.dave, MIRA_ORDERS)
        for dm, name in ((bob_dm, "Mira"), (dave_dm, "Mira")):
            [answer] = await fake.wait_for(
                lambda dm=dm: fake.bot_messages(dm["channel_id"]), timeout=30)
            assert name in answer["content"], answer["content"]
            assert posted_by(fake, dm["channel_id"]) == Counter({"p0": 1})
        # a player in a game of each shard picks the game in the DM (a select, in the DM, so
        # on shard 0 too): here the game of shard 1
        erin_dm = await fake.dm(fake.erin, BRAN_ORDERS)
        dm_room = erin_dm["channel_id"]
        [picker] = await fake.wait_for(lambda: fake.bot_messages(dm_room), timeout=30)
        [select] = [c for c in components(picker) if c["type"] == 3]
        [pick] = [o["value"] for o in select["options"] if o["label"] == "Keep Gate"]
        picked = await pick_until_taken(fake, fake.erin, picker, {
            "custom_id": select["custom_id"], "component_type": 3, "values": [pick]})
        assert callbacks_by(fake, picked) == {"p0"}
        [bran] = await fake.wait_for(lambda: [m for m in replies_to(fake, erin_dm)
                                              if "Bran" in m["content"]], timeout=30)
        assert "3/3 AP" in bran["content"], bran["content"]
        for room in (road, keep):  # the secret orders stay out of the rooms
            assert not any("Dagger" in m["content"] or "Bran" in m["content"]
                           for m in fake.bot_messages(room)
                           if m.get("message_reference") is None
                           and not m["content"].startswith("**")), room  # the board: who is in

        # the GM (a third client of the database) sets a deadline in each game that is already
        # past for both processes: both poll the database; each deadline fires once
        engine = create_engine_for_url(url)
        gm_side = Services(SqlUnitOfWorkFactory(engine),
                           clock=ShiftedClock(timedelta(minutes=2)))
        games = {room: (await gm_side.games.find(room)).id for room in (road, keep)}
        gm = fake.gm["id"]
        # each DM went to its game: the characters posted are those of the DMs and the room
        assert set((await gm_side.turns.status(games[road])).posted) == {"Kael", "Mira"}
        assert set((await gm_side.turns.status(games[keep])).posted) == {"Kael", "Mira", "Bran"}
        for game in games.values():
            await gm_side.turns.seal(game, gm)  # else the deadline waits for NPC orders
            await gm_side.calltime.set_deadline(game, gm, after=timedelta(minutes=1))
        for room in (road, keep):
            await fake.wait_for(lambda room=room: any(
                m["content"].startswith("Time is called") for m in fake.bot_messages(room)),
                timeout=30)

        # the GM resolves both turns: each game's results go out once, from its room's owner
        for game in games.values():
            await answer_review(gm_side, game, gm)
            await gm_side.resolution.resolve(game, gm, 1)
        for game in games.values():
            await wait_all_sent(fake, gm_side, game)

        # exactly once, each by its owner
        for room in (road, keep):
            called = [m for m in fake.bot_messages(room)
                      if m["content"].startswith("Time is called")]
            assert len(called) == 1, [m["content"] for m in fake.bot_messages(room)]
            senders = posted_by(fake, room)
            assert set(senders) == {owner[room]}, senders
            # every room message once (the "Sealed orders arrived" line comes once per secret
            # post, so several are alike: the nonces below tell those apart)
            contents = Counter(m["content"] for m in fake.bot_messages(room)
                               if m.get("message_reference") is None
                               and not m["content"].startswith("Sealed orders arrived"))
            assert all(n == 1 for n in contents.values()), contents
        for game in games.values():
            messages = await gm_side.outbox.for_game(game)
            assert any(m.kind == "results" for m in messages)
            assert all(m.sent_at is not None for m in messages if m.dest_key.isdigit()
                       and m.dest_kind.value == "channel"), messages
            nonces = Counter((r.body or {}).get("nonce") for r in fake.sent("POST", "/messages")
                             if (r.body or {}).get("nonce"))
            assert all(n == 1 for n in nonces.values()), nonces
        for channel in fake.channels.values():
            if channel["type"] == 1:  # every DM was sent by shard 0's process
                assert set(posted_by(fake, channel["id"])) <= {"p0"}
    except BaseException:
        for process in processes:
            sys.stderr.write(f"---- {process.name} ----\n{process.output()[-6000:]}\n")
        sys.stderr.write(f"refused: {fake.refusals}\n")
        for token, answers in list(fake.interaction_responses.items())[-3:]:
            sys.stderr.write(f"interaction {token}: {answers}\n")
        for channel in fake.channels.values():
            if channel["type"] == 1:
                sys.stderr.write(f"DM {channel['id']}: "
                                 f"{[m['content'][:80] for m in fake.messages[channel['id']].values()]}\n")
        raise
    finally:
        for process in processes:
            await process.stop()
        if engine is not None:
            await engine.dispose()


async def pick_until_taken(fake: FakeDiscord, user: dict[str, Any], message: dict[str, Any],
                           data: dict[str, Any]) -> dict[str, Any]:
    """Use a component of `message` as a person would: again when nothing took it. The fake
    shows the message as soon as it stores it, which may be before the bot has read Discord's
    answer and begun listening to its components (a click then is dropped, or said expired);
    a person cannot click that fast. Returns the interaction the bot took."""
    tried: list[dict[str, Any]] = []
    for _ in range(6):
        tried.append(await fake.interact(user, message["channel_id"], 3, data,
                                         message=message))
        try:
            await fake.wait_for(lambda: any(
                fake.responses(i) and "expired" not in text_of(fake.responses(i))
                for i in tried), timeout=5)
        except TimeoutError:
            continue
        return next(i for i in tried
                    if fake.responses(i) and "expired" not in text_of(fake.responses(i)))
    raise AssertionError(f"no pick was taken: {[fake.responses(i) for i in tried]}")


async def wait_all_sent(fake: FakeDiscord, services: Any, game: str) -> None:
    """Until every message of the game to a room or a DM is delivered (or given up); re-checked
    at each request the bots make."""
    pending: list[Any] = []
    for _ in range(120):
        pending = [m for m in await services.outbox.for_game(game)
                   if m.sent_at is None and m.gave_up_at is None and m.dest_key.isdigit()]
        if not pending:
            return
        await _next_request(fake)
    raise AssertionError(f"not delivered: {pending}")


async def _next_request(fake: FakeDiscord) -> None:
    seen = len(fake.requests)
    try:
        await fake.wait_for(lambda: len(fake.requests) > seen, timeout=1.0)
    except TimeoutError:
        pass
