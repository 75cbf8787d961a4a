"""`FappoBot`: the `commands.Bot` subclass the composition root builds, handed the services and
the settings through its constructor (no globals), with the cogs added in `setup_hook`."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any, Protocol

import discord

from fappo_bot.discord.base import FappoBotBase
from fappo_bot.discord.board import Boards
from fappo_bot.discord.commands import add_commands
from fappo_bot.discord.delivery import Delivery
from fappo_bot.discord.endpoints import aim_webhooks
from fappo_bot.discord.errors import install_error_boundary
from fappo_bot.discord.posts import TurnPosts
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

log = logging.getLogger(__name__)

EXPIRED = ("This panel has expired (the bot restarted since, or it was left open too long): run "
           "the command again.")
#: how long a button, select or modal of the bot may wait for its handler before it is said
#: expired (Discord waits 3 s for an answer, then tells the user the interaction failed)
EXPIRED_AFTER = 2.5
#: how long a stop waits for the handlers in flight (`docker stop` kills after 10 s)
SHUTDOWN_GRACE = 5.0
#: the names discord.py gives the tasks that handle an event, a command, a component or a
#: modal: the work in flight a stop waits for
HANDLER_TASKS = ("discord.py: ", "CommandTree-invoker", "discord-ui-")


class KeptValues(Protocol):
    """Small values kept across starts, shared by every process (`fappo_bot.storage.kept`)."""

    async def get(self, key: str) -> str | None: ...
    async def put(self, key: str, value: str) -> None: ...


def _ignore(_data: Any) -> None:
    return None


class FappoBot(FappoBotBase):
    """The bot with its cogs: turn posts, the outbox and call time, the slash commands."""

    def __init__(self, *args: Any, kept: KeptValues | None = None,
                 heartbeat: KeptValues | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: where the hash of the published commands is kept; None publishes on every start
        self.kept = kept
        self.boards = Boards(self)
        #: where the heartbeat is kept (by default with the other kept values; `outage.py`)
        self.outages.store = heartbeat or kept
        #: the turn posts' cog, which every message goes to (set up in `setup_hook`)
        self.posts: TurnPosts
        #: the slash commands of the tree, and whether this start published them
        self.command_count = 0
        self.commands_published = False

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Log in and run; the interaction answers of this task and of every task it makes go
        to the bot's REST base (`endpoints.py`)."""
        aim_webhooks(self.endpoints)
        await super().start(token, reconnect=reconnect)

    async def shut_down(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop cleanly: take no new events (every gateway event is dropped from now on), let
        the handlers in flight finish their unit of work (up to `grace` seconds), then close
        the cogs' loops, the gateway and the HTTP session."""
        parsers = self._connection.parsers
        for event in parsers:
            parsers[event] = _ignore
        me = asyncio.current_task()
        in_flight = [t for t in asyncio.all_tasks()
                     if t is not me and not t.done() and t.get_name().startswith(HANDLER_TASKS)]
        if in_flight:
            _, late = await asyncio.wait(in_flight, timeout=grace)
            if late:
                log.warning("stopping with %d handlers still running (rolled back)", len(late))
        await self.close()

    async def setup_hook(self) -> None:
        install_error_boundary(self)
        self.delivery = Delivery(self)
        factory = self.services.deps.uow_factory
        if isinstance(factory, SqlUnitOfWorkFactory):  # each commit that queued wakes it
            factory.when_queued(self.delivery.wake)
        await self.add_cog(self.delivery)
        self.posts = TurnPosts(self)
        await self.add_cog(self.posts)
        await add_commands(self)
        await self.sync_commands()

    async def on_message(self, message: discord.Message) -> None:
        """Every message is the turn posts' business (`posts.TurnPosts.heard`), called from here
        rather than by a listener of the cog: discord.py runs each handler of an event in a
        task of its own, and a message then needs one, not two (this method's and the
        listener's). The bot has no prefix commands (its commands are slash commands), so it
        does not look for one in every message as `commands.Bot` does."""
        await self.posts.heard(message)

    async def on_app_command_completion(self, interaction: discord.Interaction,
                                        command: object) -> None:
        """A command used in a game's room may have changed its turn: its board is brought up
        to date (`board.py`)."""
        channel = interaction.channel
        if channel is not None and self.boards.on:
            self.boards.touch(await self.rooms.game_id(str(channel.id)))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button, select or modal of the bot (custom_id `fappo:...`) that no open view
        answers (its panel is from before a restart, or timed out) gets one private sentence
        rather than Discord's "This interaction failed"."""
        if interaction.type not in (discord.InteractionType.component,
                                    discord.InteractionType.modal_submit):
            return
        data: dict[str, object] = dict(interaction.data or {})
        custom = str(data.get("custom_id", ""))
        if not custom.startswith("fappo:") or self.listening(interaction, custom):
            return
        await asyncio.sleep(EXPIRED_AFTER)
        if interaction.response.is_done():
            return
        try:
            await interaction.response.send_message(EXPIRED, ephemeral=True)
        except discord.HTTPException as exc:  # answered at the last moment after all
            log.info("expired panel %s not answered: %s %s", custom, exc.status, exc.code)

    def listening(self, interaction: discord.Interaction, custom: str) -> bool:
        """Whether an open view or modal of this process takes this interaction. Read from
        discord.py's view store (2.7: `ViewStore._views`, `_modals`; no public way to ask);
        when it cannot be read, False, and only the wait decides."""
        store: Any = getattr(self._connection, "_view_store", None)
        if interaction.type is discord.InteractionType.modal_submit:
            return custom in (getattr(store, "_modals", None) or {})
        views = getattr(store, "_views", None) or {}
        kind = int(dict(interaction.data or {}).get("component_type", 0))  # type: ignore[call-overload]
        message = interaction.message.id if interaction.message else None
        return any((kind, custom) in views.get(at, {}) for at in (message, None))

    async def sync_commands(self) -> None:
        """Publish the slash commands: to the development guilds at once when set, else
        globally (Discord takes up to an hour to show global changes). Only when they changed
        since they were last published there (their hash is kept in the database, which every
        process of the bot shares), so restarts and shards do not publish them again."""
        guilds = self.settings.discord.dev_guilds
        targets: list[discord.Object | None] = [discord.Object(g) for g in guilds] or [None]
        self.commands_published = False
        for guild in targets:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            commands = self.tree.get_commands(guild=guild)
            self.command_count = len(commands)
            digest = hashlib.sha256(json.dumps(
                [c.to_dict(self.tree) for c in commands], sort_keys=True,
                separators=(",", ":"), default=str).encode()).hexdigest()
            key = f"commands:{self.application_id}:{guild.id if guild else 'global'}"
            if self.kept is not None and await self.kept.get(key) == digest:
                continue
            await self.tree.sync(guild=guild)
            self.commands_published = True
            if self.kept is not None:
                await self.kept.put(key, digest)
