"""The table's use cases: the service layer's `Services`, built over one unit-of-work factory,
and the table's own games (the service's listing of the `table:` channels)."""

from __future__ import annotations

from typing import Any

from fappo_bot.console.table import TABLE_CHANNEL_PREFIX
from fappo_bot.service.facade import Services
from fappo_bot.service.ports import UowFactory


class TableServices:
    """The same use cases the Discord adapter calls (`games`, `characters`, `turns`,
    `calltime`, `review`, `resolution`, `aftermath`, `outbox`), and `table_games()`."""

    def __init__(self, uow_factory: UowFactory) -> None:
        self.core = Services(uow_factory)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)

    async def table_games(self) -> list[Any]:
        """The games played at the table (channel keys `table:...`), oldest first."""
        return await self.core.games.listing(TABLE_CHANNEL_PREFIX)


def build_services(uow_factory: UowFactory) -> TableServices:
    """The table's services with the real clock, ids, salts, parser and resolver."""
    return TableServices(uow_factory)
