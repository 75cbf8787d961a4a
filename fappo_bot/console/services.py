"""The table's use-case groups, built over one unit-of-work factory (the composition root)."""

from __future__ import annotations

from typing import Any

from fappo_bot.console.table import TABLE_CHANNEL_PREFIX, Services
from fappo_bot.service.base import Deps
from fappo_bot.service.characters import CharacterService
from fappo_bot.service.games import GameService
from fappo_bot.service.ports import UowFactory


def build_services(uow_factory: UowFactory) -> Services:
    """The same use cases the Discord adapter builds, with the real clock, ids and salts."""
    deps = Deps(uow_factory=uow_factory)

    async def table_games() -> list[Any]:
        # read-only listing for the table's own games (the service has no "all games" use case)
        async with uow_factory() as uow:
            games = await uow.games.list()
        return [g for g in games if g.channel_key.startswith(TABLE_CHANNEL_PREFIX)]

    return Services(
        games=GameService(deps),
        characters=CharacterService(deps),
        table_games=table_games,
    )
