"""SQLite group commit (`fappo_bot.storage.group.WriteGroup`): writers that queue up commit
together, each keeps its all-or-nothing, and none is answered before its COMMIT.

No sleeping: the first writer holds the group (inside its unit of work) until the others have
queued behind it, which the test sees on the group's own count.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator

import pytest

from fappo_bot.service.errors import Conflict
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

from . import records as r

pytestmark = pytest.mark.integration


class Recorder:
    """The statement tap: what the units of work sent, in order."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.fail_commit = False

    def __call__(self, what: str, sql: str, args: object) -> None:
        self.events.append("COMMIT" if what == "commit" else sql.split()[0])
        if what == "commit" and self.fail_commit:
            raise sqlite3.OperationalError("disk I/O error (injected)")


@pytest.fixture
async def setup(tmp_path) -> AsyncIterator[tuple[SqlUnitOfWorkFactory, Recorder, str]]:
    from fappo_bot.storage.tables import Base

    path = tmp_path / "group.sqlite3"
    engine = create_engine_for_url(f"sqlite+aiosqlite:///{path}")
    async with engine.begin() as connection:
        await connection.run_sync(Base.metadata.create_all)
    recorder = Recorder()
    try:
        yield SqlUnitOfWorkFactory(engine, tap=recorder), recorder, str(path)
    finally:
        await engine.dispose()


def stored_games(path: str) -> set[str]:
    """The games another connection sees: what is committed."""
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT id FROM games")}


async def _queued(factory: SqlUnitOfWorkFactory, count: int) -> None:
    """Let the other tasks run until `count` writers wait for (or hold) the group."""
    assert factory.group is not None
    while factory.group._queued < count:
        await asyncio.sleep(0)  # a scheduling point, not a wait for time


async def _writer(factory: SqlUnitOfWorkFactory, game_id: str, fail: bool = False) -> str:
    async with factory() as uow:
        await uow.games.add(r.game(id=game_id, channel=f"chan-{game_id}"))
        if fail:
            raise ValueError(f"{game_id} gives up")
        await uow.commit()
    return game_id


async def _holding(factory: SqlUnitOfWorkFactory) -> tuple[asyncio.Task[None], asyncio.Event]:
    """A first writer (game g0) that holds the group until the event is set."""
    release = asyncio.Event()

    async def first() -> None:
        async with factory() as uow:
            await uow.games.add(r.game(id="g0", channel="chan-g0"))
            await release.wait()
            await uow.commit()

    holding = asyncio.create_task(first())
    await _queued(factory, 1)
    return holding, release


async def _group(factory: SqlUnitOfWorkFactory, first_fails: bool, others: list[tuple[str, bool]]):
    """The first writer holds the group until the others queue behind it."""
    release = asyncio.Event()

    async def first() -> str:
        async with factory() as uow:
            await uow.games.add(r.game(id="g0", channel="chan-g0"))
            await release.wait()
            if first_fails:
                raise ValueError("g0 gives up")
            await uow.commit()
        return "g0"

    tasks = [asyncio.create_task(first())]
    await _queued(factory, 1)
    tasks += [asyncio.create_task(_writer(factory, game, fail)) for game, fail in others]
    await _queued(factory, 1 + len(others))
    release.set()
    return await asyncio.gather(*tasks, return_exceptions=True)


async def test_writers_that_queue_up_share_one_commit(setup):
    factory, recorder, path = setup
    results = await _group(factory, False, [("g1", False), ("g2", False), ("g3", False)])
    assert results == ["g0", "g1", "g2", "g3"]
    assert stored_games(path) == {"g0", "g1", "g2", "g3"}
    assert recorder.events.count("BEGIN") == 1 and recorder.events.count("COMMIT") == 1
    assert recorder.events.count("SAVEPOINT") == 3  # the first writer needs none


async def test_a_writer_that_fails_in_a_group_undoes_only_its_own_work(setup):
    factory, _recorder, path = setup
    results = await _group(factory, False, [("g1", True), ("g2", False)])
    assert results[0] == "g0" and isinstance(results[1], ValueError) and results[2] == "g2"
    assert stored_games(path) == {"g0", "g2"}


async def test_the_first_writer_failing_leaves_the_others_to_commit(setup):
    factory, _recorder, path = setup
    results = await _group(factory, True, [("g1", False), ("g2", False)])
    assert isinstance(results[0], ValueError) and results[1:] == ["g1", "g2"]
    assert stored_games(path) == {"g1", "g2"}


async def test_a_failed_group_commit_fails_every_writer_in_it_and_stores_nothing(setup):
    factory, recorder, path = setup
    recorder.fail_commit = True
    results = await _group(factory, False, [("g1", False), ("g2", False)])
    assert all(isinstance(result, sqlite3.OperationalError) for result in results), results
    assert stored_games(path) == set()
    recorder.fail_commit = False  # the factory goes on with a fresh connection
    assert await _writer(factory, "g9") == "g9"
    assert stored_games(path) == {"g9"}


async def test_commit_returns_after_the_commit_and_a_lone_writer_commits_at_once(setup):
    factory, recorder, path = setup
    async with factory() as uow:
        await uow.games.add(r.game())
        await uow.commit()
        assert recorder.events[-1] == "COMMIT"
        assert stored_games(path) == {"g1"}
        await uow.games.add(r.game(id="g2", channel="chan-2"))  # a second transaction
        await uow.commit()
    assert stored_games(path) == {"g1", "g2"}
    assert "SAVEPOINT" not in recorder.events


async def test_a_clash_in_a_group_is_the_writers_conflict_alone(setup):
    factory, _recorder, path = setup
    results = await _group(factory, False, [("g0", False), ("g2", False)])  # g0 twice
    assert results[0] == "g0" and isinstance(results[1], Conflict) and results[2] == "g2"
    assert stored_games(path) == {"g0", "g2"}


async def test_a_write_unit_of_work_inside_another_in_the_same_task_is_refused(setup):
    factory, _recorder, _path = setup
    async with factory() as outer:
        await outer.games.add(r.game())
        async with factory() as inner:
            with pytest.raises(RuntimeError, match="inside another"):
                await inner.games.get("g1")
        await outer.commit()


async def test_a_writer_cancelled_while_queued_leaves_the_group_working(setup):
    factory, _recorder, path = setup
    holding, release = await _holding(factory)
    queued = asyncio.create_task(_writer(factory, "g1"))
    await _queued(factory, 2)
    queued.cancel()
    with pytest.raises(asyncio.CancelledError):
        await queued
    release.set()
    await holding
    assert await _writer(factory, "g2") == "g2"
    assert stored_games(path) == {"g0", "g2"}
    assert factory.group is not None and factory.group._queued == 0


async def test_a_writer_that_waits_too_long_for_the_group_is_told_the_game_is_busy(setup):
    """As a writer waiting for another process's SQLite lock is after the busy timeout (here
    no time at all: the lock is not free at once)."""
    factory, _recorder, path = setup
    assert factory.group is not None
    holding, release = await _holding(factory)
    factory.group.wait_seconds = 0
    with pytest.raises(Conflict, match="busy"):
        await _writer(factory, "g1")
    release.set()
    await holding
    assert stored_games(path) == {"g0"} and factory.group._queued == 0
