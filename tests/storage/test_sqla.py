"""`fappo_bot/storage/sqla.py` holds every use of SQLAlchemy below its documented surface; this
pins the versions it was checked against and checks each piece it relies on."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import sqlalchemy

from fappo_bot.storage import queries as q
from fappo_bot.storage.engine import create_engine_for_url
from fappo_bot.storage.sqla import (
    CHECKED_VERSIONS,
    CompiledParts,
    checkout,
    give_back,
    version_problem,
)

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def test_the_installed_sqlalchemy_is_one_sqla_py_was_checked_against():
    problem = version_problem()
    assert problem is None, problem


def test_another_version_is_refused_with_what_to_do():
    problem = version_problem("2.2.0")
    assert problem is not None
    assert "SQLAlchemy 2.2.0 is installed" in problem and "CHECKED_VERSIONS" in problem
    assert CHECKED_VERSIONS[-1] in problem


def test_pyproject_pins_the_minor_version_of_the_checked_ones():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pinned = [d for d in project["project"]["dependencies"] if d.lower().startswith("sqlalchemy")]
    minors = {".".join(v.split(".")[:2]) for v in CHECKED_VERSIONS}
    assert len(minors) == 1 and len(pinned) == 1
    (minor,) = minors
    major, number = minor.split(".")
    assert pinned[0].endswith(f">={CHECKED_VERSIONS[0]},<{major}.{int(number) + 1}"), pinned
    assert sqlalchemy.__version__.startswith(minor + ".")


@pytest.mark.parametrize("url", ["sqlite+aiosqlite:///x.sqlite3", "postgresql+asyncpg://u@h/db"],
                         ids=["sqlite", "postgresql"])
def test_a_compiled_statement_gives_its_parameters_in_order_with_their_processors(url):
    dialect = create_engine_for_url(url).dialect  # no connection is made
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
