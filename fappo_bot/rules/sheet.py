"""Character sheets: creation cost and limits, by tier (RULINGS F1, F3, F22, F23, F26).

[F:L19] "Every character starts with 30 character creation points and 3 Action Points (APs)."
`check_sheet` prices a sheet and reports every problem at once; `character_from_sheet` turns a
sheet into the rules' `Character` with full pools.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from pydantic import ConfigDict

from fappo_bot.rules.character import Character, Spell, Weapon
from fappo_bot.rules.data import (
    SKILLS_BY_KEY,
    TIERS,
    ArmorType,
    CustomTrait,
    SkillDef,
    Tier,
    TierDef,
    Trait,
)
from fappo_bot.rules.legendary import LegendaryItem, apply_legendary, check_item
from fappo_bot.rules.magic import learned_spell_cost
from fappo_bot.rules.packages import MAX_RACIAL_PACKAGES, Package, check_packages, package_cost
from fappo_bot.rules.results import Problem, RulesError
from fappo_bot.rules.traits import BUILT_IN, TraitCatalogue

TRAIT_COST = 5
"""[F:L21] "Traits: 5 pts each, which nets 3 Success Points"."""
TRAIT_BASE_SP = 3
FLOATING_COST = 3
"""[F:L27] "\"Floating\" Success Points: 3 pts each"."""
AP_COST = 8
"""[F:L29] "Extra APs: 8 pts each"."""
MASTER_DEFAULT_BUDGET = 60
"""A Master is built on "60+" points [F:L348]: the default budget is the stated 60, and since the
range has no top, a Master sheet with no budget given is never over it (the GM may give one)."""


def default_budget(tier: Tier) -> int:
    """The default CC budget: 30 for a PC, the top of an NPC tier's range (F1, F3)."""
    row = TIERS[tier]
    return row.budget_high if row.budget_high is not None else MASTER_DEFAULT_BUDGET


@dataclass(frozen=True, slots=True, kw_only=True)
class Sheet:
    """A character sheet as written (names as the player gave them, resolved by the check; its
    shorthands, such as a tier in any case, are read by `fappo_bot.sheets.convert.sheet_data`)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    tier: Tier = Tier.PC
    #: Trait name -> its maximum SP (3 when just bought)
    traits: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    floating: int = 0
    #: base AP; None means the tier's (extra AP above it cost 8 CC, PCs and Masters only)
    ap: int | None = None
    legendary: tuple[LegendaryItem, ...] = ()
    packages: tuple[Package, ...] = ()
    spells: tuple[Spell, ...] = ()
    #: None means the tier's default (`default_budget`)
    budget: int | None = None

    @property
    def tier_def(self) -> TierDef:
        """The F3 tier row."""
        return TIERS[self.tier]

    @property
    def base_ap(self) -> int:
        """The sheet's base AP (F3)."""
        return self.ap if self.ap is not None else self.tier_def.base_ap

    @property
    def effective_budget(self) -> int:
        """The budget, or the tier's default."""
        return self.budget if self.budget is not None else default_budget(self.tier)


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetCheck:
    """The result of `check_sheet`: validity, cost, what is left, and every problem."""

    valid: bool
    cost: int
    budget: int
    unspent: int
    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    #: cost by heading (traits, extra_sp, skills, floating, ap, packages, legendary, spells)
    breakdown: dict[str, int] = field(default_factory=dict)


def _skill_table(custom_skills: Iterable[str | SkillDef]) -> dict[str, SkillDef]:
    table = dict(SKILLS_BY_KEY)
    for custom in custom_skills:
        skill = custom if isinstance(custom, SkillDef) else SkillDef(custom, None)
        table[skill.name.casefold()] = skill
    return table


def _traits(sheet: Sheet, errors: list[Problem], catalogue: TraitCatalogue
            ) -> dict[Trait | CustomTrait, int]:
    owned: dict[Trait | CustomTrait, int] = {}
    cap = sheet.tier_def.sp_cap
    for name, sp in sheet.traits.items():
        field = f"traits.{name}"
        trait = catalogue.find(name)
        if trait is None:
            errors.append(Problem(code="unknown-name", field=field,
                                  message=f"'{name}' is no Trait of this game; the Traits are "
                                          f"{', '.join(catalogue.names())}."))
            continue
        if trait in owned:
            errors.append(Problem(code="duplicate-name", field=field,
                                  message=f"{trait.value} is listed twice ('{name}' is another "
                                          "name for it); a Trait is bought once."))
            continue
        owned[trait] = sp
        if sp < TRAIT_BASE_SP:
            errors.append(Problem(code="trait-sp-min", field=field,
                                  message=f"{trait.value} has {sp} SP; a Trait comes with 3 SP "
                                          "[F:L42] and cannot have fewer."))
        elif cap is not None and sp > cap:
            errors.append(Problem(code="trait-sp-cap", field=field,
                                  message=f"{trait.value} has {sp} SP; a {sheet.tier.value} may "
                                          f"have at most {cap} SP per Trait (F1, F3)."))
    return owned


