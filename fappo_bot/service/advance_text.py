"""A change a player asks for with banked CC, written as a line (`Swordfighting +1`), read as
the rules' `Purchase` (F28 Amb-1: the creation menu, F1 prices). Pure: the adapters pass the
text as the user typed it, and every bad line is one sentence saying what is expected.

    Swordfighting +1          a skill (or an owned package ability, F23) raised by 1
    Nimble +2 SP              extra SP for an owned Trait (`Nimble SP +2` too)
    trait Tireless            a new Trait (5 CC, 3 SP)
    floating +1               floating SP (3 CC each)
    AP +1                     an extra AP (8 CC each)
    legendary Longsword: accuracy, special: Fire    a legendary item and its upgrades (F22)
    package Elf               refused: packages are bought at creation only [F:L207]
"""

from __future__ import annotations

import re

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import (
    BUILT_IN,
    LegendaryItem,
    Purchase,
    PurchaseKind,
    TraitCatalogue,
    trait_hint,
)
from fappo_bot.service.errors import InvalidInput
from fappo_bot.sheets.convert import CaseError, legendary_item

#: the longest change line read
MAX_CHANGE = 200

FORMS = ("`Swordfighting +1` (a skill), `Nimble +2 SP` (a Trait's SP), `trait Tireless` (a new "
         "Trait), `floating +1`, `AP +1`, or `legendary Longsword: accuracy, special: Fire`")
"""The change lines, as every refusal and guide names them."""

_RAISE = re.compile(r"^(?P<name>.+?)\s*(?:\bsp\s*)?\+\s*(?P<n>\d{1,3})\s*(?P<sp>sp)?$",
                    re.IGNORECASE)
_SP_BEFORE = re.compile(r"\bsp\s*\+", re.IGNORECASE)
_AP = frozenset({"ap", "aps", "action point", "action points"})
_FLOATING = frozenset({"floating", "floating sp"})


def _refused(text: str, why: str = "") -> InvalidInput:
    return InvalidInput(f'"{safe(text)}" is no change{why}; write {FORMS}.')


def parse_change(text: str, traits: TraitCatalogue = BUILT_IN) -> Purchase:
    """The purchase `text` asks for; InvalidInput naming the forms when it is none. `traits`:
    the game's catalogue, whose own Traits' SP are raised as the rulebook's are."""
    line = " ".join(text.split())
    if not line:
        raise InvalidInput(f"Say what to buy: {FORMS}.")
    if len(line) > MAX_CHANGE:
        raise InvalidInput(f"A change is one short line (at most {MAX_CHANGE} characters); "
                           f"write {FORMS}.")
    word, _, rest = line.partition(" ")
    head = word.casefold()
    if head in {"package", "racial"}:
        name = rest.removeprefix("package ").strip() if head == "racial" else rest
        return Purchase(kind=PurchaseKind.PACKAGE, name=name or "package")
    if head == "trait":
        if not rest:
            raise _refused(line, ": name the Trait to buy")
        return Purchase(kind=PurchaseKind.TRAIT, name=rest)
    if head == "legendary":
        return Purchase(kind=PurchaseKind.LEGENDARY, item=_item(line, rest))
    found = _RAISE.match(line)
    if found is None:
        raise _refused(line)
    name, points = found["name"].strip(), int(found["n"])
    sp = bool(found["sp"]) or _SP_BEFORE.search(line) is not None
    if points < 1:
        raise _refused(line, ": buy at least 1 point")
    key = name.casefold()
    if key in _AP:
        return Purchase(kind=PurchaseKind.AP, points=points)
    if key in _FLOATING:
        return Purchase(kind=PurchaseKind.FLOATING, points=points)
    if traits.find(name) is not None:
        return Purchase(kind=PurchaseKind.TRAIT_SP, name=name, points=points)
    if sp:
        hint = trait_hint(name, traits)  # it may name a game's own Trait, which a GM wrote
        raise InvalidInput(f'"{safe(name)}" is no Trait, so it has no SP to raise.'
                           f"{' ' + safe(hint) if hint else ''} Write {FORMS}.")
    return Purchase(kind=PurchaseKind.SKILL, name=name, points=points)


def _item(line: str, rest: str) -> LegendaryItem:
    item, colon, upgrades = rest.partition(":")
    written = [u.strip() for u in re.split(r"[,;]", upgrades) if u.strip()] if colon else []
    if not item.strip() or not written:
        raise _refused(line, ": name the item and its upgrades after a colon")
    try:
        return legendary_item(item.strip(), *written)
    except CaseError as exc:
        raise InvalidInput(f'"{safe(line)}": {safe_prose(str(exc))}; the upgrades are accuracy, damage, '
                           "special: NAME, ...") from None


def describe(purchase: Purchase) -> str:
    """The purchase as a change line (as the GM is asked to approve it, and as a waiting
    request is kept: `parse_change` reads it back to the same purchase)."""
    kind = purchase.kind
    if kind is PurchaseKind.SKILL:
        return f"{purchase.name} +{purchase.points}"
    if kind is PurchaseKind.TRAIT_SP:
        return f"{purchase.name} +{purchase.points} SP"
    if kind is PurchaseKind.TRAIT:
        return f"trait {purchase.name}"
    if kind is PurchaseKind.FLOATING:
        return f"floating SP +{purchase.points}"
    if kind is PurchaseKind.AP:
        return f"AP +{purchase.points}"
    if kind is PurchaseKind.LEGENDARY and purchase.item is not None:
        ups = ", ".join(u.kind + (f": {u.detail}" if u.detail else "")
                        for u in purchase.item.upgrades)
        return f"legendary {purchase.item.item}: {ups}"
    return f"{kind.value} {purchase.name or ''}".strip()
