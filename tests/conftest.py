"""Shared fixtures: the databases every storage and service integration test runs against.

`uow_factory` (and `engine`, `database_url`) are parametrised over SQLite and PostgreSQL:
- sqlite: a fresh file per test in `tmp_path` (WAL, foreign keys, BEGIN IMMEDIATE writers).
- postgres: one throw-away database per test session (`fappo_test_<random>`, migrated with alembic,
  dropped at the end), emptied before each test. The server is 127.0.0.1:5432, user postgres,
  trust auth (override with FAPPO_TEST_PG_URL, an asyncpg URL of a database to connect to for
  CREATE DATABASE). Without a server those tests skip, saying why; scripts/ci-postgres.sh starts it.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

PG_ADMIN_URL = os.environ.get(
    "FAPPO_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"
)

DATABASES = [
    pytest.param("sqlite", marks=pytest.mark.integration, id="sqlite"),
    pytest.param("postgres", marks=[pytest.mark.integration, pytest.mark.postgres], id="postgres"),
]


def run_in_thread(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on a new event loop in a worker thread (safe inside a test's loop)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _asyncpg_dsn(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(_asyncpg_dsn(PG_ADMIN_URL), timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def create_postgres_database() -> str:
    """A new, empty database `fappo_test_<random>` on the test server; skips the test without one."""
    from sqlalchemy.engine import make_url

    name = f"fappo_test_{secrets.token_hex(6)}"
    admin = make_url(PG_ADMIN_URL)
    try:
        run_in_thread(_admin(f'CREATE DATABASE "{name}"'))
    except (TimeoutError, OSError, ImportError) as exc:
        pytest.skip(
            f"PostgreSQL is not reachable at {admin.host}:{admin.port or 5432} "
            f"({exc.__class__.__name__}: {exc}); "
            "start it with scripts/ci-postgres.sh to run the PostgreSQL tests"
        )
    except Exception as exc:  # asyncpg's own errors (auth, permissions) say what is wrong
        pytest.skip(f"cannot create a PostgreSQL test database: {exc}")
    return admin.set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    """Drop a database made by `create_postgres_database` (its connections closed by force)."""
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    assert name and name.startswith("fappo_test_")
    run_in_thread(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """A throw-away, migrated PostgreSQL database for this test session (skips without a server)."""
    url = create_postgres_database()
    try:
        run_in_thread(_migrate(url))
        yield url
    finally:
        drop_postgres_database(url)


async def _migrate(url: str) -> None:
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.migrate import upgrade_engine

    engine = create_engine_for_url(url)
    try:
        await upgrade_engine(engine)
    finally:
        await engine.dispose()


async def empty_postgres(url: str) -> None:
    """Delete every row of every table (the schema stays)."""
    from fappo_bot.storage.tables import Base

    names = ", ".join(f'"{table.name}"' for table in Base.metadata.sorted_tables)
    import asyncpg

    connection = await asyncpg.connect(_asyncpg_dsn(url), timeout=5)
    try:
        await connection.execute(f"TRUNCATE {names} CASCADE")
    finally:
        await connection.close()


async def create_sqlite_schema(url: str) -> None:
    """The tables on a new SQLite file (the migration tests prove this equals the migrations)."""
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.tables import Base

    engine = create_engine_for_url(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(Base.metadata.create_all)
    finally:
        await engine.dispose()


@pytest.fixture(params=DATABASES)
def database_kind(request: pytest.FixtureRequest) -> str:
    """ "sqlite" or "postgres": the database this run of the test uses."""
    return str(request.param)


@pytest.fixture
async def database_url(database_kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database with the newest schema, of the kind under test."""
    if database_kind == "postgres":
        url = str(request.getfixturevalue("postgres_server_url"))
        await empty_postgres(url)
        return url
    url = f"sqlite+aiosqlite:///{(tmp_path / 'fappo.sqlite3').as_posix()}"
    await create_sqlite_schema(url)
    return url


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[object]:
    """An AsyncEngine on the test database, disposed after the test."""
    from fappo_bot.storage.engine import create_engine_for_url

    engine = create_engine_for_url(database_url)
    try:
        yield engine
    finally:
        await engine.dispose()


@pytest.fixture
def uow_factory(engine: object) -> object:
    """`fappo_bot.service.ports.UowFactory` on the test database (SQLite and PostgreSQL)."""
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

    return SqlUnitOfWorkFactory(engine)  # type: ignore[arg-type]


@pytest.fixture
def fresh_postgres_database() -> Iterator[Any]:
    """A factory of new, empty PostgreSQL databases (no tables), dropped after the test."""
    made: list[str] = []

    def make() -> str:
        url = create_postgres_database()
        made.append(url)
        return url

    try:
        yield make
    finally:
        for url in made:
            drop_postgres_database(url)


# ---- layers: every test says which one it is ---------------------------------------------------
#: the layers of pyproject.toml's markers; `-m unit` and the like select by them, so a test with
#: none would silently fall out of every such selection
LAYERS = ("unit", "integration", "e2e")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a test that carries none of the layer markers (a module's `pytestmark` will do)."""
    if not any(item.get_closest_marker(layer) for layer in LAYERS):
        pytest.fail(f"{item.nodeid} has no layer marker: mark it with one of "
                    f"{', '.join(f'@pytest.mark.{layer}' for layer in LAYERS)}", pytrace=False)