def _skills(sheet: Sheet, owned: dict[Trait | CustomTrait, int], table: dict[str, SkillDef],
            errors: list[Problem]) -> dict[str, int]:
    skills: dict[str, int] = {}
    cap = sheet.tier_def.skill_cap
    for name, rating in sheet.skills.items():
        field = f"skills.{name}"
        skill = table.get(name.strip().casefold())
        if skill is None:
            errors.append(Problem(code="unknown-name", field=field,
                                  message=f"'{name}' is no skill of this game (the GM may add "
                                          "custom skills, F1 Amb-6)."))
            continue
        if skill.name in skills:
            errors.append(Problem(code="duplicate-name", field=field,
                                  message=f"{skill.name} is listed twice."))
            continue
        skills[skill.name] = rating
        if rating < 0 or rating > cap:
            errors.append(Problem(code="skill-cap", field=field,
                                  message=f"{skill.name} is rated {rating}; skills go from 0 to "
                                          f"{cap} for a {sheet.tier.value} (F1, F3)."))
        restricted = skill.restricted_by
        if restricted is not None and restricted not in owned and rating > 0:
            errors.append(Problem(code="skill-forbidden", field=field,
                                  message=f"{skill.name} needs the {restricted.value} Trait: "
                                          "characters without it \"may not buy or use skills "
                                          "that have those Suggested Traits\" [F:L158]."))
    return skills


def _ap_cost(sheet: Sheet, errors: list[Problem]) -> int:
    row = sheet.tier_def
    ap = sheet.base_ap
    if ap < row.base_ap:
        errors.append(Problem(code="ap-min", field="ap",
                              message=f"A {sheet.tier.value} has at least {row.base_ap} AP "
                                      f"(F3), not {ap}."))
        return 0
    if ap > row.base_ap and not row.buys_ap:
        errors.append(Problem(code="ap-fixed", field="ap",
                              message=f"A {sheet.tier.value} has exactly {row.base_ap} AP "
                                      "(F3 Amb-1); only PCs and Masters buy extra AP."))
        return 0
    return AP_COST * (ap - row.base_ap)


def _spell_costs(sheet: Sheet, owned: dict[Trait | CustomTrait, int], errors: list[Problem],
                 warnings: list[Problem]) -> int:
    total = 0
    for i, spell in enumerate(sheet.spells):
        try:
            total += learned_spell_cost(spell)
        except RulesError as err:
            errors.append(Problem(code=err.code, field=f"spells[{i}]",
                                  message=f"Spell '{spell.name}': {err.message}"))
    if sheet.spells and Trait.UNCANNY not in owned:
        warnings.append(Problem(code="spell-unusable", field="spells",
                                message="Spells are cast with Spellcasting, which needs the "
                                        "Uncanny Trait [F:L158]; these spells cannot be cast "
                                        "without it."))
    return total


