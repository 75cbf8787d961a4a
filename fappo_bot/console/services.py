"""The table's use cases: the service layer's `Services`, built over one unit-of-work factory,
and the table's own games (the service's listing of the `table:` channels)."""

from __future__ import annotations

from fappo_bot.service.facade import Services
from fappo_bot.service.ports import UowFactory
from fappo_bot.service.records import Game

TABLE_CHANNEL_PREFIX = "table:"
"""Channel keys of games played at the local table (the outbox messages the table delivers)."""


class TableServices(Services):
    """The same use cases the Discord adapter calls (`games`, `characters`, `turns`,
    `calltime`, `review`, `resolution`, `aftermath`, `outbox`, `transfer`, `users`), and
    `table_games()`; built with the real clock, ids, salts, parser and resolver."""

    def __init__(self, uow_factory: UowFactory) -> None:
        super().__init__(uow_factory)

    async def table_games(self) -> list[Game]:
        """The games played at the table (channel keys `table:...`), oldest first."""
        return await self.games.listing(TABLE_CHANNEL_PREFIX)
