"""`/help`: the bot's help by topic (playing a turn, secret orders, the GM's turn, settings, Xp,
every command), each a short page with an example, worded by `render/help.py` (the pages the
table's `/help` words too) in Discord's commands; without a topic, the list of topics and every
command in one line, read from the command tree the bot publishes, so a command added or renamed
is in it at once. In an Xp game's room the pages give the Xp post forms."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

from fappo_bot.discord.commands.base import say
from fappo_bot.discord.commands.xp import XpGroup, odds_command
from fappo_bot.posting.safety import no_rule_codes
from fappo_bot.posting_xp import XP_POST_FORMS
from fappo_bot.render import help as pages

#: the words of the help pages on Discord (`render/help.py`, `FIELDS`)
WORDS: dict[str, str] = {
    "post_where": "Post in the game's room",
    "edit_how": "edit your post to fix it",
    "line_tool": "`/turn line` writes one line from your sheet; ",
    "pass": "`/turn pass`",
    "sheet": "`/char sheet`",
    "secret_how": "by direct message (or through `/turn orders`, a private form, when your DMs "
                  "are closed)",
    "secret_lead": "as a DM to the bot",
    "dm": "",
    "secret_tail": "In two games with an open turn, the bot asks which game they are for. Every "
                   "DM the bot sends you names its game and links its room; `/inbox` shows what "
                   "it could not send you.",
    "open": "`/turn open`",
    "npc": "`/gm npc`",
    "calltime_in": "`/turn calltime in:1d`",
    "calltime_at": "`at:Fri 20:00`",
    "calltime_now": "no option",
    "status": "`/turn status`",
    "extend": "`/turn extend`",
    "pause": "`/turn pause`",
    "resume": "`/turn resume`",
    "resolve": "`/gm resolve`",
    "undo": "`/gm undo`",
    "rest": "`/gm rest gap:night`",
    "advance": "`/gm advance by:2d`",
    "endadventure": "`/gm endadventure award:2`",
    "gm_example": "/turn open\n/gm npc\n/turn calltime in:1h\n/gm resolve",
    "trait_add": "`/game trait add name:Keen-eyed aliases:Sharp skills:Lookout`",
    "trait_list": "`/game trait list`",
    "trait_remove": "`/game trait remove name:Keen-eyed`",
    "settings": "`/game settings`",
    "set": "`/game set`",
    "set_reminders": "`/game set name:reminders value:12h, 1h`",
    "set_visibility": "`/game set name:results_visibility value:public`",
    "set_layout": "`/game set name:results_layout value:embeds`",
    "layout_where": "each player's DMs follow their own `/me layout how:embeds|text|game`",
    "show": "`/game show` is the game, its GMs and players",
    "people": "a GM adds people with `/game player` and `/game gm`, and pauses or ends the game "
              "with `/game status`.",
    "times": "Every time the bot shows is in your own time zone.",
    "remind_dm": "`/me remind how:dm`",
    "remind_dm_is": "a direct message naming the game, with a link to its room",
    "remind_ping": "`how:ping`",
    "remind_none": "`how:none`",
    "remind_game": "`game:`",
    "away": "`/me away from:2026-12-20 to:2027-01-03`",
    "away_days": "`to:3d`",
    "board": "the board",
    "back": "`/me back`",
    "digest": "`/me digest state:on hour:8`",
    "calltime_48h": "`/turn calltime in:48h`",
    "set_timezone": "`/game set name:timezone value:Europe/Berlin`",
    "xp_new": "`/game create name:… ruleset:Xp`",
    "odds": "`/odds 6d superior`",
    "xp_roll": "`/xp roll`",
    "xp_passive": "`/xp passive`",
    "xp_active": "`/xp active`",
    "xp_group": "`/xp group`",
    "xp_plot": "`/xp plot`",
    "index_post": "post your turn in the game's room as prose with mechanics lines",
}

VOICE = pages.HelpVoice(words=WORDS, example=lambda text: f"```\n{text}\n```",
                        topic=lambda key: f"`/help topic:{key}`")

#: how a required option is shown in the list: a number as N, anything else as …
_OPTION = {discord.AppCommandOptionType.integer: "N", discord.AppCommandOptionType.number: "N"}


def _items(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> Iterable[str]:
    """`command` as the list shows it: a group as its commands (`/game create|show`), each of its
    groups on its own; a command with its required options and what it does."""
    if isinstance(command, app_commands.Group):
        leaves = [c.name for c in command.commands if isinstance(c, app_commands.Command)]
        if leaves:
            yield f"`/{command.qualified_name} {'|'.join(leaves)}`"
        for sub in command.commands:
            if isinstance(sub, app_commands.Group):
                yield from _items(sub)
        return
    options = "".join(f" {p.name}:{_OPTION.get(p.type, '…')}" for p in command.parameters
                      if p.required)
    about = command.description.rstrip(".")
    yield f"`/{command.qualified_name}{options}`: {about[:1].lower()}{about[1:]}"


def _dice_pools(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> bool:
    """Whether `command` is one of the dice-pool games' (`commands/xp.py`), known by what it
    is, not by its name, so a renamed one stays under their heading."""
    return command is odds_command or isinstance(command, XpGroup)


def command_list(tree: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group]) -> str:
    """Every command of `tree` in the order it was published, the Xp games' on their own line."""
    commands = [c for c in tree if isinstance(c, app_commands.Command | app_commands.Group)]
    main = [item for c in commands if not _dice_pools(c) for item in _items(c)]
    xp = [item for c in commands if _dice_pools(c) for item in _items(c)]
    text = " · ".join(main)
    if xp:
        text += "\nXp games (`/game create ruleset:Xp`): " + " · ".join(xp)
    return text


def help_page(topic: str | None, dice_pools: bool, commands: str) -> str:
    """The page of `topic` (None: the index); in the room of a game with dice pools (an Xp
    game's), the pages on posting give the Xp post forms too, without their rule codes (anyone
    reads `/help`). `commands`: the list of every command (`command_list`)."""
    if topic is None or topic not in pages.TOPICS:
        text = pages.index(VOICE, commands)
    else:
        text = pages.page(VOICE, topic, commands)
    if dice_pools and topic in pages.POST_FORM_TOPICS:
        text = f"{text}\n```\n{no_rule_codes(XP_POST_FORMS)}\n```"
    return text


@app_commands.command(name="help", description="How to play with the bot, by topic, with "
                      "examples")
@app_commands.describe(topic="What to read about (leave it out for the list of topics)")
@app_commands.choices(topic=[app_commands.Choice(name=name, value=key)
                             for key, (name, _, _) in pages.TOPICS.items()])
async def help_command(interaction: discord.Interaction, topic: str | None = None) -> None:
    """The page of a topic, privately; in an Xp game's room, the Xp post forms too."""
    bot: Any = interaction.client
    channel = interaction.channel
    game_id = await bot.rooms.game_id(str(channel.id)) if channel is not None else None
    dice_pools = game_id is not None and (await bot.services.games.show(game_id)).dice_pools
    commands = command_list(bot.tree.get_commands())
    await say(interaction, help_page(topic, dice_pools, commands), private=True)
