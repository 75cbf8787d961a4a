"""Several bot processes (shards) sharing one database see one consistent game.

Each shard is a `Services` over its own engine and connection pool, as in separate processes;
they race on the same game and turn. On SQLite both engines share the file (two processes on one
machine), on PostgreSQL the server.
"""

from __future__ import annotations

import asyncio

import pytest

from fappo_bot.service import Conflict, Services
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

from .scenario import ALICE, BOB, GM, POSTS, build_table, stored


@pytest.fixture
async def shards(database_url):
    engines = [create_engine_for_url(database_url) for _ in range(2)]
    try:
        yield [SqlUnitOfWorkFactory(engine) for engine in engines]
    finally:
        for engine in engines:
            await engine.dispose()


async def test_posts_through_two_shards_are_all_kept_and_seen_by_both(shards):
    one, two = (Services(factory) for factory in shards)
    game = await build_table(one, posts=False)
    texts = {user: text for user, _, text in POSTS}
    replies = await asyncio.gather(
        one.turns.post(game, ALICE, channel_key="c1", message_key="a", text=texts[ALICE]),
        two.turns.post(game, BOB, channel_key="c1", message_key="b", text=texts[BOB]),
        two.turns.post(game, GM, channel_key="c1", message_key="g", text=texts[GM]),
    )
    assert all(reply.ok for reply in replies), [r.reply for r in replies]
    seen = [await stored(factory, game) for factory in shards]
    assert seen[0] == seen[1]
    assert len(seen[0]["posts"]) == 3
    status = await one.turns.status(game)
    assert set(status.posted) == {"Kael", "Mira"}


async def test_two_shards_resolving_at_once_give_one_resolution(shards):
    one, two = (Services(factory) for factory in shards)
    game = await build_table(one)
    outcomes = await asyncio.gather(
        one.resolution.resolve(game, GM, 1),
        two.resolution.resolve(game, GM, 1),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "ResolutionView"], outcomes
    refused = next(o for o in outcomes if isinstance(o, Conflict))
    assert "already resolved" in str(refused)
    seen = [await stored(factory, game) for factory in shards]
    assert seen[0] == seen[1]
    assert sum(r is not None for r in seen[0]["resolutions"]) == 1
    assert [m.kind for m in seen[0]["outbox"]].count("results") == 1


async def test_a_post_on_one_shard_racing_a_resolve_on_another_is_never_lost(shards):
    one, two = (Services(factory) for factory in shards)
    game = await build_table(one, posts=False)
    for user, key, text in POSTS:
        if user != BOB:
            await one.turns.post(game, user, channel_key="c1", message_key=key, text=text)
    posted, resolved = await asyncio.gather(
        one.turns.post(game, BOB, channel_key="c1", message_key="late", text="3 AP defend"),
        two.resolution.resolve(game, GM, 1),
        return_exceptions=True,
    )
    assert not isinstance(resolved, BaseException), resolved
    data = await stored(shards[1], game)
    resolution = next(r for r in data["resolutions"] if r is not None)
    if isinstance(posted, BaseException):
        # lost the race to the resolve's lock while the turn was being resolved, or after it
        # was: either way the post says nothing of it was recorded
        assert isinstance(posted, Conflict) and "nothing" in str(posted) and (
            "Post it again" in str(posted) or "write a new post" in str(posted)), posted
        assert all(o.actor != "Mira" for o in resolution.orders)
    else:
        assert posted.ok
        kept = [p for p, _ in data["posts"].values() if p.message_key == "late"]
        assert kept and (
            any(o.actor == "Mira" for o in resolution.orders)
            or kept[0].turn_id != data["turns"][0].id
        )


