"""`/turn` (open, status, pass, call time, extend, pause, resume), `/gm` (resolve, end of combat, undo) and
`/reveal` (a resolved turn's sealed NPC orders, checked against their commitment)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from fappo_bot.discord.commands.base import BotGroup, game_of_room, say, user_key
from fappo_bot.discord.commands.characters import (
    character_choices,
    matching,
    ranked,
    room_characters,
    room_role,
    skill_choices,
)
from fappo_bot.discord.errors import AdapterError
from fappo_bot.discord.limits import CONTENT
from fappo_bot.posting.safety import safe
from fappo_bot.service.views import RevealView, TurnStatusView, TurnSummary


def parse_time(text: str, now: datetime) -> datetime:
    """`HH:MM` (today, or tomorrow when that has passed) or `YYYY-MM-DD HH:MM`, in UTC."""
    words = text.strip()
    try:
        if len(words) <= 5:
            clock = datetime.strptime(words, "%H:%M").time()
            moment = datetime.combine(now.astimezone(UTC).date(), clock, tzinfo=UTC)
            return moment if moment > now else moment + timedelta(days=1)
        return datetime.strptime(words, "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise AdapterError(f'"{safe(words)}" is no time: write HH:MM or YYYY-MM-DD HH:MM '
                           "(UTC).") from None


def _bytes(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{size / 2**10:.0f} KB"


def when(summary: TurnSummary) -> str:
    if summary.paused:
        return "the clock is paused"
    if summary.deadline is None:
        return "no deadline"
    return f"time will be called <t:{int(summary.deadline.timestamp())}:R>"


def describe_status(status: TurnStatusView) -> str:
    lines = [f"Turn {status.turn.number} is {status.turn.status.value}; {when(status.turn)}."]
    for label, names in (("Posted", status.posted), ("Passed", status.passed),
                         ("Missing", status.missing)):
        lines.append(f"{label}: {', '.join(safe(n) for n in names) or 'nobody'}.")
    if status.npc_sealed:
        lines.append("The NPC orders are sealed.")
    return "\n".join(lines)


def undelivered(lines: list[str]) -> str:
    """The status's part on the messages Discord refused for good (said to the GMs by DM)."""
    if not lines:
        return ""
    listed = "\n".join(f"- {line}" for line in lines)
    return (f"\nNot delivered, Discord refuses them for good (a GM or the player reads them "
            f"with `/inbox`):\n{listed}")


