"""`/turn` (open, status, pass, call time, extend, pause, resume), `/gm` (resolve, end of combat, undo) and
`/reveal` (a resolved turn's sealed NPC orders, checked against their commitment)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from fappo_bot.discord.board import board_text
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
from fappo_bot.discord.timestamps import stamp
from fappo_bot.posting.safety import safe
from fappo_bot.service import timetext
from fappo_bot.service.views import RevealView, TurnSummary
from fappo_bot.words import plural


def parse_time(text: str, now: datetime, zone: str | None = None) -> datetime:
    """A local date and time in the game's zone (`service/timetext.py`: `Fri 20:00`,
    `2026-12-05 20:00`, `20:00`, `tomorrow 18:00`), as a UTC moment; its error in words."""
    try:
        return timetext.parse_time(text, now, zone)
    except ValueError as exc:
        raise AdapterError(safe(f"{exc}.")) from None


def parse_duration(text: str) -> timedelta:
    """A duration (`service/timetext.py`: `48h`, `2d 6h`, `90m`, `1w`; a bare number is
    minutes); its error in words."""
    try:
        return timetext.parse_duration(text)
    except ValueError as exc:
        raise AdapterError(safe(f"{exc}.")) from None


def _bytes(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size >= 2**20 else f"{size / 2**10:.0f} KB"


def when(summary: TurnSummary) -> str:
    if summary.paused:
        return "the clock is paused"
    if summary.deadline is None:
        return "no deadline"
    return f"time will be called {stamp(summary.deadline)}"


def undelivered(lines: list[str]) -> str:
    """The status's part on the messages Discord refused for good (said to the GMs by DM)."""
    if not lines:
        return ""
    listed = "\n".join(f"- {line}" for line in lines)
    return (f"\nNot delivered, Discord refuses them for good (a GM or the player reads them "
            f"with `/inbox`):\n{listed}")


def opened_answer(number: int) -> str:
    """The GM's private answer to `/turn open`: the room has the notice (said once, there),
    so this says only what the GM does next."""
    return (f"Done: the room is told that turn {number} is open. Next: `/gm npc` gives the NPC "
            "orders, `/turn calltime in:48h` sets a deadline, `/turn status` shows who "
            "is in.")


def called_answer(number: int) -> str:
    """The GM's private answer to calling time now: the room has the notice."""
    return (f"Done: the room is told that time is called on turn {number}; it takes no more "
            "posts. Next: `/gm resolve` reviews and resolves it.")


