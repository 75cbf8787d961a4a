"""`/me`: a player's own pace, across their games: how they are reminded (`remind`), their
absences (`away`, `back`), their daily digest (`digest`) and how their DMs show a turn's
results (`layout`). Private answers; the service's `PaceService` decides."""

from __future__ import annotations

import discord
from discord import app_commands

from fappo_bot.discord.commands.base import BotGroup, say, user_key
from fappo_bot.discord.commands.web import campaign_links
from fappo_bot.discord.errors import AdapterError
from fappo_bot.posting.safety import safe
from fappo_bot.service.layout import ResultsLayout
from fappo_bot.service.pace import absence_time
from fappo_bot.service.records import RemindBy

#: `/me layout`'s choice of no layout of one's own: each game's room's
GAME = "game"


class MeGroup(BotGroup, name="me", description="Your own pace (reminders, absences, digest), "
              "your results layout and your link to the campaign page"):

    @app_commands.command(name="remind", description="How you are reminded of a deadline")
    @app_commands.describe(how="A DM, a ping in the game's room, or no reminder",
                           game="One of your games (leave it out: all your games)")
    @app_commands.choices(how=[app_commands.Choice(name=r.value, value=r.value)
                               for r in RemindBy])
    async def remind(self, interaction: discord.Interaction, how: str,
                     game: str | None = None) -> None:
        user = user_key(interaction.user)
        game_id = None
        if game is not None:
            mine = await self.services.games.games_of(user)
            found = [g for g in mine if g.name.casefold() == game.strip().casefold()]
            if not found:
                names = ", ".join(safe(g.name) for g in mine) or "none yet"
                raise AdapterError(f'You play in no game named "{safe(game)}" (yours: {names}).')
            game_id = found[0].id
        await say(interaction, await self.services.pace.remind(user, RemindBy(how), game_id),
                  private=True)

    @remind.autocomplete("game")
    async def game_names(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        mine = await self.services.games.games_of(user_key(interaction.user))
        return [app_commands.Choice(name=g.name[:100], value=g.name[:100]) for g in mine
                if current.casefold() in g.name.casefold()][:25]

    @app_commands.command(name="away", description="You are away: not reminded, no missed turn")
    @app_commands.describe(
        from_="From when (UTC): 2026-12-05, 2026-12-05 18:00 or 2d (leave it out: now)",
        to="Until when (UTC): 2026-12-08, 2026-12-08 18:00 or 3d (leave it out: until /me back)")
    @app_commands.rename(from_="from")
    async def away(self, interaction: discord.Interaction, from_: str | None = None,
                   to: str | None = None) -> None:
        now = self.bot.clock.now()
        start = absence_time(from_, now) if from_ else None
        end = absence_time(to, now, end=True, start=start) if to else None
        await say(interaction, await self.services.pace.away(user_key(interaction.user),
                                                             start, end), private=True)
        await self._touch_mine(interaction)

    @app_commands.command(name="back", description="You are back from an absence")
    async def back(self, interaction: discord.Interaction) -> None:
        await say(interaction, await self.services.pace.back(user_key(interaction.user)),
                  private=True)
        await self._touch_mine(interaction)

    async def _touch_mine(self, interaction: discord.Interaction) -> None:
        """The boards of the caller's games show them away, or back."""
        for game in await self.services.games.games_of(user_key(interaction.user)):
            self.bot.boards.touch(game.id)

    @app_commands.command(name="digest", description="One DM a day listing the turns that "
                          "wait for you")
    @app_commands.describe(state="on or off", hour="The hour, UTC (0-23; default 8)")
    @app_commands.choices(state=[app_commands.Choice(name=s, value=s) for s in ("on", "off")])
    async def digest(self, interaction: discord.Interaction, state: str,
                     hour: app_commands.Range[int, 0, 23] | None = None) -> None:
        await say(interaction, await self.services.pace.digest(
            user_key(interaction.user), state == "on", hour), private=True)

    @app_commands.command(name="layout", description="How your DMs show a turn's results")
    @app_commands.describe(how="embeds (a section each), text (plain, for screen readers and "
                           "embeds turned off) or game (as each game's room)")
    @app_commands.choices(how=[app_commands.Choice(name=h, value=h)
                               for h in (*(layout.value for layout in ResultsLayout), GAME)])
    async def layout(self, interaction: discord.Interaction, how: str) -> None:
        chosen = None if how == GAME else ResultsLayout(how)
        await say(interaction, await self.services.pace.layout(user_key(interaction.user),
                                                               chosen), private=True)

    @app_commands.command(name="link", description="Your own link to this game's campaign "
                          "page (with your private results), by DM")
    async def link(self, interaction: discord.Interaction) -> None:
        web = campaign_links(self.bot)
        game, token = await web.links.player_link(await self.game_here(interaction),
                                                  user_key(interaction.user))
        text = (f"Your own link to the campaign page of {safe(game.name)}: it also shows your "
                f"private results, so keep it to yourself.\n<{web.url(token)}>")
        try:
            await interaction.user.send(text)
        except discord.Forbidden:
            raise AdapterError("The bot cannot DM you (your privacy settings refuse DMs from "
                               "this server's members): allow them, then ask again.") from None
        await say(interaction, "Your link is in your DMs.", private=True)
