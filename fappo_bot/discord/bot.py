"""`FappoBot`: the `commands.Bot` subclass the composition root builds, handed the services and
the settings through its constructor (no globals), with the cogs added in `setup_hook`."""

from __future__ import annotations

import discord

from fappo_bot.discord.base import FappoBotBase
from fappo_bot.discord.commands import add_commands
from fappo_bot.discord.delivery import Delivery
from fappo_bot.discord.errors import install_error_boundary
from fappo_bot.discord.posts import TurnPosts


class FappoBot(FappoBotBase):
    """The bot with its cogs: turn posts, the outbox and call time, the slash commands."""

    async def setup_hook(self) -> None:
        install_error_boundary(self)
        self.delivery = Delivery(self)
        await self.add_cog(self.delivery)
        await self.add_cog(TurnPosts(self))
        await add_commands(self)
        await self.sync_commands()

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
