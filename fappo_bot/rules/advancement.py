"""Character advancement and the tournament ledger (RULINGS F28).

[F:L467] "At the end of an adventure, each character receives a small number of character
creation points (no more than 3) depending on the scope of the adventure. These points may be
used to raise skills or saved to buy new Traits." [F:L469] "Tournament-style alternative rules:
The player receives one CC point upon the successful completion of an adventure. ... These points
may accumulate forever".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Annotated

from annotated_types import Ge
from pydantic import ConfigDict

from fappo_bot.rules.character import Character, Spell
from fappo_bot.rules.config import AdvancementMenu, MagicMode, RulesConfig
from fappo_bot.rules.data import (
    SKILLS_BY_KEY,
    TIERS,
    CustomTrait,
    SkillDef,
    TierDef,
    Trait,
)
from fappo_bot.rules.legendary import (
    MAX_POINTS_PER_ITEM,
    LegendaryItem,
    apply_legendary,
    check_item,
)
from fappo_bot.rules.magic import learned_spell_cost
from fappo_bot.rules.packages import Package, refuse_after_creation
from fappo_bot.rules.results import RulesError
from fappo_bot.rules.sheet import AP_COST, FLOATING_COST, TRAIT_BASE_SP, TRAIT_COST
from fappo_bot.rules.traits import BUILT_IN, TraitCatalogue
from fappo_bot.spelling import nearest

MAX_AWARD = 3
"""[F:L467] "(no more than 3)"."""
BASE_BUDGET = 30
"""[F:L19] "Every character starts with 30 character creation points"."""


def award_advancement(character: Character, award: int) -> Character:
    """Bank an end-of-adventure award of 0..3 CC (F28; unspent CC persist, F1 Amb-1)."""
    if not 0 <= award <= MAX_AWARD:
        raise RulesError("bad-award", f"An adventure awards 0 to {MAX_AWARD} CC [F:L467], not "
                         f"{award}.", "award")
    return replace(character, unspent_cc=character.unspent_cc + award)


class PurchaseKind(StrEnum):
    """What CC can buy (the creation menu, F1), packages included only to be refused (F23)."""

    SKILL = "skill"
    TRAIT = "trait"
    TRAIT_SP = "trait_sp"
    FLOATING = "floating"
    AP = "ap"
    LEGENDARY = "legendary"
    SPELL = "spell"
    PACKAGE = "package"


#: F28 Amb-1 `advancement_menu: skills_and_traits`: the literal "raise skills ... buy new Traits".
LITERAL_MENU = frozenset({PurchaseKind.SKILL, PurchaseKind.TRAIT})


@dataclass(frozen=True, slots=True, kw_only=True)
class Purchase:
    """One advancement purchase: a skill raise (`name`, `points`), a Trait, extra SP, floating
    SP, AP, a legendary item (`item`) or a spell (`spell`)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    kind: PurchaseKind
    name: str | None = None
    points: Annotated[int, Ge(1)] = 1
    item: LegendaryItem | None = None
    spell: Spell | None = None
    package: Package | None = None


def _need_name(purchase: Purchase) -> str:
    if not purchase.name:
        raise RulesError("bad-purchase", f"Say what to buy: a {purchase.kind.value} purchase "
                         "needs a name.", "name")
    return purchase.name


def trait_hint(name: str, traits: TraitCatalogue = BUILT_IN) -> str:
    """` Did you mean Keen-eyed?`: the nearest of the game's Traits' names (alternate names
    included) to `name`, or "" when none is near."""
    near = nearest(name, (n for entry in traits.entries() for n in (entry[0], *entry[1])), 2)
    return f" Did you mean {' or '.join(near)}?" if near else ""


def _no_such_trait(name: str, traits: TraitCatalogue) -> RulesError:
    return RulesError("unknown-name", f"'{name}' is no Trait of this game."
                      f"{trait_hint(name, traits)}", "name")


def _owned_trait(character: Character, name: str,
                 traits: TraitCatalogue = BUILT_IN) -> Trait | CustomTrait:
    custom = character.custom_pool(name)
    trait: Trait | CustomTrait | None = (CustomTrait(custom) if custom is not None
                                         else traits.find(name))
    if trait is None:
        raise _no_such_trait(name, traits)
    if trait not in character.traits:
        raise RulesError("unknown-name", f"{character.name} does not own {trait.value}; "
                         f"buy the Trait first ({TRAIT_COST} CC).", "name")
    return trait


