"""The migrations build exactly the tables of `fappo_bot.storage.tables`, and every one downgrades."""

from __future__ import annotations

import json

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.migrate import (
    current_revision,
    downgrade_engine,
    head_revision,
    upgrade_database,
    upgrade_engine,
)
from fappo_bot.storage.tables import Base

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request, tmp_path):
    """A database with no tables at all (a fresh PostgreSQL database, not the shared one)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{(tmp_path / 'empty.sqlite3').as_posix()}"
    return request.getfixturevalue("fresh_postgres_database")()


def _differences(connection):
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return compare_metadata(context, Base.metadata)


def _tables(connection):
    return sorted(inspect(connection).get_table_names())


async def test_the_migrations_and_the_models_agree(empty_url):
    engine = create_engine_for_url(empty_url)
    try:
        assert await upgrade_engine(engine) == head_revision()
        async with engine.connect() as connection:
            assert await connection.run_sync(_differences) == []
    finally:
        await engine.dispose()


async def test_every_migration_downgrades_and_upgrades_again(empty_url):
    engine = create_engine_for_url(empty_url)
    try:
        await upgrade_engine(engine)
        async with engine.connect() as connection:
            assert "games" in await connection.run_sync(_tables)
        assert await downgrade_engine(engine, "base") == "base"
        async with engine.connect() as connection:
            assert await connection.run_sync(_tables) == ["alembic_version"]
        assert await current_revision(engine) is None
        assert await upgrade_engine(engine) == head_revision()
        async with engine.connect() as connection:
            assert await connection.run_sync(_differences) == []
    finally:
        await engine.dispose()


async def test_upgrade_on_start_is_idempotent_and_creates_the_data_dir(tmp_path):
    from fappo_bot.settings import Settings

    settings = Settings(data_dir=tmp_path / "nested" / "data")
    assert await upgrade_database(settings) == head_revision()
    assert await upgrade_database(settings) == head_revision()
    assert (tmp_path / "nested" / "data" / "fappo.sqlite3").exists()


async def test_the_comparison_notices_a_schema_that_drifted(empty_url):
    """The agreement test above can fail: a database missing an index is reported."""
    from sqlalchemy import text

    engine = create_engine_for_url(empty_url)
    try:
        await upgrade_engine(engine)
        async with engine.begin() as connection:
            await connection.execute(text("DROP INDEX ix_characters_owner"))
        async with engine.connect() as connection:
            differences = await connection.run_sync(_differences)
        assert [d[0] for d in differences] == ["add_index"]
        assert differences[0][1].name == "ix_characters_owner"
    finally:
        await engine.dispose()


async def test_0003_carries_a_posts_reply_key_into_its_reply_keys_and_back(empty_url):
    """A reply recorded before several reply keys existed is still the one an edit updates."""
    from sqlalchemy import text

    engine = create_engine_for_url(empty_url)
    rows = {
        "games": "INSERT INTO games VALUES ('g1', 'c1', NULL, 'G', 'fappo', '{}', 'active', '{}', "
                 "'2026-12-01 12:00:00+00', 0)",
        "turns": "INSERT INTO turns (id, game_id, number, status, opened_at, paused, "
                 "reminders_sent, pending, npc_revealed, gm_inputs, gm_answers, version) VALUES "
                 "('t1', 'g1', 1, 'open', '2026-12-01 12:00:00+00', false, 0, '[]', false, "
                 "'{}', '{}', 0)",
        "posts": "INSERT INTO posts (id, game_id, turn_id, author, channel_key, message_key, "
                 "secret, revision, deleted, created_at, updated_at, reply_key, version) VALUES "
                 "('p1', 'g1', 't1', 'u1', 'c1', 'm1', false, 1, false, "
                 "'2026-12-01 12:00:00+00', '2026-12-01 12:00:00+00', 'r1', 0), "
                 "('p2', 'g1', 't1', 'u1', 'c1', 'm2', false, 1, false, "
                 "'2026-12-01 12:00:00+00', '2026-12-01 12:00:00+00', NULL, 0)",
    }
    try:
        await upgrade_engine(engine, "0002")
        async with engine.begin() as connection:
            for statement in rows.values():
                await connection.execute(text(statement))
        await upgrade_engine(engine)
        async with engine.connect() as connection:
            found = (await connection.execute(
                text("SELECT id, reply_keys FROM posts ORDER BY id"))).all()
        assert [(i, json.loads(str(k))) for i, k in found] == [("p1", ["r1"]), ("p2", [])]
        await downgrade_engine(engine, "0002")
        async with engine.connect() as connection:
            back = (await connection.execute(
                text("SELECT id, reply_key FROM posts ORDER BY id"))).all()
        assert [tuple(r) for r in back] == [("p1", "r1"), ("p2", None)]
    finally:
        await engine.dispose()


async def test_0009_gives_a_reveal_written_before_payloads_its_turn_so_it_renders_as_before(
        empty_url):
    """A reveal queued before outbox payloads still gets Discord's `/reveal` command (from the
    payload 0009 reads once from its text), the earlier part of a long one and any other text
    none (they are their text, as before), and every row is part 1 of 1."""
    from sqlalchemy import text

    from fappo_bot.discord.rendering import rendered
    from fappo_bot.render.notices import text as words
    from fappo_bot.service.notices import revealed
    from fappo_bot.service.records import OutboxMessage

    reveal = words(revealed(4, "ab" * 32, "s4lt", ["Skarg: Attack Kael\nAP 3", "Mira: Defend"]))
    rows = [("o1", "revealed", reveal), ("o2", "revealed", "NPC orders of turn 5, as sealed..."),
            ("o3", "reminder", "Reminder: turn 4 closes at no deadline. Still to post: nobody.")]
    engine = create_engine_for_url(empty_url)
    try:
        await upgrade_engine(engine, "0008")
        async with engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO games VALUES ('g1', 'c1', NULL, 'G', 'fappo', '{}', 'active', '{}', "
                "'2026-12-01 12:00:00+00', 0)"))
            for message_id, kind, content in rows:
                await connection.execute(text(
                    "INSERT INTO outbox (id, game_id, dest_kind, dest_key, kind, content, "
                    "dedupe_key, created_at, attempts, delivered_keys) VALUES (:id, 'g1', "
                    "'channel', 'c1', :kind, :content, :id, '2026-12-01 12:00:00+00', 0, '[]')"),
                    {"id": message_id, "kind": kind, "content": content})
        await upgrade_engine(engine)
        async with engine.connect() as connection:
            found = (await connection.execute(text(
                "SELECT id, kind, content, payload, part, parts FROM outbox ORDER BY id"))).all()
        messages = [OutboxMessage(
            id=i, dest_key="c1", kind=k, content=c, dedupe_key=i, part=part, parts=parts,
            payload=None if p in (None, "null") else json.loads(str(p)),
            created_at="2026-12-01T12:00:00Z") for i, k, c, p, part, parts in found]
        assert [(m.part, m.parts) for m in messages] == [(1, 1)] * 3
        assert messages[0].payload == {"turn": 4, "commitment": "ab" * 32, "salt": "s4lt",
                                       "orders": ["Skarg: Attack Kael\nAP 3\nMira: Defend"]}
        assert messages[1].payload is None and messages[2].payload is None
        assert [rendered(m) for m in messages] == [
            f"{reveal}\nHere: `/reveal turn:4` shows it and checks it.", rows[1][2], rows[2][2]]
        await downgrade_engine(engine, "0008")
    finally:
        await engine.dispose()
