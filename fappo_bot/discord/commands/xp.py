"""`/odds` for anyone, and `/xp`: the GM's dice-pool rolls in an Xp game (RULINGS Part B) and their
records. Shells over the service (`xp_rolls`, `xp_groups`, `xp_plots`, `xp_odds`): each reads its
options, calls the use case with the caller's id and shows the text the service rendered
(`render_xp`, the same as the local table's). A roll shows in the room; a Passive roll, the GM's
view of an Active roll or a PLOT (P, the hidden surprises, the seed) and every record only to the
GM who asked. GM-only refusals are the service's sentences, through the error boundary."""

from __future__ import annotations

import io
from typing import Any

import discord
import yaml
from discord import app_commands

from fappo_bot.discord.commands.base import BotGroup, say, user_key
from fappo_bot.discord.commands.characters import ranked
from fappo_bot.discord.limits import CHOICE_TEXT
from fappo_bot.posting.safety import DISCORD_LIMIT, clip
from fappo_bot.service.errors import ServiceError
from fappo_bot.service.xp_events import EVENTS, RANK_NAMES
from fappo_bot.service.xp_odds import read_roll
from fappo_bot.service.xp_records import XpShown

DICE = "Pool and level, e.g. 6d superior, 4d, 5 -1 (Normal if left out)"
GROUP_KINDS = [app_commands.Choice(name=k, value=k)
               for k in ("assisted", "spontaneous", "collateral")]
EVENT_KINDS = [app_commands.Choice(name=k, value=k) for k in EVENTS]
RANKS = [app_commands.Choice(name=k, value=k) for k in RANK_NAMES]


def block(text: str) -> str:
    """Monospaced, for tables of figures."""
    return f"```\n{text}\n```"


@app_commands.command(name="odds", description="The exact odds of an Xp roll, e.g. 6d superior")
@app_commands.describe(dice=DICE, need="Successes needed (default 1)",
                       npc="An NPC's roll (no heroic dice unless the game's xp_heroic_default "
                           "says)", public="Show it to the room")
async def odds_command(interaction: discord.Interaction, dice: app_commands.Range[str, 1, 60],
                       need: app_commands.Range[int, 1, 100] = 1, npc: bool = False,
                       public: bool = False) -> None:
    bot: Any = interaction.client
    channel = interaction.channel
    game_id = None if channel is None else await bot.rooms.game_id(str(channel.id))
    # in an Xp game, its flags (xp_sl_floor_mode, xp_heroic_default); elsewhere the defaults
    text = block(await bot.services.xp_rolls.odds(game_id, dice, need=need, npc=npc,
                                                  brief=True))
    if len(text) <= DISCORD_LIMIT:
        await say(interaction, text, private=not public)
        return
    # a table too long for one message goes as a file, its title and chances in the message
    lines = text.strip("`\n").split("\n")
    file = discord.File(io.BytesIO("\n".join(lines).encode("utf-8")), filename="odds.txt")
    await say(interaction, block("\n".join([lines[0], *lines[-5:]])), private=not public,
              files=[file])


async def _gm_view(interaction: discord.Interaction, shown: XpShown) -> None:
    """The GM's whole view of a roll, after the room's, only to the GM."""
    await say(interaction, shown.gm, private=True)  # as many messages as it takes


