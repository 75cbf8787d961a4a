"""What an adapter needs to catch up on what it missed while it was away: the games with an
open turn (their rooms, their members, when the turn opened and its deadline), and per channel
the newest message it had handled (its mark), so that it reads back only the channels that moved
past theirs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from fappo_bot.service.base import UseCases
from fappo_bot.service.retry import retried


@dataclass(frozen=True, slots=True)
class OpenTurn:
    """A game whose turn takes posts now."""

    game_id: str
    channel_key: str
    guild_key: str | None
    #: when the turn opened: a message older than this is no post of it
    opened_at: datetime
    #: when time is called (None: no deadline, or paused)
    deadline: datetime | None
    #: the game's members (players and GMs), who may send it orders by DM
    members: tuple[str, ...]


class ChannelService(UseCases):
    """The adapter's channel marks and the games it catches up on."""

    async def open_turns(self) -> list[OpenTurn]:
        """Every game with an open turn, oldest game first."""
        async with self.uow() as uow:
            return [
                OpenTurn(game_id=o.game.id, channel_key=o.game.channel_key,
                         guild_key=o.game.guild_key, opened_at=o.turn.opened_at,
                         deadline=None if o.turn.paused else o.turn.deadline, members=o.members)
                for o in await uow.games.with_open_turns()
            ]

    async def marks(self) -> Mapping[str, str]:
        """Every channel's mark (channel key -> message key)."""
        async with self.uow() as uow:
            return await uow.channels.marks()

    @retried
    async def set_marks(self, marks: Mapping[str, str]) -> None:
        """The adapter handled every message up to these in these channels."""
        if not marks:
            return
        async with self.uow() as uow:
            await uow.channels.set_marks(marks, self.now())
            await uow.commit()
