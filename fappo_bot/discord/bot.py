"""`FappoBot`: the `commands.Bot` subclass the composition root builds, handed the services and
the settings through its constructor (no globals), with the cogs added in `setup_hook`."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from fappo_bot.discord.base import FappoBotBase
from fappo_bot.discord.commands import add_commands
from fappo_bot.discord.delivery import Delivery
from fappo_bot.discord.errors import install_error_boundary
from fappo_bot.discord.posts import TurnPosts

log = logging.getLogger(__name__)

EXPIRED = ("This panel has expired (the bot restarted since, or it was left open too long): run "
           "the command again.")
#: how long a button, select or modal of the bot may wait for its handler before it is said
#: expired (Discord waits 3 s for an answer, then tells the user the interaction failed)
EXPIRED_AFTER = 2.5


class FappoBot(FappoBotBase):
    """The bot with its cogs: turn posts, the outbox and call time, the slash commands."""

    async def setup_hook(self) -> None:
        install_error_boundary(self)
        self.delivery = Delivery(self)
        await self.add_cog(self.delivery)
        await self.add_cog(TurnPosts(self))
        await add_commands(self)
        await self.sync_commands()

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
        globally (Discord takes up to an hour to show global changes)."""
        guilds = self.settings.discord.dev_guilds
        if guilds:
            for guild_id in guilds:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