def _skill(character: Character, name: str, custom: Iterable[str | SkillDef]) -> SkillDef:
    key = name.strip().casefold()
    for c in custom:
        skill = c if isinstance(c, SkillDef) else SkillDef(c, None)
        if skill.name.casefold() == key:
            return skill
    if key in SKILLS_BY_KEY:
        return SKILLS_BY_KEY[key]
    for owned in character.skills:  # custom skills and package abilities already on the sheet
        if owned.casefold() == key:
            return SkillDef(owned, None)
    raise RulesError("unknown-name", f"'{name}' is no skill of this game (nor one "
                     f"{character.name} has).", "name")


def purchase_cost(character: Character, purchase: Purchase) -> int:
    """CC a purchase costs (F1 prices; F26 spell cost; F22 one CC per legendary point)."""
    price = _PRICES.get(purchase.kind)
    return price(purchase) if price is not None else purchase.points


def _legendary_price(purchase: Purchase) -> int:
    if purchase.item is None:
        raise RulesError("bad-purchase", "A legendary purchase needs the item and its "
                         "upgrades.", "item")
    return purchase.item.cost


def _spell_price(purchase: Purchase) -> int:
    if purchase.spell is None:
        raise RulesError("bad-purchase", "A spell purchase needs the spell.", "spell")
    return learned_spell_cost(purchase.spell)


def _package_price(purchase: Purchase) -> int:
    raise refuse_after_creation(purchase.package.name if purchase.package
                                else purchase.name or "package")


#: the price of each kind of purchase but skill points and extra Trait SP (1 CC each)
_PRICES: dict[PurchaseKind, Callable[[Purchase], int]] = {
    PurchaseKind.TRAIT: lambda purchase: TRAIT_COST,
    PurchaseKind.FLOATING: lambda purchase: FLOATING_COST * purchase.points,
    PurchaseKind.AP: lambda purchase: AP_COST * purchase.points,
    PurchaseKind.LEGENDARY: _legendary_price,
    PurchaseKind.SPELL: _spell_price,
    PurchaseKind.PACKAGE: _package_price,
}


def spend_cc(
    character: Character,
    purchase: Purchase,
    *,
    config: RulesConfig | None = None,
    custom_skills: Iterable[str | SkillDef] = (),
    traits: TraitCatalogue = BUILT_IN,
) -> Character:
    """Spend banked CC on one purchase from the creation menu (F28 Amb-1).

    Everything but packages (creation-only [F:L207]); `advancement_menu: skills_and_traits`
    allows only the literal list. Caps apply as at creation (F1, F3); too few CC, an unknown
    name or a cap is refused with a clear message. `traits` is the game's catalogue: its own
    Traits are bought at the rulebook's price and caps (F2 "follow the same general pattern"
    [F:L40]), and the skills they suggest are on the menu.
    """
    cfg = config or RulesConfig()
    kind = purchase.kind
    if kind is PurchaseKind.PACKAGE:
        _package_price(purchase)  # refused: packages are bought at creation only
    if cfg.advancement_menu is AdvancementMenu.SKILLS_AND_TRAITS and kind not in LITERAL_MENU:
        raise RulesError("not-on-menu", "In this game advancement points may only \"raise "
                         "skills or ... buy new Traits\" [F:L467].", "kind")
    cost = purchase_cost(character, purchase)
    if cost > character.unspent_cc:
        raise RulesError("not-enough-cc", f"That costs {cost} CC but {character.name} has "
                         f"{character.unspent_cc} banked.", "points")
    skills = (*traits.skill_defs(), *custom_skills)
    bought = _BUYERS[kind](character, purchase, _Menu(TIERS[character.tier], cfg, skills, traits))
    return replace(bought, unspent_cc=character.unspent_cc - cost)


@dataclass(frozen=True, slots=True)
class _Menu:
    """What a purchase is checked against: the tier's caps, the game's flags, its skills."""

    row: TierDef
    config: RulesConfig
    custom_skills: Iterable[str | SkillDef]
    traits: TraitCatalogue = BUILT_IN


def _buy_skill(character: Character, purchase: Purchase, menu: _Menu) -> Character:
    skill = _skill(character, _need_name(purchase), menu.custom_skills)
    restricted = skill.restricted_by
    if restricted is not None and restricted not in character.traits:
        raise RulesError("skill-forbidden", f"{skill.name} needs the {restricted.value} "
                         "Trait [F:L158].", "name")
    current = next((v for k, v in character.skills.items()
                    if k.casefold() == skill.name.casefold()), 0)
    key = next((k for k in character.skills if k.casefold() == skill.name.casefold()),
               skill.name)
    if current + purchase.points > menu.row.skill_cap:
        raise RulesError("skill-cap", f"{skill.name} would be {current + purchase.points}; "
                         f"the cap is {menu.row.skill_cap} (F1, F3).", "points")
    return replace(character, skills={**character.skills, key: current + purchase.points})


