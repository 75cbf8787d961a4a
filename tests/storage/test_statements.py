"""How many statements a close and a resolve send: on PostgreSQL each is a round trip, which was
most of a resolve's time there. A game's characters and a turn's orders in force are read once
per transaction, however often the use cases ask, and read again after a write to them."""

from __future__ import annotations

from collections import Counter

import pytest

from fappo_bot.service import Services
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

from .scenario import GM, build_table

pytestmark = pytest.mark.integration


def _verb(sql: str) -> str:
    words = sql.split()
    if words[0] == "SELECT":
        return f"SELECT {words[words.index('FROM') + 1]}"
    return " ".join(words[:3]) if words[0] in ("INSERT", "UPDATE") else words[0]


class Statements:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, what: str, sql: str, args: object) -> None:
        self.seen.append(_verb(sql.strip()))

    def take(self) -> Counter[str]:
        counted = Counter(self.seen)
        self.seen.clear()
        return counted


async def test_a_close_and_a_resolve_read_the_characters_and_orders_once_each(engine):
    statements = Statements()
    services = Services(SqlUnitOfWorkFactory(engine, tap=statements))
    game = await build_table(services)
    statements.take()

    closed = await services.calltime.close(game, GM)
    close = statements.take()
    await services.resolution.resolve(game, GM, closed.number)
    resolve = statements.take()

    for counted in (close, resolve):
        assert counted["SELECT characters"] == 1, counted
        assert counted["SELECT posts"] == 1, counted  # the posts holding the orders in force
        assert counted["SELECT orders_in_force"] == 0, counted  # joined into that one
    # BEGIN and COMMIT included; PostgreSQL adds the turn's SELECT ... FOR UPDATE to each
    assert sum(close.values()) <= 11, close
    assert sum(resolve.values()) <= 13, resolve


async def test_what_a_transaction_writes_is_read_back_after_the_rows_it_read_once(uow_factory):
    services = Services(uow_factory)
    game = await build_table(services)
    async with uow_factory() as uow:
        turn = await uow.turns.latest(game)
        before = list(await uow.characters.list(game))
        in_force = await uow.posts.in_force_revisions(turn.id)
        assert len(in_force) == 3
        # a character changed and one added in the same transaction: both seen
        changed = before[0].model_copy(update={"missed_turns": 2, "version": before[0].version + 1})
        await uow.characters.update(changed)
        added = before[1].model_copy(update={"id": "c-new", "name": "Brakka"})
        await uow.characters.add(added)
        after = {c.id: c for c in await uow.characters.list(game)}
        assert after[changed.id].missed_turns == 2
        assert "c-new" in after and len(after) == len(before) + 1
        # a post deleted in the same transaction: its orders are no longer in force
        gone, _revision = in_force[0]
        await uow.posts.update(gone.model_copy(update={"deleted": True,
                                                       "version": gone.version + 1}))
        left = await uow.posts.in_force_revisions(turn.id)
        assert [p.id for p, _ in left] == [p.id for p, _ in in_force[1:]]
        await uow.rollback()


async def test_opening_the_storage_compiles_every_statement_before_the_first_use_case(
    tmp_path, monkeypatch
):
    """SQLAlchemy's compile of a statement takes about a millisecond: done at start, not by the
    first posts after a start (a dozen statements at once, in the middle of the load)."""
    from fappo_bot.settings import Settings
    from fappo_bot.storage import driver
    from fappo_bot.storage.opening import open_storage

    for sql in driver._MADE:  # as in a process that has compiled nothing yet
        monkeypatch.setattr(sql, "_compiled", {})
    compiled: list[object] = []
    made = driver.Compiled

    def counted(statement: object, dialect: object) -> driver.Compiled:
        compiled.append(statement)
        return made(statement, dialect)

    async with open_storage(Settings(data_dir=tmp_path / "data")) as storage:
        assert all("sqlite" in sql._compiled for sql in driver._MADE)
        monkeypatch.setattr(driver, "Compiled", counted)
        services = Services(storage.uow_factory)
        game = await build_table(services)
        assert game
    known = {id(sql.statement) for sql in driver._MADE}
    # only the UPDATEs of a column set seen for the first time are made (and compiled) later
    assert [s for s in compiled if id(s) in known] == []
