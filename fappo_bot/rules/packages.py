"""Special ability and racial packages (RULINGS F23; the seed's section VIII).

[F:L207] "Special ability or racial packages can only be bought at the time of character creation.
... Once acquired, they can be improved with character creation points like a skill. Most racial
abilities have Fantastical as their Suggested Trait. Characters can usually purchase only one
racial package." A package is GM data: its cost, prerequisite Traits and rated abilities.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Annotated

from annotated_types import Ge
from pydantic import ConfigDict

from fappo_bot.rules.data import TIERS, CustomTrait, Tier, Trait, trait_by_name
from fappo_bot.rules.results import Problem, RulesError

DEFAULT_ABILITY_TRAIT = Trait.FANTASTICAL.value
"""[F:L207] "Most racial abilities have Fantastical as their Suggested Trait"."""

MAX_RACIAL_PACKAGES = 1
"""[F:L207] "Characters can usually purchase only one racial package" (the GM may allow more)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PackageAbility:
    """One ability of a package, rated like a skill (F23, F1 Amb-7)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    name: str
    suggested: str = DEFAULT_ABILITY_TRAIT
    #: the rating the package comes with
    rating: Annotated[int, Ge(0)] = 0
    #: counts as an attack skill for defense (F23 Amb-2, default no)
    attack: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Package:
    """A package as bought on a sheet: GM-priced data plus the points that improve its abilities.

    `abilities` may be written as a list of abilities, a list of names, or `{name: rating}`
    (read by the input schema, `fappo_bot.sheets.convert.sheet_data`).
    """

    __pydantic_config__ = ConfigDict(extra="forbid")

    name: str
    cost: Annotated[int, Ge(0)] = 0
    prerequisites: tuple[str, ...] = ()
    abilities: tuple[PackageAbility, ...] = ()
    #: a racial package (at most one per character) or another special ability package
    racial: bool = True
    #: points bought on top of an ability's rating, 1 CC each (like a skill)
    improvements: dict[str, int] = field(default_factory=dict)

    def ability(self, name: str) -> PackageAbility | None:
        """The ability called `name` (case-insensitive), or None."""
        key = name.strip().casefold()
        return next((a for a in self.abilities if a.name.casefold() == key), None)

    def ratings(self) -> dict[str, int]:
        """Each ability's rating with its improvements: what the character rolls (F23)."""
        out = {a.name: a.rating for a in self.abilities}
        for name, points in self.improvements.items():
            ability = self.ability(name)
            if ability is not None:
                out[ability.name] += points
        return out


def is_enemy(tier: Tier) -> bool:
    """Every tier but PCs (F3)."""
    return tier is not Tier.PC


def package_cost(package: Package, tier: Tier) -> int:
    """CC the package costs on a sheet: its price plus improvements (F23).

    [F:L338] "Any enemy may have a \"racial package\" built-in without needing to spend extra
    character creation points for them": free for enemies (improvements still cost, like skills).
    """
    price = 0 if (package.racial and is_enemy(tier)) else package.cost
    return price + sum(max(0, p) for p in package.improvements.values())


def check_packages(
    packages: Sequence[Package],
    *,
    owned: Collection[Trait | CustomTrait],
    tier: Tier,
    max_racial: int = MAX_RACIAL_PACKAGES,
    field: str = "packages",
) -> list[Problem]:
    """Every problem of a sheet's packages (F23): prerequisites, the racial limit, caps, names."""
    problems: list[Problem] = []
    cap = TIERS[tier].skill_cap
    racial = [p.name for p in packages if p.racial]
    if len(racial) > max_racial:
        problems.append(Problem(
            code="package-limit",
            message=f"At most {max_racial} racial "
                    f"{'package' if max_racial == 1 else 'packages'} per character [F:L207], not "
                    f"{len(racial)} ({', '.join(racial)}).",
            field=field,
        ))
    for i, package in enumerate(packages):
        where = f"{field}[{i}]"
        for req in package.prerequisites:
            trait = trait_by_name(req)
            if trait is None:
                problems.append(Problem(code="unknown-name", field=f"{where}.prerequisites",
                                        message=f"Package '{package.name}' requires '{req}', "
                                                "which is no Trait of this game."))
            elif trait not in owned:
                problems.append(Problem(
                    code="package-prerequisite", field=f"{where}.prerequisites",
                    message=f"Package '{package.name}' requires the {trait.value} Trait "
                            "[F:L209]; buy it or drop the package."))
        for ability in package.abilities:
            if trait_by_name(ability.suggested) is None:
                problems.append(Problem(
                    code="unknown-name", field=f"{where}.abilities",
                    message=f"Ability '{ability.name}' suggests '{ability.suggested}', which is "
                            "no Trait of this game."))
        for name, points in package.improvements.items():
            if package.ability(name) is None:
                problems.append(Problem(
                    code="unknown-name", field=f"{where}.improvements",
                    message=f"Package '{package.name}' has no ability '{name}' to improve."))
            elif points < 0:
                problems.append(Problem(
                    code="skill-cap", field=f"{where}.improvements",
                    message=f"Improvement of '{name}' cannot be negative ({points})."))
        for name, rating in package.ratings().items():
            if rating > cap:
                problems.append(Problem(
                    code="skill-cap", field=f"{where}.improvements",
                    message=f"Ability '{name}' would be rated {rating}; abilities are improved "
                            f"like skills, at most {cap} for this tier [F:L207]."))
    return problems


def refuse_after_creation(package_name: str) -> RulesError:
    """The refusal of a package bought after creation (F23, F28 Amb-1)."""
    return RulesError(
        "package-after-creation",
        f"Package '{package_name}' cannot be bought now: special ability or racial packages "
        "can only be bought at the time of character creation [F:L207]. Its abilities can "
        "still be improved like skills.",
        "package",
    )
