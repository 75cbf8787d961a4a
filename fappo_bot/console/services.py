"""The table's use cases: the service layer's `Services`, built over one unit-of-work factory,
and the table's own games (the service's listing of the `table:` channels)."""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.service.facade import Services
from fappo_bot.service.ports import UowFactory
from fappo_bot.service.records import Game
from fappo_bot.service.web_links import LinkService, LinkStore

TABLE_CHANNEL_PREFIX = "table:"
"""Channel keys of games played at the local table (the outbox messages the table delivers)."""


@dataclass(frozen=True)
class TableSite:
    """The campaign page's links as the table gives them (`/link`)."""

    links: LinkService
    base_url: str
    #: whether this process serves the page (the table never does: `fappo-bot web` does)
    served: bool = False

    def url(self, token: str) -> str:
        return f"{self.base_url}/c/{token}/"


class TableServices(Services):
    """The same use cases the Discord adapter calls (`games`, `characters`, `turns`,
    `calltime`, `review`, `resolution`, `aftermath`, `outbox`, `transfer`, `users`), and
    `table_games()`; built with the real clock, ids, salts, parser and resolver."""

    def __init__(self, uow_factory: UowFactory, links: LinkStore | None = None,
                 base_url: str = "http://127.0.0.1:8080") -> None:
        super().__init__(uow_factory)
        self._links = links
        self._base_url = base_url

    @property
    def web(self) -> TableSite:
        """The campaign page's links; `Conflict` on a table opened without a link store."""
        if self._links is None:
            from fappo_bot.service.errors import Conflict

            raise Conflict("This table keeps no campaign page links (no database to keep "
                           "them in).")
        return TableSite(LinkService(self.deps, self._links), self._base_url)

    async def table_games(self) -> list[Game]:
        """The games played at the table (channel keys `table:...`), oldest first."""
        return await self.games.listing(TABLE_CHANNEL_PREFIX)