def _buy_trait(character: Character, purchase: Purchase, menu: _Menu) -> Character:
    name = _need_name(purchase)
    trait = menu.traits.find(name)
    if trait is None:
        raise _no_such_trait(name, menu.traits)
    if trait in character.traits:
        raise RulesError("duplicate-name", f"{character.name} already owns "
                         f"{trait.value}.", "name")
    return replace(character, traits={**character.traits, trait: TRAIT_BASE_SP},
                   trait_max={**character.trait_max, trait: TRAIT_BASE_SP})


def _buy_trait_sp(character: Character, purchase: Purchase, menu: _Menu) -> Character:
    trait = _owned_trait(character, _need_name(purchase), menu.traits)
    new_max = character.trait_maximum(trait) + purchase.points
    cap = menu.row.sp_cap
    if cap is not None and new_max > cap:
        raise RulesError("trait-sp-cap", f"{trait.value} would have {new_max} SP; the cap "
                         f"is {cap} (F1, F3).", "points")
    return replace(character, trait_max={**character.trait_max, trait: new_max},
                   traits={**character.traits, trait: character.traits[trait] + purchase.points})


def _buy_floating(character: Character, purchase: Purchase, menu: _Menu) -> Character:
    new_max = character.floating_maximum + purchase.points
    if new_max > menu.row.floating_cap:
        raise RulesError("floating-cap", f"{new_max} floating SP; the cap is "
                         f"{menu.row.floating_cap} [F:L27].", "points")
    return replace(character, floating_max=new_max,
                   floating=character.floating + purchase.points)


def _buy_ap(character: Character, purchase: Purchase, menu: _Menu) -> Character:
    if not menu.row.buys_ap:
        raise RulesError("ap-fixed", f"A {character.tier.value} has a fixed number of AP "
                         "(F3 Amb-1); only PCs and Masters buy extra AP.", "kind")
    return replace(character, base_ap=character.ap_base + purchase.points)


def _buy_spell(character: Character, purchase: Purchase, menu: _Menu) -> Character:
    assert purchase.spell is not None  # purchase_cost checked it
    if menu.config.magic_mode is MagicMode.GENERAL:
        raise RulesError("not-on-menu", "This game uses General Magic only: spells are not "
                         "learned (F26 Amb-3).", "spell")
    if any(s.name.casefold() == purchase.spell.name.casefold() for s in character.spells):
        raise RulesError("duplicate-name", f"{character.name} already knows "
                         f"'{purchase.spell.name}'.", "spell")
    return replace(character, spells=character.spells + (purchase.spell,))


def _buy_legendary(character: Character, purchase: Purchase, menu: _Menu) -> Character:
    item = purchase.item
    assert item is not None  # purchase_cost checked it
    spent = character.legendary.get(item.item, 0)
    if spent + item.cost > MAX_POINTS_PER_ITEM:
        raise RulesError("legendary-cap", f"'{item.item}' already has {spent} CC; a legendary "
                         f"item takes at most {MAX_POINTS_PER_ITEM} [F:L352].", "item")
    problems = [p for p in check_item(item) if p.code != "legendary-cap"]
    if problems:
        raise RulesError(problems[0].code, problems[0].message, problems[0].field)
    owned = replace(item, owner=character.name)
    after = apply_legendary(character, owned)
    return replace(after, legendary={**character.legendary,
                                                  item.item: spent + item.cost})


#: how each purchase changes the character (packages are refused before: creation only)
_BUYERS: dict[PurchaseKind, Callable[[Character, Purchase, _Menu], Character]] = {
    PurchaseKind.SKILL: _buy_skill,
    PurchaseKind.TRAIT: _buy_trait,
    PurchaseKind.TRAIT_SP: _buy_trait_sp,
    PurchaseKind.FLOATING: _buy_floating,
    PurchaseKind.AP: _buy_ap,
    PurchaseKind.LEGENDARY: _buy_legendary,
    PurchaseKind.SPELL: _buy_spell,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentLedger:
    """One player's tournament CC, kept across games (F28, [F:L469])."""

    player: str
    points: Annotated[int, Ge(0)] = 0
    adventures: Annotated[int, Ge(0)] = 0


def record_adventure(ledger: TournamentLedger, *, completed: bool) -> TournamentLedger:
    """+1 CC per successfully completed adventure; the points "may accumulate forever"."""
    return replace(ledger, points=ledger.points + (1 if completed else 0),
                   adventures=ledger.adventures + 1)


def starting_budget(ledger: TournamentLedger) -> int:
    """A new character's budget: 30 plus the player's tournament points (F28 Rule)."""
    return BASE_BUDGET + ledger.points
