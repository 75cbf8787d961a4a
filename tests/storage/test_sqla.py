"""`fappo_bot/storage/sqla.py` holds every use of SQLAlchemy below its documented surface; this
checks how each piece it relies on behaves, so a SQLAlchemy that changes one fails here, whatever
its version number."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest
from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, String, Table, bindparam, select
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.util import greenlet_spawn

from fappo_bot.storage import queries as q
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.sqla import CompiledParts, checkout, give_back

pytestmark = pytest.mark.integration

URLS = pytest.mark.parametrize(
    "url", ["sqlite+aiosqlite:///x.sqlite3", "postgresql+asyncpg://u@h/db"],
    ids=["sqlite", "postgresql"])

_T = Table(
    "t", MetaData(),
    Column("a", Integer), Column("b", String(10)),
    Column("at", DateTime(timezone=True)), Column("doc", JSON),
)


def _dialect(url):
    return create_engine_for_url(url).dialect  # no connection is made


@URLS
def test_a_compiled_statement_gives_its_parameters_in_order_with_their_processors(url):
    dialect = _dialect(url)
    parts = CompiledParts(q.BY_ID[q.TURNS].statement, dialect)
    assert parts.names and len(parts.values) == len(parts.binds) == len(parts.names)
    placeholder = "?" if dialect.name == "sqlite" else "$1"
    assert placeholder in parts.sql
    columns = [c.name for c in parts.columns]
    assert columns[: len(q.TURNS.c)] == [c.name for c in q.TURNS.c]
    assert len(parts.results) == len(parts.columns)
    # the stored times come back through their type's result processor (aware UTC)
    opened = columns.index("opened_at")
    if dialect.name == "sqlite":
        assert parts.results[opened] is not None


@URLS
def test_the_names_follow_the_placeholders_and_a_statement_keeps_its_own_values(url):
    dialect = _dialect(url)
    statement = (select(_T.c.a).where(_T.c.b == bindparam("second"), _T.c.a == bindparam("first"))
                 .limit(7))
    parts = CompiledParts(statement, dialect)
    assert parts.names[:2] == ("second", "first")
    # the LIMIT's value was given in the statement: it comes with it, the others are None
    assert parts.values[:2] == (None, None) and 7 in parts.values[2:]
    if dialect.name == "postgresql":  # numbered placeholders, numbered in the names' order
        assert parts.sql.index("b = $1") < parts.sql.index("a = $2")
    else:
        assert parts.sql.count("?") == len(parts.names)


@URLS
def test_the_bind_and_result_processors_convert_times_and_json(url):
    dialect = _dialect(url)
    parts = CompiledParts(
        select(_T.c.at, _T.c.doc).where(_T.c.at == bindparam("at"), _T.c.doc == bindparam("doc")),
        dialect)
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    time_bind, doc_bind = parts.binds
    time_result, doc_result = parts.results
    if dialect.name == "sqlite":  # sqlite3 knows no datetimes nor JSON: SQLAlchemy converts
        assert time_bind is not None and isinstance(time_bind(at), str)
        assert time_result is not None and time_result(time_bind(at)) == at.replace(tzinfo=None)
        assert doc_bind is not None and doc_result is not None
    else:  # asyncpg takes and gives datetimes itself
        assert time_bind is None or time_bind(at) == at
        assert time_result is None or time_result(at) == at
    # JSON goes through the engine's own (de)serializers: the document's text, as it is
    assert doc_bind is None or json.loads(doc_bind([1, "x"])) == [1, "x"]
    assert doc_result is None or doc_result('{"k": 1}') == '{"k": 1}'


@URLS
def test_a_statement_of_many_parameters_builds_its_values_once(url, monkeypatch):
    # `compiled.params` builds a dict of every parameter at each read: read per parameter, a
    # statement of n parameters (a shard's rooms) took time in n squared
    built = []
    construct = SQLCompiler.construct_params

    def counted(self, *args, **kwargs):
        built.append(1)
        return construct(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "construct_params", counted)
    keys = [bindparam(f"k{i}") for i in range(200)]
    parts = CompiledParts(select(_T.c.a).where(_T.c.b.in_(keys)), _dialect(url))
    assert len(parts.names) == 200
    assert len(built) <= 2, f"the parameters' values were built {len(built)} times"


async def test_a_pooled_connection_gives_its_driver_connection_and_goes_back(tmp_path):
    engine = create_engine_for_url(f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}")
    try:
        pooled, driver = await checkout(engine)
        assert driver.execute is not None
        await give_back(pooled)
        assert engine.sync_engine.pool.checkedout() == 0
        pooled, _driver = await checkout(engine)
        await give_back(pooled, broken=True)
        assert engine.sync_engine.pool.checkedout() == 0
    finally:
        await engine.dispose()


async def test_the_greenlet_bridge_runs_a_function_and_gives_its_result():
    assert await greenlet_spawn(lambda x: x + 1, 41) == 42


async def test_sqlalchemys_aiosqlite_adapter_drives_the_inline_connection(tmp_path):
    """`sqlite_inline.InlineConnection` stands in for aiosqlite's connection under SQLAlchemy's
    adapter: each call the adapter makes of it (cursors, fetches, row counts, commit behind its
    `_connection` check, rollback, the dialect's REGEXP function, the forced close of an
    invalidated connection) is made here, so an adapter that calls something else fails."""
    from sqlalchemy import text

    from fappo_bot.storage.sqlite_inline import InlineConnection

    path = tmp_path / "x.sqlite3"
    engine = create_engine_for_url(f"sqlite+aiosqlite:///{path}")
    try:
        async with engine.connect() as connection:
            raw = await connection.get_raw_connection()
            inline = raw.driver_connection
            assert isinstance(inline, InlineConnection)
            await connection.execute(text("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)"))
            await connection.commit()
            await connection.begin()
            inserted = await connection.execute(text("INSERT INTO t (b) VALUES ('x'), ('y')"))
            assert inserted.rowcount == 2
            await connection.commit()  # the adapter commits only if `_connection` is set
            await connection.begin()
            await connection.execute(text("INSERT INTO t (b) VALUES ('gone')"))
            await connection.rollback()
            rows = await connection.execute(text("SELECT a, b FROM t ORDER BY a"))
            assert [tuple(row) for row in rows.fetchmany(1)] == [(1, "x")]
            assert [tuple(row) for row in rows.fetchall()] == [(2, "y")]
            assert await connection.scalar(text("SELECT 'abc' REGEXP 'b.'")) == 1
        # committed for every connection, the rolled back row nowhere
        with sqlite3.connect(path) as other:
            assert other.execute("SELECT b FROM t ORDER BY a").fetchall() == [("x",), ("y",)]
        async with engine.connect() as connection:
            raw = await connection.get_raw_connection()
            inline = raw.driver_connection
            await connection.invalidate()  # the pool closes it by force (`stop`)
        assert inline.sqlite is None
    finally:
        await engine.dispose()


async def _scenario(path, public: bool, monkeypatch) -> dict[str, list[tuple]]:
    """Posts, their reply keys, an edit, a close and a resolution on a new SQLite file; every
    table's rows after."""
    import itertools

    from benchmarks.bench_storage import GM, _game, close_and_resolve
    from fappo_bot.service.facade import Services
    from fappo_bot.storage import unit_of_work
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
    from tests.conftest import create_sqlite_schema
    from tests.service.conftest import FakeClock
    from tests.storage import sqla_public

    if public:
        monkeypatch.setattr(unit_of_work, "Transactions", sqla_public.PublicTransactions)
    url = f"sqlite+aiosqlite:///{path}"
    await create_sqlite_schema(url)
    engine = create_engine_for_url(url)
    try:
        ids, salts = itertools.count(1), itertools.count(1)
        services = Services(SqlUnitOfWorkFactory(engine), clock=FakeClock(),
                            ids=lambda: f"id{next(ids)}", salts=lambda: f"salt{next(salts)}")
        game_id, players = await _game(services, "room", pcs=3, enemies=1)
        for i in range(9):
            player, _pc = players[i % 3]
            reply = await services.turns.post(
                game_id, player, channel_key="room", message_key=f"m{i}",
                text="2 AP attack Skarg with Broadsword\n1 AP defend" if i % 2 else "3 AP defend")
            await services.turns.set_reply_keys(reply.post_id, (f"r{i}",))
        await services.turns.edit(game_id, players[0][0], channel_key="room", message_key="m0",
                                  text="1 AP defend")
        await close_and_resolve(services, [game_id])
        assert GM
    finally:
        await engine.dispose()
    with sqlite3.connect(path) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}