@app_commands.guild_only()
class TurnGroup(BotGroup, name="turn", description="The turn: open it, who is in, pass, "
                "call time"):

    @app_commands.command(name="open", description="GM: open the next turn")
    async def open(self, interaction: discord.Interaction) -> None:
        summary = await self.services.turns.open(await self.game_here(interaction),
                                                 user_key(interaction.user))
        self.changed()
        await say(interaction, f"Turn {summary.number} is open.", private=True)

    @app_commands.command(name="status", description="Who has posted, passed or is missing")
    @app_commands.describe(ping_missing="GM: ping the players whose characters are missing")
    async def status(self, interaction: discord.Interaction, ping_missing: bool = False
                     ) -> None:
        game_id = await self.game_here(interaction)
        status = await self.services.turns.status(game_id)
        text = describe_status(status) + undelivered(
            await self.services.outbox.given_up_lines(game_id))
        if not ping_missing:
            await say(interaction, text, private=True)
            return
        game = await self.services.games.show(game_id)
        if user_key(interaction.user) not in game.gms:
            await say(interaction, text + "\nOnly a GM can ping the missing players.",
                      private=True)
            return
        missing = {c.name for c in status.characters if c.state == "missing"}
        users = sorted({c.runner for c in status.characters
                        if c.name in missing and c.runner and c.runner.isdigit()})
        pings = " ".join(f"<@{u}>" for u in users)
        # in as many messages as it takes; each pings only the missing players it names
        await say(interaction, f"{text}\n{pings}" if pings else text, pings=users)

    @app_commands.command(name="pass", description="No action this turn (for one of your "
                          "characters, or all)")
    @app_commands.describe(character="The character who passes (default: all of yours)")
    async def pass_(self, interaction: discord.Interaction, character: str | None = None
                    ) -> None:
        reply = await self.services.turns.pass_turn(
            await self.game_here(interaction), user_key(interaction.user), character)
        self.changed()
        await say(interaction, reply.reply or "Passed.")

    @pass_.autocomplete("character")
    async def pass_names(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        """The characters the caller gives the orders of: their own, and for a GM the ones
        the GMs run."""
        _, gm = await room_role(self, interaction)
        me = user_key(interaction.user)
        return matching([c.name for c in await room_characters(self, interaction)
                         if c.runner == me or (gm and c.runner is None)], current)

    @app_commands.command(name="line", description="Write one mechanics line for your post: "
                          "AP, a skill of your sheet, a target")
    @app_commands.describe(ap="AP spent", skill="A skill on your character's sheet",
                           target="Whom or what it is used on", what="What you try")
    async def line(self, interaction: discord.Interaction, ap: app_commands.Range[int, 1, 20],
                   skill: app_commands.Range[str, 1, 100],
                   target: app_commands.Range[str, 1, 100] | None = None,
                   what: app_commands.Range[str, 1, 200] | None = None) -> None:
        words = f"{ap} AP {skill}" + (f" on {target}" if target else "") + (
            f": {what}" if what else "")
        await say(interaction, "Copy this line into your post:\n`"
                  + safe(words).replace("`", "'") + "`", private=True)

    @line.autocomplete("skill")
    async def line_skills(self, interaction: discord.Interaction, current: str
                          ) -> list[app_commands.Choice[str]]:
        return await skill_choices(self, interaction, current)

    @line.autocomplete("target")
    async def line_targets(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return await character_choices(self, interaction, current)

    @app_commands.command(name="orders", description="Send secret orders (for players whose "
                          "DMs are closed)")
    async def orders(self, interaction: discord.Interaction) -> None:
        from fappo_bot.discord.modals import OrdersModal

        game_id = await self.game_here(interaction)
        await interaction.response.send_modal(OrdersModal(self.bot, game_id,
                                                          interaction.user.id))

    @app_commands.command(name="calltime", description="GM: call time now, or set a deadline")
    @app_commands.describe(minutes="Minutes from now", at="Or a time, UTC: HH:MM or "
                           "YYYY-MM-DD HH:MM (leave both out to call time now)")
    async def calltime(self, interaction: discord.Interaction,
                       minutes: app_commands.Range[int, 1, 60 * 24 * 30] | None = None,
                       at: str | None = None) -> None:
        game_id = await self.game_here(interaction)
        actor = user_key(interaction.user)
        if minutes is None and at is None:
            from fappo_bot.discord.npc_seal import ask_before_sealing

            async def call_time(answering: discord.Interaction) -> None:
                summary = await self.services.calltime.close(game_id, actor)
                self.changed()
                await say(answering, f"Time is called on turn {summary.number}.")

            # NPCs without orders and nothing sealed: the GM chooses first (npc_seal.py)
            if not await ask_before_sealing(self.bot, interaction, game_id, "calling time",
                                            call_time):
                await call_time(interaction)
            return
        summary = await self.services.calltime.set_deadline(
            game_id, actor, after=timedelta(minutes=minutes) if minutes else None,
            at=parse_time(at, self.bot.clock.now()) if at else None)
        self.changed()
        await say(interaction, f"Turn {summary.number}: {when(summary)}.")

    @app_commands.command(name="extend", description="GM: push the deadline back")
    @app_commands.describe(minutes="Minutes to add")
    async def extend(self, interaction: discord.Interaction,
                     minutes: app_commands.Range[int, 1, 60 * 24 * 30]) -> None:
        summary = await self.services.calltime.extend(
            await self.game_here(interaction), user_key(interaction.user),
            timedelta(minutes=minutes))
        await say(interaction, f"Turn {summary.number}: {when(summary)}.")

    @app_commands.command(name="pause", description="GM: stop the clock")
    async def pause(self, interaction: discord.Interaction) -> None:
        summary = await self.services.calltime.pause(await self.game_here(interaction),
                                                     user_key(interaction.user))
        await say(interaction, f"Turn {summary.number}: {when(summary)}.")

    @app_commands.command(name="resume", description="GM: start the clock again")
    async def resume(self, interaction: discord.Interaction) -> None:
        summary = await self.services.calltime.resume(await self.game_here(interaction),
                                                      user_key(interaction.user))
        await say(interaction, f"Turn {summary.number}: {when(summary)}.")


def check_sp(text: str) -> dict[str, int]:
    """The SP of a Healing check as typed: `Sagacious=1, floating=1` (F14, F4)."""
    sp: dict[str, int] = {}
    for part in (p for p in text.split(",") if p.strip()):
        pool, eq, number = part.partition("=")
        if not eq or not pool.strip() or not number.strip().isdigit():
            raise AdapterError(f'"{safe(part.strip())}" is no SP of a Healing check: write '
                               "TRAIT=N, e.g. Sagacious=1, floating=1.")
        sp[pool.strip()] = sp.get(pool.strip(), 0) + int(number)
    return sp


def end_combat_text(ended: bool) -> str:
    """The GM's end of combat, as said back to them (F18.2)."""
    if ended:
        return ("The combat ends with this turn's resolution: whoever bleeds drops to "
                "Incapacitated, and binding the wounds can restore the level (F18.2).")
    return "The combat goes on after this turn's resolution."


@app_commands.guild_only()
class GmGroup(BotGroup, name="gm", description="The GM's review, resolution, undo "
              "and export"):

    @app_commands.command(name="resolve", description="GM: review the turn's questions, then "
                          "resolve it")
    async def resolve(self, interaction: discord.Interaction) -> None:
        from fappo_bot.discord.npc_seal import ask_before_sealing
        from fappo_bot.discord.review import open_review

        game_id = await self.game_here(interaction)
        # deferred at once: the review of a big turn is slow; the question or the panel follows
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def review(answering: discord.Interaction) -> None:
            await open_review(self.bot, answering, game_id)

        if not await ask_before_sealing(self.bot, interaction, game_id, "resolving", review):
            await review(interaction)

    @app_commands.command(name="npc", description="GM: the NPC orders (sealed at once; the "
                          "commitment is published)")
    async def npc(self, interaction: discord.Interaction) -> None:
        from fappo_bot.discord.modals import OrdersModal

        game_id = await self.game_here(interaction)
        await interaction.response.send_modal(OrdersModal(self.bot, game_id,
                                                          interaction.user.id, npc=True))

    @app_commands.command(name="endcombat", description="GM: the open turn's resolution "
                          "ends the combat (Bleeding drops, F18.2)")
    @app_commands.describe(ended="True: the combat ends with this turn; False: it goes on")
    async def endcombat(self, interaction: discord.Interaction, ended: bool = True) -> None:
        inputs = await self.services.review.set_inputs(
            await self.game_here(interaction), user_key(interaction.user), end_combat=ended)
        await say(interaction, end_combat_text(inputs.end_combat))

    @app_commands.command(name="rest", description="GM: end the scene; SP come back by the "
                          "break (F27)")
    @app_commands.describe(gap="The break before the next scene")
    @app_commands.choices(gap=[app_commands.Choice(name=b.replace("_", " "), value=b)
                               for b in ("immediate", "same_day", "night", "week_plus",
                                         "adventure_end")])
    async def rest(self, interaction: discord.Interaction, gap: str) -> None:
        from fappo_bot.service import SceneGap

        changed = await self.services.aftermath.end_scene(
            await self.game_here(interaction), user_key(interaction.user), SceneGap(gap))
        self.changed()
        names = ", ".join(safe(c.name) for c in changed) or "nobody"
        await say(interaction, f"The scene ends ({gap.replace('_', ' ')}); SP restored: {names}.")

    @app_commands.command(name="advance", description="GM: let time pass; wounds heal by it "
                          "(F14)")
    @app_commands.describe(minutes="Minutes that pass",
                           patient="A Healing check (F14): the patient",
                           total="The healer's total: Healing + AP + modifiers",
                           healer="Who made the check (never the patient)",
                           sp="SP the healer spent on it: Sagacious=1, floating=1")
    async def advance(self, interaction: discord.Interaction,
                      minutes: app_commands.Range[int, 1, 60 * 24 * 365],
                      patient: str | None = None, total: int | None = None,
                      healer: str | None = None, sp: str | None = None) -> None:
        from fappo_bot.service.views import HealingInput

        checks: dict[str, HealingInput] = {}
        if patient is not None or total is not None:
            if patient is None or total is None:
                raise AdapterError("A Healing check needs both the patient and the healer's "
                                   "total (Healing + AP + modifiers).")
            checks[patient] = HealingInput(total=total, healer=healer, sp=check_sp(sp or ""))
        healed = await self.services.aftermath.advance_time(
            await self.game_here(interaction), user_key(interaction.user), minutes * 60,
            checks=checks)
        self.changed()
        lines = [f"{safe(h.name)}: {h.start_level} -> {h.level}"
                 + (f" (Healing check: {h.check})" if h.check else "") for h in healed]
        await say(interaction, f"{minutes} min pass." + ("\n" + "\n".join(lines) if lines
                                                         else " Nobody is wounded."))

    @app_commands.command(name="endadventure", description="GM: end the adventure (SP all "
                          "back; CC awards by the rules)")
    @app_commands.describe(award="CC awarded to every player character")
    async def endadventure(self, interaction: discord.Interaction,
                           award: app_commands.Range[int, 0, 10] = 0) -> None:
        game_id = await self.game_here(interaction)
        names = [c.name for c in await self.services.characters.list(game_id)
                 if c.kind.value == "pc"]
        await self.services.aftermath.end_adventure(
            game_id, user_key(interaction.user), {n: award for n in names})
        self.changed()
        await say(interaction, f"The adventure ends; each player character earns {award} CC.")

    @app_commands.command(name="export", description="GM: the campaign as Markdown and JSON "
                          "files (the open turn's secrets left out)")
    @app_commands.describe(game="A game of this server (default: this room's)")
    async def export(self, interaction: discord.Interaction, game: str | None = None) -> None:
        from io import BytesIO

        from fappo_bot.service.campaign import campaign_markdown
        from fappo_bot.service.transfer import dumps

        # a campaign's export can take longer than the 3 s Discord waits for an answer: the
        # answer is deferred (private, "thinking"), the files follow through the webhook
        await interaction.response.defer(ephemeral=True, thinking=True)
        document = await self.services.transfer.export(
            game or await self.game_here(interaction), user_key(interaction.user))
        users = {m.user_id for m in document.members} | {
            p.post.author for p in document.posts} | {
            c.owner for c in document.characters if c.owner}
        names = await self.services.users.display_names(users)
        stem = "".join(ch if ch.isalnum() else "-" for ch in document.game.name)[:40] or "game"
        data = {f"{stem}.md": campaign_markdown(document, names).encode(),
                f"{stem}.json": dumps(document).encode()}
        size, limit = sum(map(len, data.values())), interaction.filesize_limit
        if size > limit:  # Discord would refuse the upload (413)
            raise AdapterError(
                f"The campaign {safe(document.game.name)} takes {_bytes(size)} as files, more "
                f"than the {_bytes(limit)} Discord lets the bot attach here; the "
                "bot's host can export it with `fappo-bot export`.")
        files = [discord.File(BytesIO(content), filename=name) for name, content in data.items()]
        await say(interaction, f"The campaign {safe(document.game.name)}, as Markdown and JSON"
                  + (" (the open turn's secrets left out)." if document.withheld else "."),
                  private=True, files=files)

    @export.autocomplete("game")
    async def export_games(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        """This server's games the caller is a GM of, by name; the choice's value is the
        game's id (a player is offered none: only a GM may export)."""
        guild, me = str(interaction.guild_id), user_key(interaction.user)
        return ranked([(g.name, g.id) for g in await self.services.games.games_of(me)
                       if g.guild_key == guild and me in g.gms], current)

    @app_commands.command(name="undo", description="GM: undo the last resolution exactly")
    async def undo(self, interaction: discord.Interaction) -> None:
        summary = await self.services.resolution.undo(await self.game_here(interaction),
                                                      user_key(interaction.user))
        self.changed()
        await say(interaction, f"The last resolution is undone; turn {summary.number} is "
                               f"{summary.status.value}.")


#: the highest turn number `/reveal` takes (Discord's client refuses a number outside 1..this)
MAX_TURN = 1_000_000


def reveal_answer(view: RevealView) -> tuple[str, bytes | None]:
    """What `/reveal` answers: whether the canonical JSON of the sealed NPC orders hashes to the
    commitment, and the JSON itself, exactly as hashed: in a code block when it fits in the
    message, else as the bytes of a .json file to attach (one file to check, not parts of a
    text to join back by hand). The JSON holds no backtick and no live mention
    (`scene.canonical_orders` escapes them), so it stays in its block and pings nobody."""
    check = ("it matches: these are the orders sealed before the players' orders were revealed"
             if view.verified else "it does NOT match the commitment published")
    head = (f"Turn {view.turn}'s NPC orders. Commitment (SHA-256): `{view.commitment}`, salt: "
            f"`{view.salt}`.\nsha256(salt + \"\\n\" + canonical JSON): {check}.")
    block = f"```json\n{view.canonical}\n```"
    if len(head) + 1 + len(block) <= CONTENT:
        return f"{head}\n{block}", None
    name = f"turn-{view.turn}-npc-orders.json"
    return (f"{head}\nThe canonical JSON, exactly as hashed, is attached ({name}); check it "
            f"with `(printf '%s\\n' '{view.salt}'; cat {name}) | sha256sum`."
            ), view.canonical.encode()


@app_commands.command(name="reveal", description="A resolved turn's sealed NPC orders as "
                      "canonical JSON, checked against their commitment")
@app_commands.describe(turn="The number of a resolved turn")
@app_commands.guild_only()
async def reveal_command(interaction: discord.Interaction,
                         turn: app_commands.Range[int, 1, MAX_TURN]) -> None:
    """Anyone in the game's room checks the commitment the room was shown (F29): the
    orders are public once the turn is resolved. Deferred at once (privately, "thinking"), so
    the answer may take longer than Discord's 3 s."""
    from io import BytesIO

    bot: Any = interaction.client
    await interaction.response.defer(ephemeral=True, thinking=True)
    if not 1 <= turn <= MAX_TURN:  # Discord's client refuses it; a raw request may not
        raise AdapterError(f"{turn} is no turn number: turns are numbered from 1, e.g. "
                           "/reveal turn:1.")
    view = await bot.services.turns.reveal(await game_of_room(bot, interaction), turn)
    text, data = reveal_answer(view)
    files = ([discord.File(BytesIO(data), filename=f"turn-{view.turn}-npc-orders.json")]
             if data is not None else None)
    await say(interaction, text, private=True, files=files)