@pytest.mark.e2e
async def test_two_processes_resolving_at_once_give_one_resolution(database_url):
    """Two real processes, held at their first statement and released together, race to resolve."""
    import sys

    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

    from . import crash_worker

    engine = create_engine_for_url(database_url)
    try:
        game = await build_table(Services(SqlUnitOfWorkFactory(engine)))
    finally:
        await engine.dispose()
    env = {**__import__("os").environ, "FAPPO_HOLD_AT": "1"}
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            crash_worker.__file__,
            database_url,
            game,
            "",
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    for worker in workers:  # both are parked before their first statement
        line = await asyncio.wait_for(worker.stdout.readline(), 60)
        assert line.startswith(b"PAUSED 1"), (line, await worker.stderr.read())
    for worker in workers:
        worker.stdin.write(b"go\n")
        await worker.stdin.drain()
    outputs = [await asyncio.wait_for(worker.communicate(), 60) for worker in workers]
    # both ran to the end (DONE); Python 3.11's threaded child watcher now and then finds a child
    # already reaped and reports 255 for a clean exit ("Unknown child process"), so the output
    # says how they ended
    assert all(b"DONE" in out for out, _err in outputs), [o[1].decode() for o in outputs]
    assert all(w.returncode in (0, 255) for w in workers), [o[1].decode() for o in outputs]
    said = sorted(o[0].decode().split()[0] for o in outputs)
    assert said == ["REFUSED", "RESOLVED"], outputs
    engine = create_engine_for_url(database_url)
    try:
        data = await stored(SqlUnitOfWorkFactory(engine), game)
    finally:
        await engine.dispose()
    assert sum(r is not None for r in data["resolutions"]) == 1
    assert [m.kind for m in data["outbox"]].count("results") == 1


async def test_many_concurrent_posts_are_all_stored(shards):
    """More simultaneous use cases than the pool has connections; writers queue, none is lost."""
    one, two = (Services(factory) for factory in shards)
    game = await build_table(one, posts=False)
    posts = [
        (one if i % 2 else two).turns.post(
            game,
            ALICE if i % 2 else BOB,
            channel_key="c1",
            message_key=f"m{i}",
            text="3 AP defend",
        )
        for i in range(24)
    ]
    replies = await asyncio.gather(*posts)
    assert all(reply.ok for reply in replies)
    data = await stored(shards[0], game)
    assert len(data["posts"]) == 24


TABLE_SETUP = """\
/newgame "Race" --players alice
/addchar {kael} --player alice
/group {goblins}
/open
/as Kael
2 AP attack Goblins with Broadsword
1 AP defend

/as gm
/npc
**Goblins**
1 AP defend
"""


async def test_two_tables_resolving_at_once_resolve_the_turn_once(shards, tmp_path):
    """Two local tables on one database (two processes), both typing /resolve at the same
    time: the first resolves turn 1, the second is told so in one sentence; nobody resolves the
    empty turn 2 the first opened (the table's /resolve names the turn it reviewed)."""
    from fappo_bot.console.commands import HANDLERS
    from fappo_bot.console.services import TableServices
    from fappo_bot.console.table import LocalTable
    from fappo_bot.console.transcript import StepKind, parse_transcript

    from .scenario import EXAMPLES

    tables = [LocalTable(TableServices(factory), HANDLERS, base_dir=tmp_path)
              for factory in shards]
    setup = TABLE_SETUP.format(kael=EXAMPLES / "kael.yaml", goblins=EXAMPLES / "goblins.yaml")
    for step in parse_transcript(setup).steps:
        if step.kind is StepKind.SEAT:
            tables[0].sit(step.text)
            continue
        shown = await tables[0].perform(step)
        assert not [s for s in shown if s.kind.value == "error"], shown
    for step in parse_transcript('/use "Race"\n').steps:
        await tables[1].perform(step)
    [resolve] = parse_transcript("/resolve\n").steps
    outcomes = await asyncio.gather(*(table.perform(resolve) for table in tables))
    refusals = [s.body for shown in outcomes for s in shown if s.kind.value == "error"]
    # which sentence depends on how far the first resolve got when the second read the turn
    assert len(refusals) == 1, outcomes
    assert refusals[0] in (
        "Turn 1 is already resolved.",
        "Turn 1 is already resolved; turn 2 is open, and nothing was resolved now.",
        "Nobody has posted in turn 2 yet; type /resolve 2 to resolve it anyway.",
    ), refusals
    data = await stored(shards[0], tables[0].game_id)
    assert [t.number for t, r in zip(data["turns"], data["resolutions"], strict=True)
            if r is not None] == [1]
    assert [t.status.value for t in data["turns"]] == ["resolved", "open"]
