"""A lost database connection is a `TransientError` (its own error, not a `StaleVersion`): before
the COMMIT nothing was kept and a `@retried` use case runs again on a new connection; during the
COMMIT it is in doubt. The connection is really lost: the server ends the backend."""

from __future__ import annotations

import asyncpg
import pytest

from fappo_bot.service import Services, TransientError
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
from tests.conftest import _asyncpg_dsn, run_in_thread

from . import records as r

pytestmark = [pytest.mark.integration, pytest.mark.postgres]


@pytest.fixture
def database_kind() -> str:
    return "postgres"


async def _kill(url: str, uow) -> None:
    """End the server backend of `uow`'s connection, from another connection."""
    pid = uow.tx.link._driver.get_server_pid()
    admin = await asyncpg.connect(_asyncpg_dsn(url), timeout=5)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


async def test_a_connection_lost_mid_transaction_is_transient_and_keeps_nothing(
    uow_factory, database_url
):
    async with uow_factory() as uow:
        await uow.games.add(r.game(id="g1", channel="c1"))
        await _kill(database_url, uow)
        with pytest.raises(TransientError, match="nothing was saved") as lost:
            await uow.games.get("g2")
        assert not lost.value.in_doubt
    async with uow_factory() as uow:  # the pool hands out a live connection again
        assert await uow.games.get("g1") is None


async def test_a_connection_lost_at_the_commit_is_in_doubt(uow_factory, database_url):
    async with uow_factory() as uow:
        await uow.games.add(r.game(id="g1", channel="c1"))
        await _kill(database_url, uow)
        with pytest.raises(TransientError, match="may or may not have been saved") as lost:
            await uow.commit()
        assert lost.value.in_doubt


async def _kill_all(url: str) -> None:
    """End every other backend of the test database (the pool's connections)."""
    admin = await asyncpg.connect(_asyncpg_dsn(url), timeout=5)
    try:
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    finally:
        await admin.close()


async def test_a_retried_use_case_runs_again_on_a_new_connection(engine, database_url):
    """The first INSERT of `games.create` finds its connection gone; the use case runs again on
    a new one and the game is created once."""
    inserts: list[str] = []

    def lose_the_first_insert(what: str, sql: str, args: object) -> None:
        if sql.startswith("INSERT"):
            inserts.append(sql)
            if len(inserts) == 1:
                run_in_thread(_kill_all(database_url))

    services = Services(SqlUnitOfWorkFactory(engine, tap=lose_the_first_insert))
    game = await services.games.create(channel_key="c1", name="A", creator="gm")
    assert (await services.games.show(game.id)).name == "A"
    assert len(inserts) > 1 and inserts[0] == inserts[1]  # the game's INSERT ran twice
    assert [g.name for g in await services.games.games_of("gm")] == ["A"]