@app_commands.guild_only()
class XpGroup(BotGroup, name="xp", description="GM: Xp dice-pool rolls (ad-hoc, passive, "
              "active, group, PLOT) and their records"):

    plot = app_commands.Group(name="plot", description="GM: a PLOT, its plot points, GM points "
                              "and surprises (X14)")

    async def _game(self, interaction: discord.Interaction) -> tuple[str, str]:
        return await self.game_here(interaction), user_key(interaction.user)

    @app_commands.command(name="roll", description="GM: roll a dice pool for someone, every die "
                          "shown and stored with its seed")
    @app_commands.describe(name="Who rolls", dice=DICE, need="Successes needed (default 1)",
                           npc="An NPC: no heroic bonus dice unless heroic is set",
                           heroic="Bonus dice on natural 6s (default: PCs yes, NPCs no)",
                           private="Only you see the roll")
    async def roll(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
                   dice: app_commands.Range[str, 1, 60], need: app_commands.Range[int, 1, 100] = 1,
                   npc: bool = False, heroic: bool | None = None, private: bool = False) -> None:
        game_id, me = await self._game(interaction)
        spec = read_roll(dice)
        view = await self.services.xp_rolls.roll(
            game_id, me, name=name, pool=spec.pool, sl=spec.sl, who="npc" if npc else "pc",
            heroic=heroic, need=need)
        shown = view.shown
        await say(interaction, f"{shown.public}\n-# roll {shown.short_id}", private=private)

    @app_commands.command(name="passive", description="GM: a secret Passive roll; its successes "
                          "are stored for Active rolls to beat")
    @app_commands.describe(name="What it is stored on (the lock, the hidden gem)", dice=DICE,
                           npc="An NPC's roll: no heroic bonus dice")
    async def passive(self, interaction: discord.Interaction,
                      name: app_commands.Range[str, 1, 100], dice: app_commands.Range[str, 1, 60],
                      npc: bool = False) -> None:
        game_id, me = await self._game(interaction)
        spec = read_roll(dice)
        view = await self.services.xp_rolls.passive(
            game_id, me, name=name, pool=spec.pool, sl=spec.sl, who="npc" if npc else "pc")
        await say(interaction, f"{view.shown.gm}\n-# roll {view.shown.short_id}", private=True)

    @app_commands.command(name="active", description="GM: an Active roll against a stored Passive "
                          "roll (the room learns only if it beat it)")
    @app_commands.describe(against="The Passive roll (its name or id)", name="Who rolls",
                           dice=DICE, npc="An NPC's roll: no heroic bonus dice")
    async def active(self, interaction: discord.Interaction,
                     against: app_commands.Range[str, 1, 100],
                     name: app_commands.Range[str, 1, 100], dice: app_commands.Range[str, 1, 60],
                     npc: bool = False) -> None:
        game_id, me = await self._game(interaction)
        spec = read_roll(dice)
        view = await self.services.xp_rolls.active(
            game_id, me, against=against, name=name, pool=spec.pool, sl=spec.sl,
            who="npc" if npc else "pc")
        await say(interaction, f"{view.shown.public}\n-# roll {view.shown.short_id}")
        await _gm_view(interaction, view.shown)

    @active.autocomplete("against")
    async def passive_names(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        return ranked([(f"{r.name} ({r.short_id})", r.id)
                       for r in await self._records(interaction) if r.kind == "passive"],
                      current)

    @app_commands.command(name="group", description="GM: an assisted (first leads), spontaneous "
                          "or collateral (in order) group roll")
    @app_commands.describe(kind="How they roll together (X10, X11)",
                           rollers="e.g. Aster 6d, Brin 4d superior npc, Cato 3d relaunch",
                           need="Successes each needs (default 1)")
    @app_commands.choices(kind=GROUP_KINDS)
    async def group(self, interaction: discord.Interaction, kind: str,
                    rollers: app_commands.Range[str, 1, 1000],
                    need: app_commands.Range[int, 1, 100] = 1) -> None:
        game_id, me = await self._game(interaction)
        shown = await self.services.xp_groups.group(game_id, me, kind=kind, members=rollers,
                                                     need=need)
        await say(interaction, f"{shown.public}\n-# roll {shown.short_id}")

    @app_commands.command(name="reroll", description="GM: a roll over time: each unit rerolls "
                          "the dice that did not succeed, 1s lost (X9)")
    @app_commands.describe(name="Who tries", dice=DICE, unit="The time unit of each attempt, "
                           "e.g. 1m, 10m, 1h", units="How many units the time allows",
                           need="Successes needed (an Active roll against P needs P + 1)",
                           npc="An NPC: no heroic bonus dice")
    async def reroll(self, interaction: discord.Interaction,
                     name: app_commands.Range[str, 1, 100], dice: app_commands.Range[str, 1, 60],
                     unit: app_commands.Range[str, 1, 20], units: app_commands.Range[int, 1, 100],
                     need: app_commands.Range[int, 1, 100] = 1, npc: bool = False) -> None:
        game_id, me = await self._game(interaction)
        spec = read_roll(dice)
        shown = await self.services.xp_timed.reroll(
            game_id, me, name=name, pool=spec.pool, sl=spec.sl, who="npc" if npc else "pc",
            need=need, unit=unit, units=units)
        await say(interaction, f"{shown.public}\n-# roll {shown.short_id}")

    @app_commands.command(name="augment", description="GM: augment rolls first, their successes "
                          "added as dice to the roll (X12)")
    @app_commands.describe(name="The roll augmented (the trap removal)", dice=DICE,
                           augments="e.g. Perception 4d, Lore 3d superior",
                           need="Successes needed", npc="An NPC: no heroic bonus dice")
    async def augment(self, interaction: discord.Interaction,
                      name: app_commands.Range[str, 1, 100],
                      dice: app_commands.Range[str, 1, 60],
                      augments: app_commands.Range[str, 1, 300],
                      need: app_commands.Range[int, 1, 100] = 1, npc: bool = False) -> None:
        game_id, me = await self._game(interaction)
        spec = read_roll(dice)
        shown = await self.services.xp_timed.augment(
            game_id, me, name=name, pool=spec.pool, sl=spec.sl, who="npc" if npc else "pc",
            need=need, augments=augments)
        await say(interaction, f"{shown.public}\n-# roll {shown.short_id}")

    @app_commands.command(name="event", description="GM: an event, session or adventure ends, "
                          "a Sequence, a Parley or a Cut! (X17)")
    @app_commands.describe(kind="What happens (X17)", note="What the table should know",
                           character="A Cut!: who takes control of the scene",
                           luck="A Cut!: its price in Luck, yours to set (X15 Amb-1)")
    @app_commands.choices(kind=EVENT_KINDS)
    async def event(self, interaction: discord.Interaction, kind: str,
                    note: app_commands.Range[str, 0, 300] = "",
                    character: app_commands.Range[str, 1, 100] | None = None,
                    luck: app_commands.Range[int, 0, 99] = 0) -> None:
        game_id, me = await self._game(interaction)
        shown = await self.services.xp_events.event(game_id, me, kind=kind, note=note,
                                                    character=character, luck=luck)
        await say(interaction, shown.text)

    @app_commands.command(name="rank", description="GM: a character's rank loses (or recovers) "
                          "points (X16)")
    @app_commands.describe(character="Whose rank", rank="Which rank (X16)",
                           change="Points: -2 loses two, 1 recovers one")
    @app_commands.choices(rank=RANKS)
    async def rank(self, interaction: discord.Interaction,
                   character: app_commands.Range[str, 1, 100], rank: str,
                   change: app_commands.Range[int, -20, 20]) -> None:
        game_id, me = await self._game(interaction)
        shown = await self.services.xp_events.rank(game_id, me, name=character, rank=rank,
                                                   change=change)
        await say(interaction, shown.text)

    @app_commands.command(name="rolls", description="GM: every roll of this game, with its id")
    async def rolls(self, interaction: discord.Interaction) -> None:
        game_id, me = await self._game(interaction)
        listed = await self.services.xp_rolls.rolls(game_id, me)
        body = "\n".join(f"{r.short_id}  {r.kind:<11} {r.name}: {r.outcome}" for r in listed)
        await say(interaction, block(body) if body else "No rolls yet.", private=True)

    @app_commands.command(name="show", description="GM: one roll's whole record (every die, "
                          "the seed, what is secret)")
    @app_commands.describe(roll="The roll's id (or its start)")
    async def show(self, interaction: discord.Interaction,
                   roll: app_commands.Range[str, 1, 40]) -> None:
        game_id, me = await self._game(interaction)
        shown = await self.services.xp_rolls.show(game_id, me, roll)
        await say(interaction, shown.gm, private=True)

    @app_commands.command(name="case", description="GM: a roll as an adjudication case file "
                          "(YAML), its dice filled in")
    @app_commands.describe(roll="The roll's id (or its start)")
    async def case(self, interaction: discord.Interaction,
                   roll: app_commands.Range[str, 1, 40]) -> None:
        game_id, me = await self._game(interaction)
        case = await self.services.xp_rolls.case(game_id, me, roll)
        text = yaml.safe_dump({"cases": [case]}, sort_keys=False, allow_unicode=True)
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"{case['id']}.yaml")
        await say(interaction, f"The case of roll {case['id']}:", private=True, files=[file])

    @show.autocomplete("roll")
    @case.autocomplete("roll")
    async def roll_ids(self, interaction: discord.Interaction, current: str
                       ) -> list[app_commands.Choice[str]]:
        return ranked([(f"{r.short_id} {r.kind} {r.name}: {r.outcome}", r.id)
                       for r in reversed(await self._records(interaction))], current)

    async def _records(self, interaction: discord.Interaction) -> list[XpShown]:
        """The game's rolls for autocomplete: none for a player or a room without a game."""
        channel = interaction.channel
        game_id = await self.bot.rooms.game_id(str(channel.id)) if channel else None
        if game_id is None:
            return []
        try:
            return await self.services.xp_rolls.rolls(game_id, user_key(interaction.user))
        except ServiceError:
            return []

    # ---- /xp plot ----------------------------------------------------------------------------

    @plot.command(name="open", description="GM: open a PLOT: the leader and the GM roll, the "
                  "tasks wait in order")
    @app_commands.describe(goal="What the PLOT is for", leader="The leader and pool, e.g. Aster 6d",
                           gm_dice="The GM's opposition pool",
                           tasks="The public tasks in order, separated by commas",
                           surprises="Your hidden tasks, separated by commas",
                           difficulty="The plot's difficulty dice (X6)",
                           merit="Dice for the plan's merit (suggested -1..+1)")
    async def plot_open(self, interaction: discord.Interaction,
                        goal: app_commands.Range[str, 1, 200],
                        leader: app_commands.Range[str, 1, 100],
                        gm_dice: app_commands.Range[int, 0, 100],
                        tasks: app_commands.Range[str, 1, 1000],
                        surprises: app_commands.Range[str, 0, 1000] = "",
                        difficulty: app_commands.Range[int, -10, 10] = 0,
                        merit: app_commands.Range[int, -10, 10] = 0) -> None:
        game_id, me = await self._game(interaction)
        shown = await self.services.xp_plots.open(
            game_id, me, goal=goal, leader=leader, gm_pool=gm_dice, tasks=tasks,
            surprises=surprises, difficulty=difficulty, merit=merit)
        await say(interaction, f"{shown.public}\n-# plot {shown.short_id}")
        await _gm_view(interaction, shown)

    @plot.command(name="auto", description="GM: the players spend a plot point to pass the next "
                  "task unplayed")
    @app_commands.describe(task="The next task", countered="You spend a GM point: the point is "
                           "lost and the task must be played")
    async def plot_auto(self, interaction: discord.Interaction,
                        task: app_commands.Range[str, 1, 100], countered: bool = False) -> None:
        await self._event(interaction, "auto", task, countered=countered)

    @plot.command(name="play", description="GM: the next task was played out")
    @app_commands.describe(task="The next task", success="Whether it succeeded",
                           bonus="Plot points you grant for doing it exceptionally well")
    async def plot_play(self, interaction: discord.Interaction,
                        task: app_commands.Range[str, 1, 100], success: bool,
                        bonus: app_commands.Range[int, 0, 10] = 0) -> None:
        await self._event(interaction, "play", task, success=success, bonus=bonus)

    @plot.command(name="surprise", description="GM: right after a plot point is spent, spend a "
                  "GM point on a hidden task")
    @app_commands.describe(task="Your hidden task", before="Put it before this pending task "
                           "(default: right after the task the point was spent on)")
    async def plot_surprise(self, interaction: discord.Interaction,
                            task: app_commands.Range[str, 1, 100],
                            before: app_commands.Range[str, 1, 100] | None = None) -> None:
        await self._event(interaction, "surprise", task, before=before)

    @plot.command(name="show", description="GM: the PLOT as it stands, with your hidden tasks")
    async def plot_show(self, interaction: discord.Interaction) -> None:
        game_id, me = await self._game(interaction)
        shown = await self.services.xp_plots.show(game_id, me)
        await say(interaction, shown.gm, private=True)

    @plot_auto.autocomplete("task")
    @plot_play.autocomplete("task")
    @plot_surprise.autocomplete("before")
    async def pending_tasks(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        return await self._tasks(interaction, current, hidden=False)

    @plot_surprise.autocomplete("task")
    async def hidden_tasks(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return await self._tasks(interaction, current, hidden=True)

    async def _tasks(self, interaction: discord.Interaction, current: str, *, hidden: bool
                     ) -> list[app_commands.Choice[str]]:
        """The PLOT's tasks to play (or the GM's unused surprises), in order: none for a player
        or a room without a PLOT."""
        channel = interaction.channel
        game_id = await self.bot.rooms.game_id(str(channel.id)) if channel else None
        if game_id is None:
            return []
        try:
            names = await self.services.xp_plots.tasks(game_id, user_key(interaction.user),
                                                       hidden=hidden)
        except ServiceError:
            return []
        wanted = current.casefold()
        return [app_commands.Choice(name=clip(n, CHOICE_TEXT), value=n[:CHOICE_TEXT]) for n in names
                if wanted in n.casefold()][:25]

    async def _event(self, interaction: discord.Interaction, event: str, task: str, *,
                     success: bool | None = None, bonus: int = 0, countered: bool = False,
                     before: str | None = None) -> None:
        game_id, me = await self._game(interaction)
        shown = await self.services.xp_plots.event(
            game_id, me, event=event, task=task, success=success, bonus=bonus,
            countered=countered, before=before)
        await say(interaction, f"{shown.public}\n-# plot {shown.short_id}")
