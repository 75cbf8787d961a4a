"""The links to the campaign pages (`service/web_links.py`'s `LinkStore`), in the `web_links`
table. Each call is its own short transaction on the engine, as the kept values' (`kept.py`):
a page's reader is found before, and apart from, the unit of work that reads the game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from fappo_bot.service.web_links import WebLink
from fappo_bot.storage.engine import writer
from fappo_bot.storage.queries import table
from fappo_bot.storage.tables import WebLinkRow
from fappo_bot.storage.values import utc

_LINKS = table(WebLinkRow)


def _link(row: Any) -> WebLink:
    return WebLink(id=row.id, game_id=row.game_id, user_id=row.user_id, secret=row.secret,
                   created_at=utc(row.created_at),
                   revoked_at=None if row.revoked_at is None else utc(row.revoked_at))


def _whose(user_id: str | None) -> Any:
    column = _LINKS.c.user_id
    return column.is_(None) if user_id is None else column == user_id


class SqlWebLinks:
    """`LinkStore` over the `web_links` table."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def add(self, link: WebLink) -> None:
        async with writer(self._engine).begin() as connection:
            await connection.execute(_LINKS.insert(), [link.model_dump()])

    async def get(self, link_id: str) -> WebLink | None:
        async with self._engine.connect() as connection:
            row = (await connection.execute(
                select(_LINKS).where(_LINKS.c.id == link_id))).first()
        return None if row is None else _link(row)

    async def current(self, game_id: str, user_id: str | None) -> WebLink | None:
        statement = (select(_LINKS)
                     .where(_LINKS.c.game_id == game_id, _whose(user_id),
                            _LINKS.c.revoked_at.is_(None))
                     .order_by(_LINKS.c.created_at.desc(), _LINKS.c.id.desc()).limit(1))
        async with self._engine.connect() as connection:
            row = (await connection.execute(statement)).first()
        return None if row is None else _link(row)

    async def revoke(self, game_id: str, user_id: str | None, at: datetime) -> None:
        async with writer(self._engine).begin() as connection:
            await connection.execute(
                update(_LINKS)
                .where(_LINKS.c.game_id == game_id, _whose(user_id),
                       _LINKS.c.revoked_at.is_(None))
                .values(revoked_at=at))