def check_sheet(
    sheet: Sheet,
    *,
    custom_skills: Iterable[str | SkillDef] = (),
    max_racial_packages: int = MAX_RACIAL_PACKAGES,
    traits: TraitCatalogue = BUILT_IN,
) -> SheetCheck:
    """Price a sheet and report every problem (F1 Rule; F3 tier caps; F22, F23, F26 costs).

    cost = 5/Trait + (max SP - 3) + skill points + 3/floating SP + 8/extra AP + packages
    + legendary points + spell costs (ceil(floor(D/2)/4)). Over budget is an error for a PC and
    a warning for NPC tiers (F1 Amb-8, F3 Amb-8); caps are always errors. `traits` is the
    game's catalogue: its own Traits, and the skills they suggest, are the game's too (F2).
    """
    errors: list[Problem] = []
    warnings: list[Problem] = []
    row = sheet.tier_def
    owned = _traits(sheet, errors, traits)
    _skills(sheet, owned, _skill_table((*traits.skill_defs(), *custom_skills)), errors)
    if sheet.floating < 0 or sheet.floating > row.floating_cap:
        errors.append(Problem(code="floating-cap", field="floating",
                              message=f"{sheet.floating} floating SP; floating SP go from 0 to "
                                      f"{row.floating_cap} [F:L27]."))
    for i, item in enumerate(sheet.legendary):
        errors.extend(check_item(item, f"legendary[{i}]"))
    errors.extend(check_packages(sheet.packages, owned=owned, tier=sheet.tier,
                                 max_racial=max_racial_packages))
    breakdown = {
        "traits": TRAIT_COST * len(sheet.traits),
        "extra_sp": sum(max(0, sp - TRAIT_BASE_SP) for sp in sheet.traits.values()),
        "skills": sum(max(0, r) for r in sheet.skills.values()),
        "floating": FLOATING_COST * max(0, sheet.floating),
        "ap": _ap_cost(sheet, errors),
        "packages": sum(package_cost(p, sheet.tier) for p in sheet.packages),
        "legendary": sum(max(0, item.cost) for item in sheet.legendary),
        "spells": _spell_costs(sheet, owned, errors, warnings),
    }
    cost = sum(breakdown.values())
    budget = sheet.effective_budget
    if sheet.budget is None and row.budget_high is None:
        budget = max(budget, cost)  # "60+": an open range has no top to go over (F3)
    if cost > budget:
        problem = Problem(code="over-budget", field="budget",
                          message=f"The sheet costs {cost} CC but the budget is {budget} "
                                  f"(over by {cost - budget}).")
        (errors if sheet.tier is Tier.PC else warnings).append(problem)
    elif sheet.tier is not Tier.PC and cost < row.budget_low:
        warnings.append(Problem(code="under-budget", field="budget",
                                message=f"A {sheet.tier.value} is built on at least "
                                        f"{row.budget_low} CC (F3); this one costs {cost}."))
    return SheetCheck(valid=not errors, cost=cost, budget=budget, unspent=max(0, budget - cost),
                      errors=tuple(errors), warnings=tuple(warnings), breakdown=breakdown)


def character_from_sheet(
    name: str,
    sheet: Sheet,
    *,
    custom_skills: Iterable[str | SkillDef] = (),
    weapons: Sequence[Weapon | str] = (),
    wielding: str | None = None,
    armor: ArmorType = ArmorType.NONE,
    shield: ArmorType = ArmorType.NONE,
    strict: bool = True,
    traits: TraitCatalogue = BUILT_IN,
) -> Character:
    """The rules' Character for a sheet: pools full, maxima set, base AP, CC banked (F1 Rule).

    "Current SP pools start full: sp_cur[t] = sp_max[t]; floating_cur = floating_max." Package
    abilities become skills at their rating; legendary items are applied to the named weapon,
    the armor or the shield (F22). With `strict`, an invalid sheet raises RulesError listing
    every error.
    """
    extra = tuple(custom_skills)
    check = check_sheet(sheet, custom_skills=extra, traits=traits)
    customs = (*traits.skill_defs(), *extra)
    if strict and not check.valid:
        raise RulesError("invalid-sheet", f"{name}'s sheet is not valid: "
                         + " ".join(p.message for p in check.errors), "sheet")
    table = _skill_table(customs)
    owned: dict[Trait | CustomTrait, int] = {}
    for trait_name, sp in sheet.traits.items():
        trait = traits.find(trait_name)
        if trait is not None and trait not in owned:
            owned[trait] = sp
    skills: dict[str, int] = {}
    for skill_name, rating in sheet.skills.items():
        skill = table.get(skill_name.strip().casefold())
        skills[skill.name if skill else skill_name] = rating
    for package in sheet.packages:
        skills.update(package.ratings())
    carried: list[Weapon] = []
    for weapon in weapons:
        if isinstance(weapon, Weapon):
            carried.append(weapon)
            continue
        found = Weapon.named(weapon)
        if found is None:
            raise RulesError("unknown-name", f"'{weapon}' is no weapon of the weapon table.",
                             "weapons")
        carried.append(found)
    character = Character(
        name=name,
        tier=sheet.tier,
        base_ap=sheet.base_ap,
        traits=dict(owned),
        trait_max=dict(owned),
        floating=sheet.floating,
        floating_max=sheet.floating,
        skills=skills,
        weapons=tuple(carried),
        wielding=wielding,
        armor=armor,
        shield=shield,
        spells=sheet.spells,
        unspent_cc=check.unspent,
    )
    for item in sheet.legendary:
        owned_item = item if item.owner is not None else replace(item, owner=name)
        character = apply_legendary(character, owned_item)
    return character
