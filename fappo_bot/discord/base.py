"""What the cogs know of the bot: its services, settings, clock, rooms and outbox, handed in
through the constructor (no globals). `bot.py` adds the cogs to it; the cogs import only this
module, so no import loop runs through the bot."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from fappo_bot.discord.endpoints import Endpoints, aim_http
from fappo_bot.discord.errors import RoomRefusals
from fappo_bot.discord.outage import Outages
from fappo_bot.discord.proxy import Later, ProxyPosts
from fappo_bot.service.clock import Clock, SystemClock
from fappo_bot.service.errors import NotFound
from fappo_bot.service.facade import Services
from fappo_bot.service.web_links import LinkService
from fappo_bot.settings import Settings

log = logging.getLogger(__name__)


def bot_intents() -> discord.Intents:
    """Guilds, guild and DM messages, and the privileged message content (turn posts are read)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    intents.message_content = True
    return intents


class Rooms:
    """Which channel holds which game (by channel key), remembered: every message in every
    channel the bot sees asks, and a channel's game changes only by /game create here (a
    guild's channels all belong to one shard, so one process)."""

    def __init__(self, bot: FappoBotBase) -> None:
        self._bot = bot
        self._known: dict[str, str | None] = {}

    async def game_id(self, channel_key: str) -> str | None:
        if channel_key not in self._known:
            try:
                view = await self._bot.services.games.find(channel_key)
            except NotFound:
                self._known[channel_key] = None
            else:
                self._known[channel_key] = view.id
        return self._known[channel_key]

    def forget(self, channel_key: str) -> None:
        self._known.pop(channel_key, None)


class DisplayNames:
    """Tells the service each user's display name, so its sentences name people as Discord
    shows them; only when the name changed since this process last told it (one dict look-up
    per message or interaction otherwise). A failure is logged and never stops what the user
    asked for."""

    def __init__(self, bot: FappoBotBase) -> None:
        self._bot = bot
        self._told: dict[str, str] = {}

    async def saw(self, user: discord.abc.User) -> None:
        key, name = str(user.id), user.display_name
        if user.bot or self._told.get(key) == name:
            return
        try:
            await self._bot.services.users.set_display_name(key, name)
        except Exception:  # a name is a nicety: the post or the command goes on without it
            log.warning("could not store the display name of user %s", key, exc_info=True)
            return
        self._told[key] = name


class NamingTree(app_commands.CommandTree):
    """The command tree: every command, autocomplete included, first tells the user's name."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        bot: Any = interaction.client
        await bot.names.saw(interaction.user)
        return True


#: how long a shard waits, after READY and after each GUILD_CREATE, for the next GUILD_CREATE
#: before it is ready (discord.py's default: 2 s, every start). The wait is there to fill the
#: member cache before `on_ready`; this bot fills none (no members or presences intent, no
#: chunking at start-up: `bot_intents`, `chunk_guilds_at_startup`), so it only collects the
#: guilds Discord sends back to back after READY. A guild that comes later (one unavailable at
#: READY, in an outage) comes as `on_guild_available`, whatever the wait, and its shard catches
#: up again then (`posts.py`).
GUILD_READY_TIMEOUT = 0.25

#: the longest rate-limit wait discord.py sleeps through inside a request, in seconds
RATE_LIMIT_WAIT = 30.0


class Outbox(Protocol):
    def wake(self) -> None: ...
    def wake_boards(self) -> None: ...
    def inbox_read(self, user_id: str) -> None: ...
    def mine(self, guild_key: str) -> bool: ...


class TurnBoards(Protocol):
    """The turn boards of the games' rooms (`board.Boards`)."""

    @property
    def on(self) -> bool: ...
    def touch(self, game_id: str | None) -> None: ...
    def due_in(self) -> float | None: ...
    async def refresh(self) -> None: ...


class CampaignLinks(Protocol):
    """The campaign page as the bot's commands use it (`web.server.CampaignSite`)."""

    @property
    def links(self) -> LinkService: ...

    def url(self, token: str) -> str: ...


class FappoBotBase(commands.AutoShardedBot):
    """The bot: the service, the settings, and what the cogs share."""

    def __init__(self, services: Services, settings: Settings, *, clock: Clock | None = None,
                 later: Later | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=bot_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            chunk_guilds_at_startup=False,
            guild_ready_timeout=GUILD_READY_TIMEOUT,
            shard_ids=settings.discord.shard_ids,  # type: ignore[arg-type]
            shard_count=settings.discord.shard_count,
            tree_cls=NamingTree,
            # a rate limit longer than this raises RateLimited rather than holding the outbox
            # loop (or a command) asleep inside one request: the outbox keeps the message and
            # tries it again after the wait Discord asked for (discord.py's least value)
            max_ratelimit_timeout=RATE_LIMIT_WAIT,
        )
        self.services = services
        self.settings = settings
        #: where this bot's REST calls and gateway go (`endpoints.py`; its webhooks are aimed
        #: by `FappoBot.start`)
        self.endpoints = Endpoints.of(settings.discord.api_base, settings.discord.gateway_url)
        aim_http(self.http, self.endpoints)
        self.clock = clock or SystemClock()
        self.rooms = Rooms(self)
        #: the turn boards of the games' rooms (`board.py`; set by `FappoBot`)
        self.boards: TurnBoards
        self.names = DisplayNames(self)
        #: proxy posts (Tupperbox, PluralKit) and the grace of members' posts (`later`: its
        #: timer, the event loop's unless a test hands its own)
        self.proxies = ProxyPosts(services, settings.discord, later, self.clock)
        #: rooms where Discord refused the bot (403), said once in the log
        self.refusals = RoomRefusals()
        #: the outbox cog (set up in `setup_hook`)
        self.delivery: Outbox
        #: whether a game's call time may fire (the catch-up of `posts.py` holds it back until
        #: the game's room and its members' DMs are caught up)
        self.calltime_ready: Callable[[str], bool] = lambda _game_id: True
        #: the heartbeat kept in the database and the outage it tells at start (`outage.py`;
        #: no store until the composition root hands one: then no outage is ever seen)
        self.outages = Outages(services, self.clock)
        #: the campaign page's links (`/game link`, `/me link`); None when it is off
        self.web: CampaignLinks | None = None
