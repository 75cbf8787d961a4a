"""What every command group shares: the game of the room the command is used in, the caller's
id, answering, and waking the outbox after a change."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from fappo_bot.discord.errors import AdapterError
from fappo_bot.discord.limits import answer

if TYPE_CHECKING:
    from fappo_bot.discord.base import FappoBotBase

NO_GAME_HERE = "There is no game in this channel; a GM starts one here with /game create."


def user_key(user: discord.abc.Snowflake) -> str:
    return str(user.id)


async def game_of_room(bot: FappoBotBase, interaction: discord.Interaction) -> str:
    """The id of the game of the channel, thread or forum post the command was used in."""
    channel = interaction.channel
    game_id = await bot.rooms.game_id(str(channel.id)) if channel else None
    if game_id is None:
        raise AdapterError(NO_GAME_HERE)
    return game_id


class BotGroup(app_commands.Group):
    """A command group holding the bot (its services, rooms and outbox)."""

    def __init__(self, bot: FappoBotBase) -> None:
        super().__init__()
        self.bot = bot
        self.services = bot.services

    async def game_here(self, interaction: discord.Interaction) -> str:
        """The id of the game of the channel, thread or forum post the command was used in."""
        return await game_of_room(self.bot, interaction)

    def changed(self) -> None:
        """The command may have queued messages: deliver them now."""
        self.bot.delivery.wake()


async def say(interaction: discord.Interaction, text: str, *, private: bool = False,
              embed: discord.Embed | None = None, embeds: Sequence[discord.Embed] = (),
              files: list[discord.File] | None = None, pings: Sequence[str] = ()) -> None:
    """Answer the command (in the room, or only to the caller), in as many messages as
    Discord's limits take (`limits.answer`); `files` go with the first, and only the users of
    `pings` are pinged."""
    await answer(interaction, text, private=private,
                 embeds=[embed, *embeds] if embed is not None else embeds,
                 files=files or (), pings=pings)
