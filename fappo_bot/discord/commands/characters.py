"""`/char`: characters from an attached sheet file, and a character's sheet as an embed."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from fappo_bot.discord.access import Access, GuardedModal
from fappo_bot.discord.commands.base import BotGroup, say, user_key
from fappo_bot.discord.errors import AdapterError, answer_privately, sentence_for
from fappo_bot.discord.ids import custom_id
from fappo_bot.discord.limits import CHOICE_TEXT, CHOICES
from fappo_bot.discord.sheets import sheet_embeds
from fappo_bot.posting.safety import clip, safe
from fappo_bot.service.records import CharacterKind, Role
from fappo_bot.service.views import CharacterView, SheetReply
from fappo_bot.sheets import SheetError
from fappo_bot.sheets import read_sheet as read_sheet_text

#: a sheet file larger than this is no sheet
SHEET_MAX_BYTES = 64_000


async def read_sheet(attachment: discord.Attachment) -> dict[str, Any]:
    """The sheet in an attached YAML file (the case-file format of examples/adventure/*.yaml)."""
    if attachment.size > SHEET_MAX_BYTES:
        raise AdapterError(f"{safe(attachment.filename)} is too large for a sheet.")
    try:
        text = (await attachment.read()).decode("utf-8")
    except UnicodeDecodeError:
        raise AdapterError(f"{safe(attachment.filename)} is not a text file.") from None
    return sheet_from_text(text, safe(attachment.filename))


def sheet_from_text(text: str, source: str) -> dict[str, Any]:
    """A sheet written as YAML (a file's text or a modal's), read as the table reads one."""
    try:
        return read_sheet_text(text, source)
    except SheetError as exc:
        raise AdapterError(safe(str(exc))) from None


async def create_character(group: BotGroup, interaction: discord.Interaction,
                           data: dict[str, Any], owner: str | None) -> None:
    """A player character from sheet data, in the game's ruleset: created and shown, or every
    problem privately."""
    game_id = await group.game_here(interaction)
    actor = user_key(interaction.user)
    if owner is not None and owner != actor:
        await group.services.games.add_member(game_id, actor, owner, Role.PLAYER)
    check = await group.services.characters.create_from_data(game_id, actor, data, owner=owner,
                                                             kind=CharacterKind.PC)
    if not check.ok or check.character is None:
        await say(interaction, refused(check, str(data.get("name", "The character"))),
                  private=True)
        return
    made = check.character
    who = f" (played by <@{made.owner}>)" if made.owner and made.owner.isdigit() else ""
    await say(interaction, f"{safe(made.name)}{who} joins the game.", embeds=sheet_embeds(made))


class SheetModal(GuardedModal, title="A new character"):
    """A sheet typed (or pasted) in YAML, for players who have no file at hand; submitted only
    by the user it was opened for (`access.py`)."""

    sheet: discord.ui.TextInput[SheetModal] = discord.ui.TextInput(
        label="The sheet (YAML)", style=discord.TextStyle.paragraph, max_length=4000,
        placeholder="name: Kael\ntier: pc\ntraits: {Nimble: 5, Tireless: 3}\n...",
        custom_id="fappo:sheet:text")

    def __init__(self, group: BotGroup, game_id: str, user_id: int) -> None:
        super().__init__(Access(group.bot, user_id, what="form"),
                         custom_id=custom_id("sheet", game_id, user_id))
        self.group = group

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await create_character(self.group, interaction,
                               sheet_from_text(self.sheet.value, "the sheet"), None)

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction, error: Exception
    ) -> None:
        await answer_privately(interaction, sentence_for(error, "sheet"))


def refused(check: SheetReply, name: str) -> str:
    return f"{safe(name)}'s sheet was not accepted:\n" + "\n".join(
        f"- {safe(p)}" for p in check.problems)


def edited_text(reply: SheetReply) -> str:
    """A GM's edit: the character's new sheet and what changed (its state is kept)."""
    assert reply.character is not None
    name = safe(reply.character.name)
    if not reply.changes:
        return f"{name}'s sheet is unchanged."
    return "\n".join([f"{name}'s sheet is edited (its state is kept):",
                      *(f"- {safe(line)}" for line in reply.changes)])


@app_commands.guild_only()
class CharGroup(BotGroup, name="char", description="Characters: add one from a sheet file, "
                "show a sheet"):

    @app_commands.command(name="add", description="Add a player character from a sheet file "
                          "(YAML); a GM may add one for a player")
    @app_commands.describe(sheet="The sheet file (YAML)", player="GM: the player it is for")
    async def add(self, interaction: discord.Interaction, sheet: discord.Attachment,
                  player: discord.User | None = None) -> None:
        if player is not None:
            await self.bot.names.saw(player)
        await create_character(self, interaction, await read_sheet(sheet),
                               user_key(player) if player else None)

    @app_commands.command(name="new", description="Create your character by typing its sheet "
                          "(YAML) in a form")
    async def new(self, interaction: discord.Interaction) -> None:
        game_id = await self.game_here(interaction)
        await interaction.response.send_modal(SheetModal(self, game_id, interaction.user.id))

    @app_commands.command(name="enemy", description="GM: add an enemy, or a group of nuisances "
                          "or minions, from a sheet file (YAML)")
    @app_commands.describe(sheet="The sheet file (YAML)")
    async def enemy(self, interaction: discord.Interaction, sheet: discord.Attachment) -> None:
        game_id = await self.game_here(interaction)
        data = await read_sheet(sheet)
        check = await self.services.characters.create_from_data(
            game_id, user_key(interaction.user), data, kind=None)
        if not check.ok or check.character is None:
            await say(interaction, refused(check, str(data.get("name", "The character"))),
                      private=True)
            return
        made = check.character
        await say(interaction, f"{safe(made.name)} is added ({made.kind.value}).",
                  embeds=sheet_embeds(made), private=True)

    @app_commands.command(name="sheet", description="A character's sheet: health, SP, AP, "
                          "statuses")
    @app_commands.describe(name="The character")
    async def sheet(self, interaction: discord.Interaction, name: str) -> None:
        game_id = await self.game_here(interaction)
        # an enemy's sheet is the GMs' secret: the service refuses it to anyone else
        view = await self.services.characters.show(game_id, name, user_key(interaction.user))
        await say(interaction, "", embeds=sheet_embeds(view), private=True)

    @sheet.autocomplete("name")
    async def sheet_names(self, interaction: discord.Interaction, current: str
                          ) -> list[app_commands.Choice[str]]:
        """Every character for a GM; the player characters for anyone else (the others'
        sheets are the GMs' secret)."""
        game_id, gm = await room_role(self, interaction)
        return matching([c.name for c in await room_characters(self, interaction)
                         if gm or c.kind is CharacterKind.PC], current)

    @app_commands.command(name="edit", description="GM: replace a character's sheet with a "
                          "sheet file (YAML); its wounds, spent SP and banked CC stay")
    @app_commands.describe(character="The character", sheet="The new sheet file (YAML)")
    async def edit(self, interaction: discord.Interaction, character: str,
                   sheet: discord.Attachment) -> None:
        game_id = await self.game_here(interaction)
        data = await read_sheet(sheet)
        reply = await self.services.characters.edit_from_data(
            game_id, user_key(interaction.user), character, data)
        if not reply.ok or reply.character is None:
            await say(interaction, refused(reply, character), private=True)
            return
        await say(interaction, edited_text(reply), embeds=sheet_embeds(reply.character),
                  private=True)

    @edit.autocomplete("character")
    async def edit_names(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        """The game's characters, for its GMs only (no one else may edit a sheet)."""
        _, gm = await room_role(self, interaction)
        return await character_choices(self, interaction, current) if gm else []

    @app_commands.command(name="advance", description="Spend banked CC (F28): a player asks, "
                          "a GM approves; a GM's change is made at once")
    @app_commands.describe(character="The character",
                           change="What to buy: Swordfighting +1, Nimble +2 SP, trait Tireless, "
                                  "floating +1, AP +1, legendary ITEM: UPGRADES")
    async def advance(self, interaction: discord.Interaction, character: str,
                      change: app_commands.Range[str, 1, 200]) -> None:
        from fappo_bot.discord.advance import answer_advance

        game_id = await self.game_here(interaction)
        view = await self.services.advancement.ask(game_id, user_key(interaction.user),
                                                   character, change)
        await answer_advance(interaction, game_id, view)

    @advance.autocomplete("character")
    async def advance_names(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        """The player characters the caller plays; every one for a GM."""
        _, gm = await room_role(self, interaction)
        me = user_key(interaction.user)
        return matching([c.name for c in await room_characters(self, interaction)
                         if c.kind is CharacterKind.PC and (gm or c.owner == me)], current)

    @app_commands.command(name="bind", description="Bind someone else's legendary item your "
                          "character holds: one creation point (F22)")
    @app_commands.describe(character="Your character, who holds the item",
                           item="The legendary item",
                           sacrifice="What to give up: a skill, a Trait's SP, floating (default: "
                                     "a banked CC)")
    async def bind(self, interaction: discord.Interaction, character: str, item: str,
                   sacrifice: str | None = None) -> None:
        from fappo_bot.discord.legendary import bound_text

        view = await self.services.legendary.bind_item(
            await self.game_here(interaction), user_key(interaction.user), character, item,
            sacrifice=sacrifice)
        self.changed()  # the owner's DM
        await say(interaction, bound_text(view), private=True)

    @app_commands.command(name="manage", description="GM: retire a character, mark it "
                          "inactive, run it as an NPC, or give it back to its player (F30)")
    @app_commands.describe(name="The character", action="What happens to it")
    @app_commands.choices(action=[
        app_commands.Choice(name="retire", value="retire"),
        app_commands.Choice(name="mark inactive", value="inactive"),
        app_commands.Choice(name="run as NPC", value="npc"),
        app_commands.Choice(name="give back to its player", value="restore")])
    async def manage(self, interaction: discord.Interaction, name: str, action: str) -> None:
        game_id = await self.game_here(interaction)
        actor = user_key(interaction.user)
        use_case = {"retire": self.services.characters.retire,
                    "inactive": self.services.characters.mark_inactive,
                    "npc": self.services.characters.npcize,
                    "restore": self.services.characters.restore_control}[action]
        view = await use_case(game_id, actor, name)
        await say(interaction, f"{safe(view.name)}: {view.status.value}"
                  + (", run by the GMs." if view.runner is None else "."))

    @manage.autocomplete("name")
    async def manage_names(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        """The game's characters, for its GMs only (no one else may manage them)."""
        _, gm = await room_role(self, interaction)
        return await character_choices(self, interaction, current) if gm else []


def matching(names: list[str], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete's choices: the names starting with what was typed first, then those
    containing it (Discord shows 25 at most)."""
    return ranked([(n, n) for n in dict.fromkeys(names)], current)


def ranked(labelled: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """(label, value) pairs as choices, by label as `matching` orders names."""
    wanted = current.casefold()
    ordered = sorted(labelled, key=lambda p: (not p[0].casefold().startswith(wanted),
                                              p[0].casefold()))
    # a label is clipped with a visible mark; a value longer than Discord takes cannot be
    # offered whole, so it is not offered (a cut value would answer something else)
    return [app_commands.Choice(name=clip(label, CHOICE_TEXT), value=value)
            for label, value in ordered
            if wanted in label.casefold() and len(value) <= CHOICE_TEXT][:CHOICES]


async def room_characters(group: BotGroup, interaction: discord.Interaction
                          ) -> list[CharacterView]:
    """The characters of the room's game in play (none when the room has no game)."""
    channel = interaction.channel
    game_id = await group.bot.rooms.game_id(str(channel.id)) if channel else None
    return [] if game_id is None else await group.services.characters.list(game_id)


async def room_role(group: BotGroup, interaction: discord.Interaction) -> tuple[str | None, bool]:
    """The room's game (None: no game here) and whether the caller is a GM of it now: what
    autocomplete may offer them (never what only a GM may use, to anyone else)."""
    channel = interaction.channel
    game_id = await group.bot.rooms.game_id(str(channel.id)) if channel else None
    if game_id is None:
        return None, False
    return game_id, await group.services.games.gm_of(game_id, user_key(interaction.user))


async def character_choices(group: BotGroup, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
    """The room's characters whose name starts with (or contains) what was typed."""
    return matching([c.name for c in await room_characters(group, interaction)], current)


async def skill_choices(group: BotGroup, interaction: discord.Interaction, current: str
                        ) -> list[app_commands.Choice[str]]:
    """The skills on the sheets of the characters the caller runs in the room's game."""
    me = user_key(interaction.user)
    return matching([skill for c in await room_characters(group, interaction)
                     if c.runner == me and c.shown is not None
                     for skill, _ in c.shown.skills], current)
