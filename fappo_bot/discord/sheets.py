"""A character's sheet as Discord embeds: health track, SP pools, AP, statuses, skills and gear.

Within Discord's embed limits (`limits.py`): a long list (a sheet with hundreds of skills) goes
on in further fields (`Skills (2)`...), cut between items, and the fields in further embeds
(25 fields and 6,000 characters each), which `say` sends in as many messages as they take."""

from __future__ import annotations

import discord

from fappo_bot.discord.limits import Field, embeds_of, list_fields, text_fields
from fappo_bot.posting.safety import safe
from fappo_bot.rules import RulesConfig, ap_budget, current_index, level_name, track
from fappo_bot.service.views import CharacterView


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
    config = config or RulesConfig()
    state = view.state
    return embeds_of(safe(view.name),
                     f"{view.kind.value} · {state.tier.value} · {view.status.value}",
                     sheet_fields(view, config))
