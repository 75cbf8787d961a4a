"""A game, its turn and its characters are read whole once by a unit-of-work factory; later
reads send their versions alone while the rows are the same, and read them whole again once a
version moved: whether this factory changed them, or another one on the same database (another
bot process) did. A transaction that rolled back leaves nothing behind."""

from __future__ import annotations

import pytest

from fappo_bot.service import Services
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

from .scenario import ALICE, GM, build_table

pytestmark = pytest.mark.integration


class Selects:
    """The columns of each SELECT of `games` or `characters` (a tap)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, what: str, sql: str, args: object) -> None:
        words = sql.split()
        if words[0] == "SELECT":
            self.seen.append(sql.split("FROM", 1)[0])

    def whole(self, table: str) -> int:
        """How many SELECTs read `table`'s documents (its sheets, or the game's rules)."""
        column = {"characters": "characters.sheet", "games": "games.rules"}[table]
        return sum(column in columns for columns in self.take())

    def take(self) -> list[str]:
        seen, self.seen = self.seen, []
        return seen


async def _kael(uow_factory, game_id: str):
    async with uow_factory() as uow:
        return next(r for r in await uow.characters.list(game_id) if r.name == "Kael")


async def test_the_rows_are_read_whole_again_only_when_their_version_moved(engine):
    selects = Selects()
    factory = SqlUnitOfWorkFactory(engine, tap=selects)
    services = Services(factory)
    game = await build_table(services)
    selects.take()

    async with factory() as uow:
        await uow.games.at_play(game, ALICE)
        await uow.characters.list(game)
    assert selects.whole("games") == 0 and selects.whole("characters") == 0

    closed = await services.calltime.close(game, GM)  # changes the turn: this factory saw it
    selects.take()
    async with factory() as uow:
        at_play = await uow.games.at_play(game, ALICE)
    assert at_play is not None and at_play.turn is not None
    assert at_play.turn.number == closed.number and at_play.turn.status.value == "closed"
    assert selects.whole("games") == 0


async def test_another_factory_s_change_is_read(engine):
    mine, theirs = SqlUnitOfWorkFactory(engine), SqlUnitOfWorkFactory(engine)
    game = await build_table(Services(mine))
    kael = await _kael(mine, game)

    async with theirs() as uow:  # another process changes Kael and closes the turn
        await uow.characters.update(kael.model_copy(update={
            "missed_turns": kael.missed_turns + 3, "version": kael.version + 1}))
        at_play = await uow.games.at_play(game, GM)
        assert at_play is not None and at_play.turn is not None
        await uow.turns.update(at_play.turn.model_copy(update={
            "deadline": None, "paused": True, "version": at_play.turn.version + 1}))
        await uow.commit()

    assert (await _kael(mine, game)).missed_turns == kael.missed_turns + 3
    async with mine() as uow:
        seen = await uow.games.at_play(game, GM)
    assert seen is not None and seen.turn is not None and seen.turn.paused


async def test_a_transaction_that_rolled_back_leaves_nothing_behind(engine):
    mine, theirs = SqlUnitOfWorkFactory(engine), SqlUnitOfWorkFactory(engine)
    game = await build_table(Services(mine))
    kael = await _kael(mine, game)

    async with mine() as uow:  # changed and read here, then rolled back
        await uow.characters.update(kael.model_copy(update={
            "missed_turns": 7, "version": kael.version + 1}))
        assert next(r for r in await uow.characters.list(game) if r.name == "Kael") \
            .missed_turns == 7
    async with theirs() as uow:  # another process writes that same version, differently
        await uow.characters.update(kael.model_copy(update={
            "missed_turns": 2, "version": kael.version + 1}))
        await uow.commit()

    assert (await _kael(mine, game)).missed_turns == 2
