"""The campaign page's links on Discord: `/game link` (a GM: the game's link, `rotate` for a new
one) and `/me link` (a player: their own link, by DM). A link is a secret: every answer that
holds one is private (ephemeral) or a DM, never in the room."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from fappo_bot.discord.commands.base import game_of_room, say, user_key
from fappo_bot.discord.errors import AdapterError
from fappo_bot.posting.safety import safe

if TYPE_CHECKING:
    from fappo_bot.discord.base import CampaignLinks, FappoBotBase

WEB_OFF = ("This bot has no campaign page: its host turns it on with the `[web]` settings "
           "(docs/discord.md, \"The campaign page\").")


def campaign_links(bot: FappoBotBase) -> CampaignLinks:
    if bot.web is None:
        raise AdapterError(WEB_OFF)
    return bot.web


async def game_link(bot: FappoBotBase, interaction: discord.Interaction, rotate: bool) -> None:
    """`/game link`: the room's game's link, privately to its GM."""
    web = campaign_links(bot)
    game, token = await web.links.link(await game_of_room(bot, interaction),
                                       user_key(interaction.user), rotate=rotate)
    told = ("A new link: the old one no longer opens anything. " if rotate else "")
    await say(interaction, f"{told}The campaign page of {safe(game.name)} (anyone with this "
              f"link can read what the room has seen; `/game link rotate:True` replaces it):\n"
              f"<{web.url(token)}>", private=True)
