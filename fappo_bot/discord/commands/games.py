"""`/game`: create a game in this room, show it, add players and GMs; and `/help`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from fappo_bot.discord.commands.base import BotGroup, say, user_key
from fappo_bot.posting.safety import safe
from fappo_bot.service.records import GameStatus, Role
from fappo_bot.service.views import GameView


def describe_game(view: GameView) -> str:
    gms = ", ".join(f"<@{g}>" for g in view.gms if g.isdigit()) or "none"
    players = ", ".join(f"<@{p}>" for p in view.players if p.isdigit()) or "none yet"
    turn = (f"turn {view.turn.number} is {view.turn.status.value}" if view.turn
            else "no turn opened yet")
    return (f"**{safe(view.name)}** ({view.status.value}): {turn}.\n"
            f"GMs: {gms}. Players: {players}.")


@app_commands.guild_only()
class GameGroup(BotGroup, name="game", description="Games: start one in this room, show it, "
                "add its players and GMs"):

    @app_commands.command(name="create", description="Start a game in this channel, thread or "
                          "forum post; you are its GM")
    @app_commands.describe(name="The game's name", ruleset="FAPPO (default) or the Xp dice pools")
    @app_commands.choices(ruleset=[app_commands.Choice(name="FAPPO", value="fappo"),
                                   app_commands.Choice(name="Xp dice pools", value="xp")])
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, 100], ruleset: str = "fappo") -> None:
        assert interaction.channel is not None
        key = str(interaction.channel.id)
        view = await self.services.games.create(
            channel_key=key, name=name, creator=user_key(interaction.user),
            guild_key=str(interaction.guild_id) if interaction.guild_id else None,
            ruleset=ruleset)
        self.bot.rooms.forget(key)
        await say(interaction, f"A new game starts here.\n{describe_game(view)}")

    @app_commands.command(name="show", description="This room's game: its turn, GMs and players")
    async def show(self, interaction: discord.Interaction) -> None:
        view = await self.services.games.show(await self.game_here(interaction))
        await say(interaction, describe_game(view), private=True)

    @app_commands.command(name="player", description="GM: add a player to this game")
    @app_commands.describe(user="The player")
    async def player(self, interaction: discord.Interaction, user: discord.User) -> None:
        view = await self.services.games.add_member(
            await self.game_here(interaction), user_key(interaction.user), user_key(user),
            Role.PLAYER)
        await say(interaction, f"<@{user.id}> plays in {safe(view.name)}.")

    @app_commands.command(name="gm", description="GM: add another GM to this game")
    @app_commands.describe(user="The new GM")
    async def gm(self, interaction: discord.Interaction, user: discord.User) -> None:
        view = await self.services.games.add_member(
            await self.game_here(interaction), user_key(interaction.user), user_key(user),
            Role.GM)
        await say(interaction, f"<@{user.id}> is a GM of {safe(view.name)}.")


    @app_commands.command(name="status", description="GM: pause, resume or end this game")
    @app_commands.describe(status="The game's new status")
    @app_commands.choices(status=[app_commands.Choice(name=s.value, value=s.value)
                                  for s in GameStatus])
    async def status(self, interaction: discord.Interaction, status: str) -> None:
        view = await self.services.games.set_status(
            await self.game_here(interaction), user_key(interaction.user), GameStatus(status))
        await say(interaction, describe_game(view))


@app_commands.command(name="inbox", description="The private messages the bot could not send "
                      "you by DM")
async def inbox_command(interaction: discord.Interaction) -> None:
    bot: Any = interaction.client
    user = user_key(interaction.user)
    messages = await bot.services.outbox.inbox(user)
    if not messages:
        await say(interaction, "Nothing is waiting for you.", private=True)
        return
    await say(interaction, "\n\n".join(m.content for m in messages), private=True)
    for message in messages:
        await bot.services.outbox.mark_sent(message.id)
    bot.delivery.inbox_read(user)


HELP = """\
**FAPPO Bot**: post your turn in the game's room as prose with mechanics lines; the bot answers \
with your orders (or every problem, with its line), and follows your edits. Orders against \
another player's character go to the bot by DM.
`/game create|show|player|gm|status` · `/char add|new|enemy|sheet|manage` · \
`/turn open|status|pass|line|orders|calltime|extend|pause|resume` · \
`/gm npc|resolve|undo|rest|advance|endadventure|export` · `/inbox` (private messages the bot could \
not DM you)
Xp games (`/game create ruleset:Xp`): `/odds 6d superior` (anyone) · \
`/xp roll|passive|active|group|rolls|show|case` · `/xp plot open|auto|play|surprise|show` (GMs)"""


@app_commands.command(name="help", description="How to play with the bot, and its commands")
async def help_command(interaction: discord.Interaction) -> None:
    await say(interaction, HELP, private=True)
