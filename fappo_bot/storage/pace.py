"""The players' pace (`PlayerPace`): one row a player, its choices a document."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from sqlalchemy import bindparam, select

from fappo_bot.service.records import PlayerPace
from fappo_bot.storage.driver import Sql
from fappo_bot.storage.queries import listed, table, upsert
from fappo_bot.storage.tables import PlayerPaceRow
from fappo_bot.storage.transaction import Repository
from fappo_bot.storage.values import doc, parse, utc

PACE = table(PlayerPaceRow)
PACE_UPSERT = Sql(lambda dialect: upsert(PACE, "user_id", dialect))
PACE_OF = Sql(lambda dialect: select(PACE).where(
    PACE.c.user_id.in_(listed("user_ids", PACE.c.user_id, dialect))))
PACE_WITH_DIGEST = Sql(select(PACE).where(PACE.c.digest_hour <= bindparam("hour"))
                       .order_by(PACE.c.user_id))
PACE_BY_ID = Sql(select(PACE).where(PACE.c.user_id == bindparam("user_id")))


class SqlPace(Repository):
    async def get(self, user_id: str) -> PlayerPace | None:
        row = await self._first(PACE_BY_ID, PACE, user_id=user_id)
        return None if row is None else parse(PlayerPace, row.data)

    async def many(self, user_ids: Collection[str]) -> Mapping[str, PlayerPace]:
        wanted = list(dict.fromkeys(user_ids))
        if not wanted:
            return {}
        rows = await self._rows(PACE_OF, PACE, user_ids=wanted)
        return {row.user_id: parse(PlayerPace, row.data) for row in rows}

    async def put(self, pace: PlayerPace) -> None:
        await self._tx.execute(PACE_UPSERT, {
            "user_id": pace.user_id, "data": doc(pace), "digest_hour": pace.digest_hour,
            "updated_at": utc(pace.updated_at)})

    async def with_digest(self, hour: int) -> Sequence[PlayerPace]:
        rows = await self._rows(PACE_WITH_DIGEST, PACE, hour=hour)
        return [parse(PlayerPace, row.data) for row in rows]
