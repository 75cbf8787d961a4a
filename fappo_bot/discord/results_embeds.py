"""A turn's results as Discord embeds, the layout a game's room or a player's DMs may choose
(`service/layout.py`): one embed per section (the turn's actions, refused orders, "Where things
stand" with a field per character, what else happened), in the order of the blocks.

The words are the plain text's (`render.results`): only the layout differs, so both forms say
the same thing. An outbox row's blocks fit one 2,000-character message as text; as embeds they
are packed within Discord's limits by `limits.py` (25 fields, 4,096-character descriptions,
1,024-character field values, 10 embeds and 6,000 characters a message), into more than one
message when they must. Every text passes `inert`, so nothing a user wrote can ping, though
Discord pings no one from an embed anyway.

Each message has a content line too (`content_line`: `Turn 3 results in "Goblin Road"`): a
phone's notification shows a message's content, not its embeds.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from fappo_bot.discord.limits import (
    CONTENT,
    FIELD_NAME,
    Field,
    embed_messages,
    embeds_of,
    text_fields,
)
from fappo_bot.posting.safety import clip, inert, safe
from fappo_bot.render import results as words
from fappo_bot.service import notices
from fappo_bot.service import results_report as report
from fappo_bot.service.layout import ResultsLayout, layout_for
from fappo_bot.service.records import PlayerPace
from fappo_bot.service.views import GameView

#: the outbox kinds whose payload is a turn's results
RESULT_KINDS = frozenset({"results", "results_private"})
#: each section's heading (the actions' and an Xp turn's lines are under the results' title)
HEADINGS = {"refusal": "Refused orders", "standing": "Where things stand", "event": "Also"}
#: a colour per section, so a reader finds one at a glance (the heading still says it)
COLOURS = {"action": discord.Colour.blurple(), "xp": discord.Colour.blurple(),
           "refusal": discord.Colour.orange(), "standing": discord.Colour.green(),
           "event": discord.Colour.light_grey()}
#: a standing this short sits beside others on a desktop (a phone lists every field alone)
INLINE = 40


def wants_embeds(game: GameView, pace: PlayerPace | None, dm: bool) -> bool:
    """Whether a results message goes out as embeds: the room's by the game's setting, a DM's
    by the player's own choice, else the game's."""
    chosen = pace.layout if dm and pace is not None else None
    return layout_for(game.results_layout, chosen) is ResultsLayout.EMBEDS


def title(notice: notices.Results) -> str:
    """`Turn 3 results`, `Turn 3 results (continued)`, `Turn 3 results (Xp)`."""
    more = " (continued)" if notice.continued else ""
    rules = f" ({notice.label})" if notice.dice_pools else ""
    return f"Turn {notice.turn} results{rules}{more}"


def sections(blocks: Sequence[report.Block]) -> list[tuple[str, list[report.Block]]]:
    """The blocks grouped by section: each run of blocks of one type."""
    out: list[tuple[str, list[report.Block]]] = []
    for block in blocks:
        if not out or out[-1][0] != block.type:
            out.append((block.type, []))
        out[-1][1].append(block)
    return out


def standing_field(block: report.Standing) -> list[Field]:
    """A character's standing as a field: its name, then its health, hits and statuses (the
    text's line without its name), cut into more fields only when over 1,024 characters."""
    name = inert(safe(block.name)) or "-"
    [line] = words.standing_lines(block)
    value = line.removeprefix(f"- {safe(block.name)}: ")
    if block.withheld:
        value = value[:1].upper() + value[1:]
    fields = text_fields(clip(name, FIELD_NAME), inert(value))
    return [Field(f.name, f.value, inline=len(value) <= INLINE) for f in fields]


def _section(kind: str, blocks: list[report.Block], heading: str) -> list[discord.Embed]:
    colour = COLOURS.get(kind)
    if kind == "standing":
        fields = [f for b in blocks if isinstance(b, report.Standing)
                  for f in standing_field(b)]
        return embeds_of(heading, "", fields, colour=colour)
    text = "\n".join(line for b in blocks for line in words.block_lines(b))
    return embeds_of(heading, inert(text), (), colour=colour)


def results_embeds(notice: notices.Results) -> list[discord.Embed]:
    """The embeds of one part of a turn's results, a section each; a part that starts after
    the actions names the results in its first embed's title."""
    head = title(notice)
    out: list[discord.Embed] = []
    for index, (kind, blocks) in enumerate(sections(notice.blocks)):
        heading = HEADINGS.get(kind)
        if heading is None:
            heading = head
        elif index == 0:
            heading = f"{head}: {heading}"
        out.extend(_section(kind, blocks, heading))
    if not out:
        nothing = "Nothing to roll this turn." if notice.dice_pools else "Nothing happened."
        out = embeds_of(head, nothing, ())
    return out


def results_messages(notice: notices.Results) -> list[list[discord.Embed]]:
    """The embeds of one part of a turn's results, grouped into Discord's messages."""
    return embed_messages(results_embeds(notice))


def content_line(notice: notices.Results, game: str, heading: str = "", index: int = 0) -> str:
    """The content of the `index`th message of a part: what a notification shows of it.
    `Turn 3 results in "Goblin Road"`, under a DM's `heading` (which names the game itself,
    `rendering.from_game`) `From "Goblin Road" (link): Turn 3 results`; a later message of
    the part says it continues. Inert, and within Discord's 2,000 characters."""
    line = title(notice)
    if index and not notice.continued:
        line += " (continued)"
    line = f"{heading} {line}" if heading else f'{line} in "{safe(game)}"'
    return clip(inert(line), CONTENT)


def results_posts(notice: notices.Results, game: str, heading: str = ""
                  ) -> list[tuple[str, list[discord.Embed]]]:
    """Each Discord message of one part of a turn's results: its content line and embeds."""
    return [(content_line(notice, game, heading if i == 0 else "", i), group)
            for i, group in enumerate(results_messages(notice))]