async def test_the_driver_stores_what_sqlalchemys_own_execution_stores(tmp_path, monkeypatch):
    """`driver.py` runs SQLAlchemy's compiled statements itself, with the parameters, values and
    type conversions it reads below SQLAlchemy's documented surface (`sqla.py`). Run the same use
    cases through SQLAlchemy's public API (`tests/storage/sqla_public.py`): every table must hold
    the same rows, so a SQLAlchemy that changed what `sqla.py` reads fails here rather than
    storing something else."""
    ours = await _scenario(tmp_path / "driver.sqlite3", False, monkeypatch)
    theirs = await _scenario(tmp_path / "public.sqlite3", True, monkeypatch)
    assert ours.keys() == theirs.keys()
    assert sum(len(rows) for rows in ours.values()) > 30
    for table, rows in ours.items():
        differ = [(a, b) for a, b in zip(rows, theirs[table], strict=False) if a != b]
        assert rows == theirs[table], (table, [
            [(x, y) for x, y in zip(a, b, strict=True) if x != y] for a, b in differ[:2]])


@URLS
def test_a_statements_arguments_come_by_name_and_a_name_left_out_is_its_own_value(url):
    """`driver.Compiled.args`: the parameters' values in the placeholders' order, converted by
    their bind processors; a name the caller leaves out, or a LIMIT's, the statement's own."""
    from fappo_bot.storage.driver import Sql

    dialect = _dialect(url)
    two = Sql(select(_T.c.a).where(_T.c.b == bindparam("second"), _T.c.a == bindparam("first")))
    assert two.compiled(dialect).args({"first": 1, "second": "x", "other": 3}) == ["x", 1]
    assert two.compiled(dialect).args({"first": 1}) == [None, 1]
    one = Sql(select(_T.c.a).where(_T.c.a == bindparam("first")))
    assert one.compiled(dialect).args({"first": 5}) == [5]
    assert one.compiled(dialect).args({}) == [None]
    limited = Sql(select(_T.c.a).where(_T.c.a == bindparam("first")).limit(7))
    assert limited.compiled(dialect).args({"first": 5})[:2] == [5, 7]  # (SQLite: an OFFSET 0)
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    timed = Sql(select(_T.c.a).where(_T.c.at == bindparam("at")))
    (converted,) = timed.compiled(dialect).args({"at": at})
    assert converted == (at if dialect.name == "postgresql" else CompiledParts(
        timed.statement, dialect).binds[0](at))
