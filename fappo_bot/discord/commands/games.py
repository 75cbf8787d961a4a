"""`/game`: create a game in this room, show it, add players and GMs; and `/inbox`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
from discord import app_commands

from fappo_bot.discord.commands.base import BotGroup, say, user_key
from fappo_bot.discord.commands.characters import matching, room_role
from fappo_bot.discord.commands.web import game_link
from fappo_bot.discord.rendering import from_game, worded
from fappo_bot.posting.safety import safe
from fappo_bot.service.advance_views import LedgerView
from fappo_bot.service.records import GameStatus, Role
from fappo_bot.service.rulesets.known import KNOWN
from fappo_bot.service.settings_text import SettingView, setting_names, suggested_values
from fappo_bot.service.traits import TraitView
from fappo_bot.service.views import GameView


def describe_game(view: GameView) -> str:
    """The game in a few lines, naming its people by their display names (an inert mention
    for someone the service has no name of yet: it shows as their name, and pings nobody)."""
    def named(users: tuple[str, ...]) -> str:
        return ", ".join(safe(view.names[u]) if u in view.names else f"<@{u}>"
                         for u in users if u.isdigit())

    turn = (f"turn {view.turn.number} is {view.turn.status.value}" if view.turn
            else "no turn opened yet")
    rules = f", {view.tag}" if view.tag else ""
    return (f"**{safe(view.name)}** ({view.status.value}{rules}): {turn}.\n"
            f"GMs: {named(view.gms) or 'none'}. Players: {named(view.players) or 'none yet'}.")


def ledger_text(view: LedgerView, who: str) -> str:
    """F28: a player's tournament points, game by game."""
    if not view.entries:
        return f"{who} has no tournament CC yet (one per completed adventure of a tournament game)."
    lines = [f"- {points:+d} CC: {safe(reason)}" for _, points, reason in view.entries]
    return "\n".join([f"{who}: **{view.total}** tournament CC.", *lines])


def describe_settings(settings: list[SettingView]) -> str:
    """Every setting with its value and what it does, then the rules flags with theirs."""
    return "\n".join([
        "**Settings** (a GM changes one with /game set):",
        *(f"`{s.name}` = {safe(s.value)}: {safe(s.about)}" for s in settings
          if s.kind == "settings"),
        "**Rules flags** (R2):",
        *(f"`{s.name}` = {safe(s.value)}" for s in settings if s.kind == "rules")])


def trait_line(view: TraitView) -> str:
    """`**Keen-eyed** (also Sharp), suggests Lookout`: one Trait with what it answers to."""
    also = f" (also {', '.join(safe(a) for a in view.aliases)})" if view.aliases else ""
    skills = f", suggests {', '.join(safe(s) for s in view.skills)}" if view.skills else ""
    return f"**{safe(view.name)}**{also}{skills}"


def traits_text(views: list[TraitView]) -> str:
    """The rulebook's Traits on one line, then the game's own, one a line."""
    rulebook = ", ".join(safe(v.name) for v in views if v.builtin)
    own = [f"- {trait_line(v)}" for v in views if not v.builtin]
    return "\n".join([f"**Traits of the rulebook:** {rulebook}.",
                      "**This game's own Traits** (a GM adds one with /game trait add):"
                      if own else "This game has no Traits of its own (a GM adds one with "
                      "/game trait add).", *own])


#: `/game create`'s rulesets, from the registry (the first is the default of a new game), each
#: offered by its port's names
_NAMINGS = [ruleset.naming for ruleset in KNOWN.values()]
_RULESET_CHOICES = [app_commands.Choice(name=n.choice, value=n.name) for n in _NAMINGS]
_RULESETS_OFFERED = (f"{_NAMINGS[0].offered} (default) or "
                     + " or ".join(n.offered for n in _NAMINGS[1:]))


