"""No post is lost while the bot is down: on start and on every reconnect, each game room with an
open turn is read back from Discord's history, and what the bot missed is ingested.

A member's message of the open turn with no reply from the bot was never handled: it goes to the
service now (as an edit, which records it when it is new; the service keys posts by message, so
nothing counts twice). A message edited after the bot's reply was last written had its edit
missed: the edit is applied. A message the bot answered that is gone from the room was deleted
while the bot was away: its orders are withdrawn and the bot's reply deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

import discord

from fappo_bot.discord.base import FappoBotBase
from fappo_bot.service.records import TurnStatus

#: what a missed message is handed to: (game id, message) -> handled, errors answered
Ingest = Callable[[str, discord.Message], Awaitable[None]]
#: what a missed deletion is handed to: (game id, room, deleted message id, the bot's replies)
Gone = Callable[[str, discord.abc.Messageable, int, list[int]], Awaitable[None]]

log = logging.getLogger(__name__)

#: how far back a room is read (messages); a turn with more posts than this while the bot was
#: down loses the oldest to the limit
HISTORY_LIMIT = 200


class CatchUp:
    """Reads every game room back once per (re)connection."""

    def __init__(self, bot: FappoBotBase, ingest: Ingest, gone: Gone) -> None:
        self.bot = bot
        self.ingest = ingest
        self.gone = gone
        self._lock = asyncio.Lock()
        self.rounds = 0
        #: set after each round (tests and the benchmark wait on it)
        self.finished = asyncio.Event()

    async def run(self) -> int:
        """Catch up every game room this process sees; returns how many messages were handled."""
        async with self._lock:
            self.finished.clear()
            handled = 0
            for guild in self.bot.guilds:
                rooms: list[discord.abc.Messageable] = [*guild.text_channels, *guild.threads]
                for room in rooms:
                    game_id = await self.bot.rooms.game_id(str(room.id))  # type: ignore[attr-defined]
                    if game_id is not None:
                        try:
                            handled += await self.room(game_id, room)
                        except discord.HTTPException:
                            log.exception("could not read the history of room %s",
                                          getattr(room, "id", "?"))
            self.rounds += 1
            self.finished.set()
            return handled

    async def opened_at(self, game_id: str) -> datetime | None:
        """When the game's open turn opened (its announcement was queued), or None when no turn
        is open."""
        game = await self.bot.services.games.show(game_id)
        if game.turn is None or game.turn.status is not TurnStatus.OPEN:
            return None
        opened = [m.created_at for m in await self.bot.services.outbox.for_game(game_id)
                  if m.kind == "turn_opened"]
        return max(opened) if opened else None

    async def room(self, game_id: str, room: discord.abc.Messageable) -> int:
        opened = await self.opened_at(game_id)
        if opened is None:
            return 0
        history = [m async for m in room.history(limit=HISTORY_LIMIT)]
        history.reverse()
        me = self.bot.user.id if self.bot.user else 0
        answered: dict[int, datetime] = {}
        replies: dict[int, list[int]] = {}
        for message in history:
            reference = message.reference
            if message.author.id == me and reference is not None and reference.message_id:
                when = message.edited_at or message.created_at
                answered[reference.message_id] = max(when, answered.get(reference.message_id,
                                                                         when))
                replies.setdefault(reference.message_id, []).append(message.id)
        present = {m.id for m in history}
        oldest = history[0].id if history else 0
        handled = 0
        for answered_id, ids in replies.items():
            if answered_id not in present and answered_id > oldest:
                await self.gone(game_id, room, answered_id, ids)
                handled += 1
        for message in history:
            # a proxy app's webhook post is a post (`proxy.py`); other bots' and webhooks' not
            if (message.author.bot or message.webhook_id is not None) and not (
                    self.bot.proxies.is_proxy(message)):
                continue
            if self.bot.proxies.is_held(message.channel.id, message.id):
                continue  # in its proxy grace: handled (or dropped) when the grace ends
            replied = answered.get(message.id)
            if replied is None and message.created_at >= opened.replace(
                    tzinfo=message.created_at.tzinfo):
                handled += 1
            elif replied is not None and message.edited_at and message.edited_at > replied:
                handled += 1
            else:
                continue
            await self.ingest(game_id, message)
        return handled
