"""The WAL of an inline SQLite engine is checkpointed in a worker thread, not in the COMMITs the
event loop runs: the loop's connections leave SQLite's own checkpoint to a far mark, and every
`CHECKPOINT_EVERY` commits a `Checkpointer` copies the WAL into the database, after which the next
writer starts the WAL over."""

from __future__ import annotations

import sqlite3
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import text

from fappo_bot.storage import sqlite_inline
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.sqlite_inline import FALLBACK_AUTOCHECKPOINT, Checkpointer
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
from tests.conftest import create_sqlite_schema

from . import records as r

pytestmark = pytest.mark.integration


def _wal_index(path: Path) -> tuple[int, int]:
    """(frames in the WAL, frames of it copied into the database): the WAL index's mxFrame and
    nBackfill (the -shm file, bytes 16 and 96)."""
    data = Path(f"{path}-shm").read_bytes()[:100]
    return (int.from_bytes(data[16:20], sys.byteorder),
            int.from_bytes(data[96:100], sys.byteorder))


async def test_the_loops_connections_leave_checkpoints_to_the_background(tmp_path):
    engine = create_engine_for_url(f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}")
    try:
        async with engine.connect() as connection:
            assert await connection.scalar(text("PRAGMA wal_autocheckpoint")) == (
                FALLBACK_AUTOCHECKPOINT)
            raw = await connection.get_raw_connection()
            assert isinstance(raw.driver_connection.checkpointer, Checkpointer)
    finally:
        await engine.dispose()


async def test_sqlites_own_checkpoints_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_inline, "BACKGROUND_CHECKPOINTS", False)
    engine = create_engine_for_url(f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}")
    try:
        async with engine.connect() as connection:
            assert await connection.scalar(text("PRAGMA wal_autocheckpoint")) == 1000
    finally:
        await engine.dispose()


async def test_commits_start_a_checkpoint_in_a_thread_and_the_wal_starts_over(
        tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_inline, "CHECKPOINT_EVERY", 4)
    path = tmp_path / "x.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    await create_sqlite_schema(url)
    engine = create_engine_for_url(url)
    try:
        factory = SqlUnitOfWorkFactory(engine)
        async with engine.connect() as connection:
            checkpointer = (await connection.get_raw_connection()).driver_connection.checkpointer
        async with factory() as uow:  # the unit of work's own COMMIT (`driver.SqliteLink`)
            await uow.games.add(r.game())
            await uow.commit()
        assert checkpointer.running is None
        await _insert(engine, 3)  # and SQLAlchemy's (`InlineConnection.commit`)
        assert checkpointer.running is not None
        await checkpointer.running
        frames, copied = _wal_index(path)
        assert frames > 0 and copied == frames  # all of the WAL is in the database
        await _insert(engine, 1)
        assert _wal_index(path)[0] < frames  # and the next writer began it again
    finally:
        await engine.dispose()


async def _insert(engine, times: int) -> None:
    for _ in range(times):
        async with engine.begin() as connection:
            await connection.execute(text("INSERT INTO kept_values (key, value, updated_at) VALUES (:k, :v, 0)"),
                                     {"k": uuid.uuid4().hex, "v": "y" * 5000})


def test_a_checkpoint_copies_the_wal_and_never_raises(tmp_path):
    path = tmp_path / "x.sqlite3"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE t (x TEXT)")
    for i in range(20):
        writer.execute("INSERT INTO t VALUES (?)", ("y" * 5000 + str(i),))
    frames, copied = _wal_index(path)
    assert frames > 20 and copied == 0
    Checkpointer(str(path), False, 1).checkpoint()
    assert _wal_index(path) == (frames, frames)
    writer.close()
    # a database that is gone is a checkpoint skipped, not an error in a worker thread
    Checkpointer(str(tmp_path / "nowhere" / "x.sqlite3"), False, 1).checkpoint()


def _wal_of(path: Path, rows: int) -> sqlite3.Connection:
    """A WAL of `rows` uncopied writes (SQLite's own checkpoints off); the writer stays open."""
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE t (x TEXT)")
    for i in range(rows):
        writer.execute("INSERT INTO t VALUES (?)", ("y" * 5000 + str(i),))
    return writer


def test_a_tail_the_passive_passes_leave_is_copied_under_the_write_lock(tmp_path, monkeypatch):
    # commits that land while the passive passes copy leave the WAL's last frames behind; the
    # checkpoint's last pass copies them, so the next writer starts the WAL over
    path = tmp_path / "x.sqlite3"
    writer = _wal_of(path, 20)
    frames, _ = _wal_index(path)
    monkeypatch.setattr(Checkpointer, "_passive",
                        staticmethod(lambda connection: (0, frames, frames - 3)))
    Checkpointer(str(path), False, 1).checkpoint()
    assert _wal_index(path) == (frames, frames)
    writer.execute("INSERT INTO t VALUES ('z')")
    assert _wal_index(path)[0] < frames
    writer.close()


def test_a_long_tail_is_left_to_the_next_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "x.sqlite3"
    writer = _wal_of(path, 20)
    frames, _ = _wal_index(path)
    monkeypatch.setattr(Checkpointer, "_passive", staticmethod(
        lambda connection: (0, frames, frames - sqlite_inline.FINISH_FRAMES - 1)))
    Checkpointer(str(path), False, 1).checkpoint()
    assert _wal_index(path) == (frames, 0)  # nothing copied under the write lock
    writer.close()



def test_a_wal_half_way_to_the_safety_net_is_copied_whatever_its_tail(tmp_path, monkeypatch):
    path = tmp_path / "x.sqlite3"
    writer = _wal_of(path, 20)
    frames, _ = _wal_index(path)
    monkeypatch.setattr(sqlite_inline, "FALLBACK_AUTOCHECKPOINT", frames * 2)
    monkeypatch.setattr(sqlite_inline, "FINISH_FRAMES", 1)
    monkeypatch.setattr(Checkpointer, "_passive", staticmethod(lambda connection: (0, frames, 0)))
    Checkpointer(str(path), False, 1).checkpoint()
    assert _wal_index(path) == (frames, frames)
    writer.close()
