"""A character's sheet as Discord embeds: health track, SP pools, AP, statuses, skills and gear
(an Xp character's sheet as the post language renders it).

Within Discord's embed limits (`limits.py`): a long list (a sheet with hundreds of skills) goes
on in further fields (`Skills (2)`...), cut between items, and the fields in further embeds
(25 fields and 6,000 characters each), which `say` sends in as many messages as they take."""

from __future__ import annotations

import discord

from fappo_bot.discord.limits import Field, embeds_of, list_fields, text_fields
from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.service.records import CharacterKind
from fappo_bot.service.views import CharacterView, SheetView
from fappo_bot.sheets.xp import render_xp_sheet


def sheet_fields(shown: SheetView) -> list[Field]:
    """The sheet's fields, each within Discord's limits, in the order they are shown (what the
    service computed of the character: nothing of the rules is computed here)."""
    if shown.fodder:
        health = f"{shown.count} left"
    else:
        health = " › ".join(f"**{name}**" if i == shown.here else name
                            for i, name in enumerate(shown.track))
        health = f"{shown.level}\n{health}"
    pools = [f"{p.name} {p.left or 0}/{p.approved}" for p in shown.pools
             if p.approved is not None]
    if shown.floating.approved:
        pools.append(f"floating {shown.floating.left}/{shown.floating.approved}")
    gear = [safe(w) for w in shown.weapons] or ["no weapons"]
    gear[-1] += f"; armor {shown.armor}"
    return [
        *text_fields("Health", health),
        *list_fields("SP", pools, inline=True),
        Field("AP", str(shown.ap), inline=True),
        *list_fields("Statuses", list(shown.statuses), inline=True),
        *list_fields("Skills", [f"{safe(k)} {v}" for k, v in shown.skills]),
        *list_fields("Gear", gear),
    ]


#: what a character is, in words (the sheet's first line)
_KINDS = {CharacterKind.PC: "Player character", CharacterKind.NPC: "NPC",
          CharacterKind.ENEMY: "Enemy", CharacterKind.GROUP: "Group"}


def described(view: CharacterView, tier: str | None) -> str:
    """The line under a sheet's name: what the character is, its tier when it says more
    than its kind (a PC's tier is "pc"), who runs it, and its status: "Player character ·
    active", "Enemy · lieutenant · active", "Player character · run by the GM · active"."""
    parts = [_KINDS.get(view.kind, view.kind.value)]
    if tier and tier.casefold() not in ("pc", view.kind.value):
        parts.append(tier)
    if view.kind is CharacterKind.PC and view.gm_controlled:
        parts.append("run by the GM")
    parts.append(view.status.value)
    return " · ".join(parts)


def sheet_embeds(view: CharacterView) -> list[discord.Embed]:
    """The embeds of one character's current state beside its sheet (one for any sheet a
    game needs; more for a sheet too long for one)."""
    if view.xp is not None or view.shown is None:
        return xp_sheet_embeds(view)
    return embeds_of(safe(view.name), described(view, view.shown.tier),
                     sheet_fields(view.shown))


def xp_sheet_embeds(view: CharacterView) -> list[discord.Embed]:
    """The embeds of an Xp character: its sheet as the post language renders it (RULINGS Part
    B), its Luck and plot points; a long sheet goes on in further fields, cut between lines."""
    assert view.xp is not None
    lines = render_xp_sheet(view.xp).splitlines()
    return embeds_of(safe(view.name), described(view, "Xp"),
                     text_fields("Sheet", safe_prose("\n".join(lines[1:]))))
