"""A character's sheet as Discord embeds: health track, SP pools, AP, statuses, skills and gear
(an Xp character's sheet as the post language renders it).

Within Discord's embed limits (`limits.py`): a long list (a sheet with hundreds of skills) goes
on in further fields (`Skills (2)`...), cut between items, and the fields in further embeds
(25 fields and 6,000 characters each), which `say` sends in as many messages as they take."""

from __future__ import annotations

import discord

from fappo_bot.discord.limits import Field, embeds_of, list_fields, text_fields
from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import RulesConfig, ap_budget, current_index, level_name, track
from fappo_bot.service.views import CharacterView
from fappo_bot.sheets.xp import render_xp_sheet


def sheet_fields(view: CharacterView, config: RulesConfig) -> list[Field]:
    """The sheet's fields, each within Discord's limits, in the order they are shown."""
    state, sheet = view.state, view.sheet
    if state.is_fodder:
        health = f"{state.count} left"
    else:
        levels = track(state)
        here = current_index(state, config)
        health = " › ".join(f"**{name}**" if i == here else name
                            for i, name in enumerate(levels))
        health = f"{level_name(state, config)}\n{health}"
    pools = [f"{t.value} {state.traits.get(t, 0)}/{sheet.traits.get(t, 0)}"
             for t in sheet.traits]
    if sheet.floating:
        pools.append(f"floating {state.floating}/{sheet.floating}")
    gear = [safe(w.name) for w in sheet.weapons] or ["no weapons"]
    gear[-1] += f"; armor {sheet.armor.value}"
    return [
        *text_fields("Health", health),
        *list_fields("SP", pools, inline=True),
        Field("AP", str(ap_budget(state, config)), inline=True),
        *list_fields("Statuses", [s.kind.value for s in state.statuses], inline=True),
        *list_fields("Skills", [f"{safe(k)} {v}" for k, v in sheet.skills.items()]),
        *list_fields("Gear", gear),
    ]


def sheet_embeds(view: CharacterView, config: RulesConfig | None = None
                 ) -> list[discord.Embed]:
    """The embeds of one character's current state beside its sheet (one for any sheet a
    game needs; more for a sheet too long for one)."""
    if view.xp is not None:
        return xp_sheet_embeds(view)
    config = config or RulesConfig()
    state = view.state
    return embeds_of(safe(view.name),
                     f"{view.kind.value} · {state.tier.value} · {view.status.value}",
                     sheet_fields(view, config))


def xp_sheet_embeds(view: CharacterView) -> list[discord.Embed]:
    """The embeds of an Xp character: its sheet as the post language renders it (RULINGS Part
    B), its Luck and plot points; a long sheet goes on in further fields, cut between lines."""
    assert view.xp is not None
    lines = render_xp_sheet(view.xp).splitlines()
    return embeds_of(safe(view.name), f"{view.kind.value} · Xp · {view.status.value}",
                     text_fields("Sheet", safe_prose("\n".join(lines[1:]))))
