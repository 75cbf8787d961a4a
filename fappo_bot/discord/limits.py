"""Discord's limits on what the bot sends, and the one way the adapter answers within them.

Text is split by the post language's `split_message` (line boundaries, markdown kept whole);
embeds are built from fields split at item boundaries (`list_fields`, `text_fields`) and packed
into embeds of at most 25 fields and messages of at most 10 embeds and 6,000 characters
(`embeds_of`, `embed_messages`); a label that cannot be split (a select option, a button, a
modal's title) is clipped with a visible "…" (`clip`). `answer` sends an interaction's answer
as as many messages as it takes, each allowing only the pings it means.

The limits (Discord API v10) are checked again, the way Discord checks them, by the tests' fake
Discord (`tests/bot/form_body.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord
from discord.utils import MISSING

from fappo_bot.posting.safety import DISCORD_LIMIT, clip, split_message

CONTENT = DISCORD_LIMIT
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
EMBEDS = 10
EMBED_TOTAL = 6000
OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
BUTTON_LABEL = 80
MODAL_TITLE = 45
INPUT_LABEL = 45
INPUT_PLACEHOLDER = 100
INPUT_VALUE = 4000
CHOICES = 25
CHOICE_TEXT = 100
#: action rows in a message (each of up to 5 buttons, or one select)
ROWS = 5

__all__ = ["BUTTON_LABEL", "CHOICES", "CHOICE_TEXT", "CONTENT", "EMBEDS", "EMBED_TOTAL",
           "FIELDS", "FIELD_VALUE", "Field", "INPUT_LABEL", "MODAL_TITLE", "OPTIONS",
           "OPTION_TEXT", "answer", "clip", "embed_messages", "embeds_of", "list_fields",
           "text_fields"]


@dataclass(frozen=True)
class Field:
    """An embed field, within Discord's limits once made by `list_fields` or `text_fields`."""

    name: str
    value: str
    inline: bool = False

    def __len__(self) -> int:
        return len(self.name) + len(self.value)


def _names(name: str, count: int) -> list[str]:
    """The names of `count` fields continuing one another: `Skills`, `Skills (2)`..."""
    return [clip(name if i == 1 else f"{name} ({i})", FIELD_NAME) for i in range(1, count + 1)]


def list_fields(name: str, items: Sequence[str], *, separator: str = ", ",
                inline: bool = False, empty: str = "none") -> list[Field]:
    """A list as fields of at most 1,024 characters, cut between items (an item longer than a
    field is cut as `split_message` cuts a line)."""
    if not items:
        return [Field(clip(name, FIELD_NAME), empty, inline)]
    values: list[str] = []
    current = ""
    for item in items:
        for piece in split_message(item, FIELD_VALUE):
            joined = f"{current}{separator}{piece}" if current else piece
            if len(joined) <= FIELD_VALUE:
                current = joined
                continue
            values.append(current)
            current = piece
    values.append(current)
    return [Field(n, v, inline) for n, v in zip(_names(name, len(values)), values, strict=True)]


def text_fields(name: str, text: str, *, inline: bool = False) -> list[Field]:
    """Text as fields of at most 1,024 characters, cut at line boundaries."""
    values = [v for v in split_message(text, FIELD_VALUE) if v.strip()] or ["-"]
    return [Field(n, v, inline) for n, v in zip(_names(name, len(values)), values, strict=True)]


def embeds_of(title: str, description: str, fields: Iterable[Field], *,
              colour: discord.Colour | None = None) -> list[discord.Embed]:
    """Embeds of at most 25 fields and 6,000 characters each, the fields in order; the later
    embeds carry the title marked as continued. A description over 4,096 characters is cut at
    line boundaries into the first embeds."""
    title = clip(title, EMBED_TITLE - len(" (continued)"))
    descriptions = [d for d in split_message(description, EMBED_DESCRIPTION) if d.strip()]
    embeds: list[discord.Embed] = []
    size = EMBED_TOTAL + 1  # no embed yet

    def start(text: str | None) -> None:
        nonlocal size
        heading = title if not embeds else f"{title} (continued)"
        embeds.append(discord.Embed(title=heading, description=text, colour=colour))
        size = len(heading) + len(text or "")

    for text in descriptions:
        start(text)
    for item in fields:
        if (not embeds or len(embeds[-1].fields) >= FIELDS
                or size + len(item) > EMBED_TOTAL):
            start(None)
        embeds[-1].add_field(name=item.name, value=item.value, inline=item.inline)
        size += len(item)
    if not embeds:
        start(None)
    return embeds


def embed_messages(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Embeds grouped into messages: at most 10 a message and 6,000 characters across them."""
    messages: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not messages or len(messages[-1]) >= EMBEDS or size + len(embed) > EMBED_TOTAL:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages


def pinged(content: str, users: Iterable[str]) -> discord.AllowedMentions | None:
    """The pings one message may make: the users of `users` its content mentions (`<@id>`), or
    None (the bot's default: no ping at all)."""
    meant = [int(u) for u in dict.fromkeys(users) if u.isdigit() and f"<@{u}>" in content]
    if not meant:
        return None
    return discord.AllowedMentions(users=[discord.Object(u) for u in meant[:100]])


async def answer(interaction: discord.Interaction, text: str, *, private: bool = False,
                 embeds: Sequence[discord.Embed] = (),
                 files: Sequence[discord.File] = (), pings: Iterable[str] = ()) -> None:
    """Answer an interaction (in the channel, or only to the caller) with `text` and `embeds`,
    in as many messages as Discord's limits take: the text cut by `split_message`, the embeds
    after it (the first group with the text's last part), `files` with the first message. Only
    the users of `pings` that a message mentions are pinged by it; nobody else, ever."""
    users = list(pings)
    contents: list[str] = [p for p in split_message(text) if p.strip()] if text else []
    groups = embed_messages(embeds)
    messages: list[tuple[str, list[discord.Embed]]] = [(c, []) for c in contents]
    if groups:
        if messages:
            messages[-1] = (messages[-1][0], groups.pop(0))
        messages.extend(("", group) for group in groups)
    if not messages:
        messages = [("Done.", [])]
    for index, (content, group) in enumerate(messages):
        # MISSING: the bot's default, no ping at all
        mentions = pinged(content, users)
        attached = list(files) if index == 0 else []
        if index == 0 and not interaction.response.is_done():
            await interaction.response.send_message(content or None, ephemeral=private,
                                                    embeds=group, files=attached,
                                                    allowed_mentions=mentions or MISSING)
        else:
            await interaction.followup.send(
                content or MISSING, ephemeral=private, embeds=group,
                files=attached, allowed_mentions=mentions or MISSING)
