"""The slash commands, grouped as players and GMs meet them: `/game`, `/char`, `/turn`, `/gm`,
`/xp` (the GM's Xp dice pools), `/me` (a player's reminders, absences, digest and link to the campaign page), `/odds`, `/reveal`, `/inbox` and `/help`. Each command is a shell over one use case: it reads the options, calls the service
with the caller's id, and shows what comes back; refusals (GM commands asked by a player too) are
the service's own sentences, through the error boundary."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fappo_bot.discord.base import FappoBotBase


async def add_commands(bot: FappoBotBase) -> None:
    from fappo_bot.discord.advance import AdvanceButton
    from fappo_bot.discord.commands.characters import CharGroup
    from fappo_bot.discord.commands.games import GameGroup, inbox_command
    from fappo_bot.discord.commands.help import help_command
    from fappo_bot.discord.commands.me import MeGroup
    from fappo_bot.discord.commands.turns import GmGroup, TurnGroup, reveal_command
    from fappo_bot.discord.commands.xp import XpGroup, odds_command

    for group in (GameGroup(bot), CharGroup(bot), TurnGroup(bot), GmGroup(bot), XpGroup(bot),
                  MeGroup(bot)):
        bot.tree.add_command(group)
    bot.tree.add_command(help_command)
    bot.tree.add_command(odds_command)
    bot.tree.add_command(inbox_command)
    bot.tree.add_command(reveal_command)
    bot.add_dynamic_items(AdvanceButton)
