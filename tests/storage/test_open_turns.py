"""The games with an open turn (what the adapter catches up on at start) are read in one
statement, whatever their number, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from fappo_bot.service.records import Membership, Role, TurnStatus
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

from . import records as r

pytestmark = pytest.mark.integration


async def test_the_games_with_an_open_turn_their_turn_and_members_in_one_statement(engine):
    statements: list[str] = []
    factory = SqlUnitOfWorkFactory(engine, tap=lambda what, sql, args: statements.append(sql))
    async with factory() as uow:
        for i, name in enumerate(["open", "resolved", "none", "bare", "closed"]):
            await uow.games.add(r.game(name, f"chan-{name}", created_at=r.at(10 - i)))
        await uow.turns.add(r.turn("t-open", "open"))
        await uow.turns.add(r.turn("t-res", "resolved", status=TurnStatus.RESOLVED))
        await uow.turns.add(r.turn("t-void", "resolved", 2, status=TurnStatus.VOID))
        await uow.turns.add(r.turn("t-bare", "bare", paused=True))
        await uow.turns.add(r.turn("t-c1", "closed"))
        await uow.turns.add(r.turn("t-c2", "closed", 2, status=TurnStatus.CLOSED))
        for user, role in [
            ("zed", Role.PLAYER),
            ("amy", Role.PLAYER),
            ("gm", Role.GM),
            ("amy", Role.GM),
        ]:
            await uow.members.add(Membership(game_id="open", user_id=user, role=role))
        await uow.members.add(Membership(game_id="closed", user_id="amy", role=Role.PLAYER))
        await uow.commit()
    statements.clear()
    async with factory() as uow:
        found = await uow.games.with_open_turns()
        fetched = [s for s in statements if s.startswith("SELECT")]
        assert len(fetched) == 1
        # oldest game first; a game's latest turn that is not void decides; members each once,
        # as `members.list` orders them (by role, then user)
        assert [(o.game.id, o.turn.id, o.members) for o in found] == [
            ("bare", "t-bare", ()),
            ("open", "t-open", ("amy", "gm", "zed")),
        ]
        assert found[1].game == await uow.games.get("open")
        assert found[1].turn == await uow.turns.get("t-open")
        assert [m.user_id for m in await uow.members.list("open")] == ["amy", "gm", "amy", "zed"]
