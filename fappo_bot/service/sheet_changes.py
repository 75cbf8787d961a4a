"""What a GM's sheet edit changed, line by line, for the GM to check (and the audit log to
keep): a FAPPO sheet's Traits and their SP, skills, floating SP, AP, weapons and armor; an Xp
sheet's characteristics, skills and descriptors. Pure: views in, sentences out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.service.views import CharacterView, SheetView
from fappo_bot.sheets.xp import XpSheet


def _numbers(what: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    lines = []
    for name in dict.fromkeys([*before, *after]):
        old, new = before.get(name), after.get(name)
        if old == new:
            continue
        if old is None:
            lines.append(f"{what} {safe(name)}: new, {safe(str(new))}")
        elif new is None:
            lines.append(f"{what} {safe(name)}: removed (was {safe(str(old))})")
        else:
            lines.append(f"{what} {safe(name)}: {safe(str(old))} -> {safe(str(new))}")
    return lines


def _value(what: str, old: object, new: object) -> list[str]:
    return [] if old == new else [f"{what}: {safe(str(old))} -> {safe(str(new))}"]


def _fappo(before: SheetView, after: SheetView) -> list[str]:
    return [
        *_value("tier", before.tier, after.tier),
        *_numbers("Trait", {p.name: f"{p.maximum} SP" for p in before.pools},
                  {p.name: f"{p.maximum} SP" for p in after.pools}),
        *_numbers("skill", dict(before.skills), dict(after.skills)),
        *_value("floating SP", before.floating.maximum, after.floating.maximum),
        *_value("AP", before.ap_base, after.ap_base),
        *_value("weapons", ", ".join(before.weapons) or "none",
                ", ".join(after.weapons) or "none"),
        *_value("armor", before.armor_name, after.armor_name),
    ]


def _words(items: tuple[str, ...]) -> str:
    return ", ".join(items) or "none"


def _xp(before: XpSheet, after: XpSheet) -> list[str]:
    def skills(sheet: XpSheet) -> dict[str, str]:
        return {s.name: s.level_word() + (f" ({s.base.value})" if s.base else "")
                for s in sheet.skills}

    lines = _numbers("characteristic", {c.value: v for c, v in before.characteristics.items()},
                     {c.value: v for c, v in after.characteristics.items()})
    lines += _numbers("skill", skills(before), skills(after))
    for what in ("passions", "flaws", "advantages", "impediments"):
        lines += _value(what, _words(getattr(before, what)), _words(getattr(after, what)))
    lines += _value("heroic", before.heroic, after.heroic)
    return lines


def sheet_changes(before: CharacterView, after: CharacterView) -> tuple[str, ...]:
    """Every difference between the character before and after an edit (empty: none)."""
    lines = _value("name", before.name, after.name)
    if before.shown is not None and after.shown is not None:
        lines += _fappo(before.shown, after.shown)
    if before.xp is not None and after.xp is not None:
        lines += _xp(before.xp, after.xp)
    return tuple(lines)
