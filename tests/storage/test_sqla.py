"""`fappo_bot/storage/sqla.py` holds every use of SQLAlchemy below its documented surface; this
checks how each piece it relies on behaves, so a SQLAlchemy that changes one fails here, whatever
its version number."""

from __future__ import annotations

import json
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