@app_commands.guild_only()
class TurnGroup(BotGroup, name="turn", description="The turn: open it, who is in, pass, "
                "call time"):

    @app_commands.command(name="open", description="GM: open the next turn")
    async def open(self, interaction: discord.Interaction) -> None:
        summary = await self.services.turns.open(await self.game_here(interaction),
                                                 user_key(interaction.user))
        self.changed()
        await say(interaction, opened_answer(summary.number), private=True)

    @app_commands.command(name="status", description="Who has posted, passed or is missing")
    @app_commands.describe(ping_missing="GM: ping the players whose characters are missing")
    async def status(self, interaction: discord.Interaction, ping_missing: bool = False
                     ) -> None:
        game_id = await self.game_here(interaction)
        # the whole status, which a ping reads, and the board made from it, in one read (the
        # board's tests hold it equal to the board's own read)
        read = await self.services.turns.status_board(game_id, user_key(interaction.user))
        status = read.status
        text = board_text(read.board) + undelivered(
            await self.services.outbox.given_up_lines(game_id))
        if not ping_missing:
            await say(interaction, text, private=True)
            return
        if not read.gm:
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
    @app_commands.rename(in_="in")
    @app_commands.describe(in_="A duration from now: 48h, 2d 6h, 90m (a bare number is minutes)",
                           at="Or a time in the game's time zone: Fri 20:00, 2026-12-05 20:00, "
                           "tomorrow 18:00 (leave both out to call time now)")
    async def calltime(self, interaction: discord.Interaction,
                       in_: app_commands.Range[str, 1, 40] | None = None,
                       at: app_commands.Range[str, 1, 40] | None = None) -> None:
        game_id = await self.game_here(interaction)
        actor = user_key(interaction.user)
        if in_ is None and at is None:
            from fappo_bot.discord.npc_seal import ask_before_sealing

            async def call_time(answering: discord.Interaction) -> None:
                away = await self.away_note(game_id)
                summary = await self.services.calltime.close(game_id, actor)
                self.changed()
                await say(answering, called_answer(summary.number) + away, private=True)

            # NPCs without orders and nothing sealed: the GM chooses first (npc_seal.py)
            if not await ask_before_sealing(self.bot, interaction, game_id, "calling time",
                                            call_time):
                await call_time(interaction)
            return
        zone = (await self.services.games.show(game_id)).timezone
        summary = await self.services.calltime.set_deadline(
            game_id, actor, after=parse_duration(in_) if in_ else None,
            at=parse_time(at, self.bot.clock.now(), zone) if at else None)
        self.changed()
        await say(interaction, f"Turn {summary.number}: {when(summary)}."
                  f"{await self.away_note(game_id)}")

    async def away_note(self, game_id: str) -> str:
        """Who is away (`/me away`), for the GM calling time: their characters follow the
        game's `absence` setting and miss no turn."""
        status = await self.services.turns.status(game_id)
        if not status.away:
            return ""
        return (f" Away: {', '.join(safe(n) for n in status.away)} (no missed turn; the game's "
                "`absence` setting says what they do).")

    @app_commands.command(name="extend", description="GM: push the deadline back")
    @app_commands.describe(by="How long: 12h, 1d, 90m (a bare number is minutes)")
    async def extend(self, interaction: discord.Interaction,
                     by: app_commands.Range[str, 1, 40]) -> None:
        summary = await self.services.calltime.extend(
            await self.game_here(interaction), user_key(interaction.user),
            parse_duration(by))
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
                "Incapacitated, and binding the wounds can restore the level (F18.2). The game "
                "is then out of combat until a GM sets `in_combat` on again with /game set.")
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
        await say(interaction, f"Done: the room is told the scene ends ({gap.replace('_', ' ')})."
                  f" SP restored for: {names}.", private=True)

    @app_commands.command(name="advance", description="GM: let time pass; wounds heal by it "
                          "(F14)")
    @app_commands.describe(by="How much time passes: 10m, 2h, 3d, 1w (a bare number is "
                           "minutes)",
                           patient="A Healing check (F14): the patient",
                           total="The healer's total: Healing + AP + modifiers",
                           healer="Who made the check (never the patient)",
                           sp="SP the healer spent on it: Sagacious=1, floating=1")
    async def advance(self, interaction: discord.Interaction,
                      by: app_commands.Range[str, 1, 40],
                      patient: str | None = None, total: int | None = None,
                      healer: str | None = None, sp: str | None = None) -> None:
        from fappo_bot.service import HealingInput

        elapsed = parse_duration(by)
        checks: dict[str, HealingInput] = {}
        if patient is not None or total is not None:
            if patient is None or total is None:
                raise AdapterError("A Healing check needs both the patient and the healer's "
                                   "total (Healing + AP + modifiers).")
            checks[patient] = HealingInput(total=total, healer=healer, sp=check_sp(sp or ""))
        healed = await self.services.aftermath.advance_time(
            await self.game_here(interaction), user_key(interaction.user),
            int(elapsed.total_seconds()), checks=checks)
        self.changed()
        healed_now = plural(len(healed), "character") if healed else "nobody"
        checked = "".join(f"\n{safe(h.name)}: {h.start_level} -> {h.level} (Healing check: "
                          f"{h.check})" for h in healed if h.check)
        await say(interaction, f"Done: {timetext.duration_text(elapsed)} pass; the room is told "
                  f"who healed ({healed_now}).{checked}", private=True)

    @app_commands.command(name="handover", description="GM: a legendary item changes hands "
                          "(taken, given, found; F22)")
    @app_commands.describe(item="The legendary item", to="The character who has it now",
                           owner="Its owner, when several items share the name")
    async def handover(self, interaction: discord.Interaction, item: str, to: str,
                       owner: str | None = None) -> None:
        from fappo_bot.discord.legendary import handed_text

        view = await self.services.legendary.hand_over(
            await self.game_here(interaction), user_key(interaction.user), item, to,
            owner=owner)
        await say(interaction, handed_text(view), private=True)

    @app_commands.command(name="items", description="GM: the game's legendary items, who "
                          "holds them and who bound them (F22)")
    async def items(self, interaction: discord.Interaction) -> None:
        from fappo_bot.discord.legendary import items_text

        views = await self.services.legendary.items(await self.game_here(interaction),
                                                    user_key(interaction.user))
        await say(interaction, items_text(views), private=True)

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
        await say(interaction, f"Done: the room is told the adventure ends; each of "
                  f"{plural(len(names), 'player character')} earns {award} CC.", private=True)

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
        await say(interaction, f"Done: the last resolution is undone and the room is told; turn "
                  f"{summary.number} is {summary.status.value} again.", private=True)


#: the highest turn number `/reveal` takes (Discord's client refuses a number outside 1..this)
MAX_TURN = 1_000_000


def reveal_answer(view: RevealView) -> tuple[str, bytes]:
    """What `/reveal` answers: the verdict first (whether the canonical JSON of the sealed NPC
    orders hashes to the commitment), the orders as a post's reply reads them, and the JSON
    itself, exactly as hashed, as the bytes of a .json file to attach (one file to check, never
    a blob of JSON to read in the message) with the one command line that checks it."""
    check = ("They match: these are the orders sealed before the players' orders were revealed."
             if view.verified else "They do NOT match the commitment published.")
    name = reveal_file(view.turn)
    listed = "\n".join(view.orders) if view.orders else "(no NPC orders, or of an older form)"
    head = (f"**Turn {view.turn}'s sealed NPC orders.** {check}\n{listed}\n"
            f"Commitment (SHA-256): `{view.commitment}`, salt: `{view.salt}`.\n")
    tail = (f"The canonical JSON, exactly as hashed, is attached ({name}): "
            f"sha256(salt + \"\\n\" + JSON) is the commitment; check it with "
            f"`(printf '%s\\n' '{view.salt}'; cat {name}) | sha256sum`.")
    # the orders are what may be long: they are cut to keep the check whole in one message
    room = CONTENT - len(head) - len(tail) + len(listed)
    if len(listed) > room:
        listed = listed[:max(0, room - 40)].rstrip() + "\n… (the whole orders are in the file)"
        head = (f"**Turn {view.turn}'s sealed NPC orders.** {check}\n{listed}\n"
                f"Commitment (SHA-256): `{view.commitment}`, salt: `{view.salt}`.\n")
    return head + tail, view.canonical.encode()


def reveal_file(turn: int) -> str:
    return f"turn-{turn}-npc-orders.json"


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
    files = [discord.File(BytesIO(data), filename=reveal_file(view.turn))]
    await say(interaction, text, private=True, files=files)
