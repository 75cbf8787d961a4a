"""The table's use cases: the service layer's `Services`, built over one unit-of-work factory,
plus the one read the table needs that no use case offers (its own games)."""

from __future__ import annotations

from fappo_bot.service.facade import Services
from fappo_bot.service.ports import UowFactory
from fappo_bot.service.records import Game

TABLE_CHANNEL_PREFIX = "table:"
"""Channel keys of games played at the local table (the outbox messages the table delivers)."""


class TableServices(Services):
    """The same use cases the Discord adapter calls (`games`, `characters`, `turns`,
    `calltime`, `review`, `resolution`, `aftermath`, `outbox`), and `table_games()`; built with
    the real clock, ids, salts, parser and resolver."""

    def __init__(self, uow_factory: UowFactory) -> None:
        super().__init__(uow_factory)
        #: for export and import, which move whole games through the repositories
        self.uow_factory = uow_factory

    async def table_games(self) -> list[Game]:
        """The games played at the table (channel keys `table:...`), oldest first. A read-only
        listing: the service has no "every game" use case, the Discord bot never needs one."""
        async with self.uow_factory() as uow:
            games = await uow.games.list()
        return [g for g in games if g.channel_key.startswith(TABLE_CHANNEL_PREFIX)]