@app_commands.guild_only()
class GameGroup(BotGroup, name="game", description="Games: start one in this room, show it, "
                "its players, GMs and settings"):

    trait = app_commands.Group(name="trait", description="The game's own Traits beside the "
                               "rulebook's (F2): add, remove, list")

    @trait.command(name="add", description="GM: add a Trait to this game (sheets and SP lines "
                   "may name it)")
    @app_commands.describe(name="One word: the Trait's name (e.g. Keen-eyed)",
                           aliases="Other names it answers to, separated by commas",
                           skills="Skills it suggests, separated by commas (the game's own "
                                  "skills, not the rulebook's)")
    async def trait_add(self, interaction: discord.Interaction,
                        name: app_commands.Range[str, 1, 60],
                        aliases: app_commands.Range[str, 0, 200] = "",
                        skills: app_commands.Range[str, 0, 400] = "") -> None:
        view = await self.services.traits.add(await self.game_here(interaction),
                                              user_key(interaction.user), name, aliases, skills)
        await say(interaction, f"{trait_line(view)} is a Trait of this game: sheets may buy it "
                  f"and posts spend its SP (`1 SP {safe(view.name)}`).")

    @trait.command(name="remove", description="GM: remove one of this game's own Traits (none "
                   "a sheet uses)")
    @app_commands.describe(name="The Trait")
    async def trait_remove(self, interaction: discord.Interaction,
                           name: app_commands.Range[str, 1, 60]) -> None:
        view = await self.services.traits.remove(await self.game_here(interaction),
                                                 user_key(interaction.user), name)
        await say(interaction, f"{safe(view.name)} is no longer a Trait of this game.")

    @trait.command(name="list", description="The Traits of this game: the rulebook's and its own")
    async def trait_list(self, interaction: discord.Interaction) -> None:
        views = await self.services.traits.list(await self.game_here(interaction))
        await say(interaction, traits_text(views), private=True)

    @app_commands.command(name="create", description="Start a game in this channel, thread or "
                          "forum post; you are its GM")
    @app_commands.describe(name="The game's name", ruleset=_RULESETS_OFFERED)
    @app_commands.choices(ruleset=_RULESET_CHOICES)
    async def create(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, 100], ruleset: str | None = None) -> None:
        assert interaction.channel is not None
        key = str(interaction.channel.id)
        # the host's default reminder times (turns.reminders_minutes) for a new game
        reminders = [timedelta(minutes=m) for m in self.bot.settings.turns.reminders_minutes]
        view = await self.services.games.create(
            channel_key=key, name=name, creator=user_key(interaction.user),
            guild_key=str(interaction.guild_id) if interaction.guild_id else None,
            ruleset=ruleset, settings={"reminders": reminders})
        self.bot.rooms.forget(key)
        await say(interaction, f"A new game starts here.\n{describe_game(view)}")

    @app_commands.command(name="show", description="This room's game: its turn, GMs and players")
    async def show(self, interaction: discord.Interaction) -> None:
        view = await self.services.games.show(await self.game_here(interaction))
        await say(interaction, describe_game(view), private=True)

    @app_commands.command(name="player", description="GM: add a player to this game")
    @app_commands.describe(user="The player")
    async def player(self, interaction: discord.Interaction, user: discord.User) -> None:
        await self.bot.names.saw(user)
        view = await self.services.games.add_member(
            await self.game_here(interaction), user_key(interaction.user), user_key(user),
            Role.PLAYER)
        await say(interaction, f"<@{user.id}> plays in {safe(view.name)}.")

    @app_commands.command(name="gm", description="GM: add another GM to this game")
    @app_commands.describe(user="The new GM")
    async def gm(self, interaction: discord.Interaction, user: discord.User) -> None:
        await self.bot.names.saw(user)
        view = await self.services.games.add_member(
            await self.game_here(interaction), user_key(interaction.user), user_key(user),
            Role.GM)
        await say(interaction, f"<@{user.id}> is a GM of {safe(view.name)}.")

    @app_commands.command(name="remove", description="GM: remove a player or a GM from this "
                          "game (never its last GM)")
    @app_commands.describe(user="The player or GM", role="What they stop being here")
    @app_commands.choices(role=[app_commands.Choice(name="player", value=Role.PLAYER.value),
                                app_commands.Choice(name="GM", value=Role.GM.value)])
    async def remove(self, interaction: discord.Interaction, user: discord.User,
                     role: str = Role.PLAYER.value) -> None:
        view = await self.services.games.remove_member(
            await self.game_here(interaction), user_key(interaction.user), user_key(user),
            Role(role))
        what = "a GM" if role == Role.GM.value else "a player"
        await say(interaction, f"<@{user.id}> is no longer {what} of {safe(view.name)}.")

    @app_commands.command(name="settings", description="This room's game's settings and rules "
                          "flags, with their values")
    async def settings(self, interaction: discord.Interaction) -> None:
        found = await self.services.games.settings(await self.game_here(interaction))
        await say(interaction, describe_settings(found), private=True)

    @app_commands.command(name="set", description="GM: change one setting or rules flag of "
                          "this game")
    @app_commands.describe(name="The setting (see /game settings)",
                           value="Its new value: on/off, a choice, a number, a duration "
                                 "(48h, 90m), a list (12h, 1h) or none")
    async def set_(self, interaction: discord.Interaction,
                   name: app_commands.Range[str, 1, 100],
                   value: app_commands.Range[str, 1, 200]) -> None:
        game_id = await self.game_here(interaction)
        changed = await self.services.games.set_setting(
            game_id, user_key(interaction.user), name, value)
        self.bot.proxies.forget(game_id)
        await say(interaction, f"`{changed.name}` is now {safe(changed.value)}.")

    @set_.autocomplete("name")
    async def setting_choices(self, interaction: discord.Interaction, current: str
                              ) -> list[app_commands.Choice[str]]:
        """The names this game takes: the table settings and its ruleset's flags (FAPPO's R2
        flags, or an Xp game's `xp_*`), offered to its GMs only (no one else may set one);
        every name outside a game."""
        flags = None
        game_id, gm = await room_role(self, interaction)
        if game_id is not None:
            if not gm:
                return []
            flags = (await self.services.games.show(game_id)).flags
        return matching(setting_names(flags), current)

    @set_.autocomplete("value")
    async def value_choices(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        """The setting's options (on/off, its choices); else its value in this game now."""
        name = str(getattr(interaction.namespace, "name", "") or "")
        game_id, gm = await room_role(self, interaction)
        if game_id is not None and not gm:
            return []  # only a GM may set one
        offered = suggested_values(name)
        if not offered and game_id is not None:
            offered = [s.value for s in await self.services.games.settings(game_id)
                       if s.name == name.strip().casefold()]
        return matching(offered, current)

    @app_commands.command(name="status", description="GM: pause, resume or end this game")
    @app_commands.describe(status="The game's new status")
    @app_commands.choices(status=[app_commands.Choice(name=s.value, value=s.value)
                                  for s in GameStatus])
    async def status(self, interaction: discord.Interaction, status: str) -> None:
        view = await self.services.games.set_status(
            await self.game_here(interaction), user_key(interaction.user), GameStatus(status))
        await say(interaction, describe_game(view))

    @app_commands.command(name="ledger", description="Tournament CC a player earned across "
                          "games (F28)")
    @app_commands.describe(player="Whose ledger (default: yours)")
    async def ledger(self, interaction: discord.Interaction,
                     player: discord.User | None = None) -> None:
        who = player or interaction.user
        view = await self.services.aftermath.ledger(user_key(who))
        await say(interaction, ledger_text(view, f"<@{who.id}>"), private=True)

    @app_commands.command(name="link", description="GM: the link to this game's campaign page "
                          "(privately), or a new one")
    @app_commands.describe(rotate="Make a new link: the old one stops working")
    async def link(self, interaction: discord.Interaction, rotate: bool = False) -> None:
        await game_link(self.bot, interaction, rotate)


@app_commands.command(name="inbox", description="What the bot could not send you by DM (a "
                      "GM: all it could not deliver)")
async def inbox_command(interaction: discord.Interaction) -> None:
    """Your undelivered DMs; for a GM, also every message of their games Discord refused for
    good, each under where it was going. What you read is done (not sent again), except a
    player's DM a GM reads here: it stays in that player's inbox."""
    bot: Any = interaction.client
    user = user_key(interaction.user)
    messages = await bot.services.outbox.inbox(user)
    if not messages:
        await say(interaction, "Nothing is waiting for you.", private=True)
        return
    parts = []
    games: dict[str, str] = {}
    for message in messages:
        mine = message.dest_kind.value == "dm" and message.dest_key == user
        heading = "" if mine else f"**Not delivered to {await bot.services.outbox.where(message)}:**\n"
        if message.game_id is not None and message.part == 1:
            if message.game_id not in games:
                games[message.game_id] = from_game(await bot.services.games.show(message.game_id))
            heading += games[message.game_id] + "\n"
        parts.append(heading + worded(message))
    await say(interaction, "\n\n".join(parts), private=True)
    for message in messages:
        if message.dest_kind.value != "dm" or message.dest_key == user:
            await bot.services.outbox.mark_sent(message.id)
    bot.delivery.inbox_read(user)
