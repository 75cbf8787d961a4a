"""A character's sheet as a Discord embed: health track, SP pools, AP, statuses, skills and gear
(within Discord's embed limits: 25 fields, 1,024 characters a field, 6,000 in all)."""

from __future__ import annotations

import discord

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import RulesConfig, ap_budget, current_index, level_name, track
from fappo_bot.service.views import CharacterView
from fappo_bot.sheets.xp import render_xp_sheet

FIELD_LIMIT = 1024
EMBED_LIMIT = 6000
MAX_FIELDS = 25


def _field(text: str) -> str:
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def sheet_embed(view: CharacterView, config: RulesConfig | None = None) -> discord.Embed:
    """The embed of one character's current state beside its sheet."""
    if view.xp is not None:
        return xp_sheet_embed(view)
    config = config or RulesConfig()
    state, sheet = view.state, view.sheet
    embed = discord.Embed(title=safe(view.name)[:256],
                          description=f"{view.kind.value} · {state.tier.value} · "
                                      f"{view.status.value}")
    if state.is_fodder:
        health = f"{state.count} left"
    else:
        levels = track(state)
        here = current_index(state, config)
        health = " › ".join(f"**{name}**" if i == here else name
                            for i, name in enumerate(levels))
        health = f"{level_name(state, config)}\n{health}"
    embed.add_field(name="Health", value=_field(health), inline=False)
    pools = [f"{t.value} {state.traits.get(t, 0)}/{sheet.traits.get(t, 0)}"
             for t in sheet.traits]
    if sheet.floating:
        pools.append(f"floating {state.floating}/{sheet.floating}")
    embed.add_field(name="SP", value=_field(", ".join(pools) or "none"), inline=True)
    embed.add_field(name="AP", value=str(ap_budget(state, config)), inline=True)
    statuses = ", ".join(s.kind.value for s in state.statuses) or "none"
    embed.add_field(name="Statuses", value=_field(statuses), inline=True)
    skills = ", ".join(f"{safe(k)} {v}" for k, v in sheet.skills.items()) or "none"
    embed.add_field(name="Skills", value=_field(skills), inline=False)
    gear = ", ".join(safe(w.name) for w in sheet.weapons) or "no weapons"
    embed.add_field(name="Gear", value=_field(f"{gear}; armor {sheet.armor.value}"),
                    inline=False)
    assert len(embed) <= EMBED_LIMIT and len(embed.fields) <= MAX_FIELDS
    return embed


def xp_sheet_embed(view: CharacterView) -> discord.Embed:
    """The embed of an Xp character: its sheet as the post language renders it (RULINGS Part B),
    its Luck and plot points."""
    assert view.xp is not None
    lines = render_xp_sheet(view.xp).splitlines()
    embed = discord.Embed(title=safe(view.name)[:256],
                          description=f"{view.kind.value} · Xp · {view.status.value}")
    embed.add_field(name="Sheet", value=_field(safe_prose("\n".join(lines[1:]))), inline=False)
    assert len(embed) <= EMBED_LIMIT
    return embed
