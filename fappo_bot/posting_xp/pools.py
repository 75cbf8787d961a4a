"""The dice pool of a declared roll, from the sheet (RULINGS X1, X2, X6, X8), through
`rules_xp.pools.compute_pool`: the post's reply shows it before the GM's rows, the resolution
adds the GM's difficulty and dice."""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.posting_xp.models import Route, XpAction
from fappo_bot.rules_xp.pools import Pool, PoolSpec, PoolTest, compute_pool
from fappo_bot.sheets.xp import XpSheet, XpSkill


@dataclass(frozen=True)
class GmRows:
    """What the GM adds in the review: the difficulty row (X6), other dice (time, tools, light,
    an accepted claim), the default's kind (X8) and whether a characteristic default may roll."""

    difficulty: int = 0
    dice: int = 0
    default: PoolTest = PoolTest.SIMILAR
    permitted: bool = True


def mod_dice(sheet: XpSheet, names: tuple[str, ...]) -> int:
    """The dice of the named Mods (the first skill that lists each)."""
    total = 0
    for name in names:
        total += next((s.mods[name] for s in sheet.skills if name in s.mods), 0)
    return total


def _skill_spec(skill: XpSkill, sheet: XpSheet, action: XpAction) -> PoolSpec:
    char = action.characteristic or skill.base
    level = sheet.level(char) if char is not None else 0
    return PoolSpec(test=PoolTest.SKILL, characteristic=char, level=level,
                    rank=skill.rank if skill.rating is None else None, rating=skill.rating,
                    mods=mod_dice(sheet, action.mods))


def pool_of(sheet: XpSheet, action: XpAction, rows: GmRows = GmRows()) -> Pool:
    """The pool of `action` for its actor's `sheet` with the GM's `rows`."""
    from dataclasses import replace

    if action.route is Route.RAW:
        char = action.characteristic
        spec = PoolSpec(test=PoolTest.RAW, characteristic=char,
                        level=sheet.level(char) if char else 0, mods=mod_dice(sheet, action.mods))
    elif action.route is Route.CHARACTERISTIC:
        char = action.characteristic
        spec = PoolSpec(test=PoolTest.CHARACTERISTIC, characteristic=char,
                        level=sheet.level(char) if char else 0, mods=mod_dice(sheet, action.mods),
                        permitted=rows.permitted)
    else:
        name = action.via if action.route is Route.DEFAULT else action.skill
        skill = sheet.skill(name or "")
        if skill is None:
            skill = XpSkill(name=name or "?")
        spec = _skill_spec(skill, sheet, action)
        if action.route is Route.DEFAULT:
            spec = replace(spec, test=rows.default)
    spec = replace(spec, difficulty=rows.difficulty, adjust=rows.dice)
    return compute_pool(spec)


def breakdown(pool: Pool) -> str:
    """`4 + Advanced 1 + BODY 1` style: the non-zero terms of the pool."""
    p = pool.parts
    terms = [f"{p.base}"]
    for label, value in (("rank", p.rank), ("characteristic", p.level), ("Mods", p.mods),
                         ("default", p.default), ("difficulty", p.difficulty),
                         ("GM", p.adjust)):
        if value:
            terms.append(f"{'+' if value > 0 else '-'} {label} {abs(value)}")
    return " ".join(terms)
