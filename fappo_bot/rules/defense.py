"""Defense: effective skill, combat and non-combat defense, shields and pledges (RULINGS F5, F6, F17).

[F:L229] "Characters have defense against all attack types equal to their highest attack skill
minus 1." [F:L96] "If the character doesn't have the skill in question, their basic defense is 1,
or 2 if they have the Suggested Trait of the skill being used against them." [F:L229] "If the
final defensive total is below 1, increase it to 1." [F:L235] "Add the character's Armor rating to
his defense against attacks across the board."
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fappo_bot.rules.character import Character, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import (
    HEAVY_ARMOR_PENALIZED,
    SHIELD_RANGED_CAP,
    SKILLS_BY_KEY,
    ArmorType,
    CustomTrait,
    SkillDef,
    Trait,
)
from fappo_bot.rules.names import fold, skill_rating

SHIELD_BONUS = 2
"""[F:L237] shields defend "at the rate of two points per (rating number of attacks) per turn"."""
PRONE_PENALTY = 2
IMPALE_PENALTY = 1
TRANSFIX_PENALTY = 2


def skill_def(skill: str) -> SkillDef | None:
    """The rulebook definition of a skill, or None for a GM's custom skill (F2 Amb-6)."""
    return SKILLS_BY_KEY.get(fold(skill))


#: `skill_def(skill).suggested` by the skill as written (None: no Suggested Trait, or a GM's skill)
_SUGGESTED: dict[str, Trait | CustomTrait | None] = {}


def suggested_trait(skill: str | None) -> Trait | CustomTrait | None:
    """The Suggested Trait of a skill (F2), looked up once per written name."""
    if not skill:
        return None
    try:
        return _SUGGESTED[skill]
    except KeyError:
        definition = skill_def(skill)
        found = _SUGGESTED[skill] = definition.suggested if definition is not None else None
        return found


def is_attack_skill(skill: str, config: RulesConfig) -> bool:
    """Whether a skill counts as an attack skill for defense (F2 Amb-1; Spellcasting by config)."""
    definition = skill_def(skill)
    if definition is None:
        return False
    if definition.name == "Spellcasting":
        return config.spellcasting_is_attack_skill
    return definition.attack


def wound_skill_penalty(character: Character) -> int:
    """Penalty to all the character's actions from impaling weapons and nerve poison.

    Impale and Barbed give -1 each (F18.12 Amb-1, F18.13); a Transfix gives -2 and replaces the
    Impale penalty rather than adding to it (F18.14); a nerve poison gives its own penalty (F18.6).
    """
    if not character.statuses:
        return 0
    impales = sum(
        1 for s in character.statuses if s.kind in (StatusKind.IMPALED, StatusKind.BARBED)
    )
    transfixed = character.has_status(StatusKind.TRANSFIXED)
    penalty = max(TRANSFIX_PENALTY if transfixed else 0, impales * IMPALE_PENALTY)
    nerve = sum(s.penalty for s in character.statuses if s.kind is StatusKind.POISONED)
    return penalty + nerve


def effective_skill(
    character: Character, skill: str, *, opponent: Character | None = None
) -> int:
    """A skill's rating after the penalties that reduce it (F5 Amb-10, F17, F18.9, F18.12-14).

    Heavy armor: -1 on skills whose Suggested Trait is Nimble or Clever. Prone: -2 when the
    opponent stands (no change when both are prone, none without an opponent). Impale -1 each,
    Transfix -2 (replacing Impale). Legendary accuracy is not skill (F22 Amb-2).
    """
    key = fold(skill)
    value = 0
    for name, rating in character.skills.items():  # `names.skill_rating`
        if fold(name) == key:
            value = rating
            break
    if character.armor is ArmorType.HEAVY and suggested_trait(skill) in HEAVY_ARMOR_PENALIZED:
        value -= 1
    statuses = character.statuses
    if not statuses:
        return value  # no prone penalty, no wounds (validation and resolution ask this often)
    if (
        opponent is not None
        and character.has_status(StatusKind.PRONE)
        and not opponent.has_status(StatusKind.PRONE)
    ):
        value -= PRONE_PENALTY
    return value - wound_skill_penalty(character)


def fallback_defense(defender: Character, attacking_skill: str | None) -> int:
    """The untrained basic defense: 2 with the attacking skill's Suggested Trait, else 1 (F5)."""
    definition = skill_def(attacking_skill) if attacking_skill else None
    if definition is not None and defender.owns(definition.suggested):
        return 2
    return 1


def combat_base_defense(
    defender: Character,
    attacking_skill: str | None,
    config: RulesConfig,
    *,
    attacker: Character | None = None,
) -> int:
    """max(highest effective attack skill - 1, fallback) (F5 Amb-1 (c), F17 Amb-9)."""
    trained = trained_defense(defender, config, attacker=attacker)
    return max(trained, fallback_defense(defender, attacking_skill))


def trained_defense(
    defender: Character, config: RulesConfig, *, attacker: Character | None = None
) -> int:
    """The highest effective attack skill - 1 (0 - 1 without one), whatever the attacking skill
    (F5 Amb-1 (c)); it depends on the attacker only through the prone penalty (F18.9)."""
    best: int | None = None
    for name in defender.skills:
        if is_attack_skill(name, config):
            value = effective_skill(defender, name, opponent=attacker)
            best = value if best is None else max(best, value)
    return (best if best is not None else 0) - 1


def armor_rating(character: Character) -> int:
    """Armor rating: the base type plus legendary points (F17, F22 Amb-4)."""
    return int(character.armor) + character.armor_bonus


def combat_defense(
    defender: Character,
    attacking_skill: str | None,
    config: RulesConfig,
    *,
    attacker: Character | None = None,
    defend_ap: int = 0,
    shield: bool = False,
    modifier: int = 0,
    base: int | None = None,
) -> int:
    """The final combat defense total, floor 1, before any range penalty (F5 Rule, Amb-4).

    `base` may carry an already computed `combat_base_defense`.
    """
    if base is None:
        base = combat_base_defense(defender, attacking_skill, config, attacker=attacker)
    total = (
        base
        + defend_ap
        + armor_rating(defender)
        + (SHIELD_BONUS if shield else 0)
        + modifier
    )
    return max(1, total)


def noncombat_defense(
    defender: Character,
    actor_skill: str,
    *,
    relevant_skill: str | None = None,
    opponent: Character | None = None,
    defend_ap: int = 0,
    modifier: int = 0,
) -> int:
    """Non-combat opposed defense (F5): own relevant skill, or 1/2 without it; no armor or shield."""
    relevant = relevant_skill or actor_skill
    if skill_rating(defender, relevant) >= 1:
        base = effective_skill(defender, relevant, opponent=opponent)
    else:
        base = fallback_defense(defender, actor_skill)
    return max(1, base + defend_ap + modifier)


# ---- shields (F17) ---------------------------------------------------------------------------


@dataclass(slots=True)
class Incoming:
    """One action aimed at a defender this turn, with the keys that order shields and pledges.

    `potential` is the attack's Solid-Success damage (0 for a non-damaging action); `skill` the
    attacker's effective skill rating for it (without AP or modifiers); ties go to the attacker
    whose name sorts first case-folded, then the lower action index (amendment F5, F17).
    """

    key: str
    attacker: str
    index: int
    potential: int
    skill: int
    ranged: bool = False
    attack: bool = True
    sub: int = 0

    def order(self) -> tuple[int, int, str, int, int]:
        """The sort key: most damaging first, then the least skilled, then name and index."""
        return (-self.potential, self.skill, fold(self.attacker), self.index, self.sub)


def shield_capacity(defender: Character) -> int:
    """Attacks a ready shield covers: its rating plus legendary steps (F17, F22 Amb-1)."""
    if defender.shield is ArmorType.NONE:
        return 0
    return int(defender.shield) + defender.shield_bonus


def assign_shields(
    defender: Character, incoming: Iterable[Incoming], *, deflect: int = 0
) -> frozenset[str]:
    """The attacks that get the +2 of a shield or of lightsword deflection (F17 ASSIGN).

    The real shield goes first, then the lightsword-shield of an Uncanny wielder (capacity = its
    defense AP, no projectile limit, F17 Amb-7). Light shields skip projectiles, Medium ones cover
    one, Heavy ones any number [F:L241].
    """
    covered: set[str] = set()
    sources: list[tuple[int, int | None]] = []
    capacity = shield_capacity(defender)
    if capacity > 0 and not _shield_lost(defender):
        sources.append((capacity, SHIELD_RANGED_CAP[defender.shield]))
    if deflect > 0:
        sources.append((deflect, None))
    if not sources:
        return frozenset()
    ordered = sorted((a for a in incoming if a.attack), key=Incoming.order)
    for cap, ranged_cap in sources:
        used = ranged_used = 0
        for attack in ordered:
            if used >= cap:
                break
            if attack.key in covered:
                continue
            if attack.ranged and ranged_cap is not None and ranged_used >= ranged_cap:
                continue
            covered.add(attack.key)
            used += 1
            if attack.ranged:
                ranged_used += 1
    return frozenset(covered)


def _shield_lost(defender: Character) -> bool:
    """A shield knocked from the hand (Disarm of the shield) does not defend (F8 Amb-7)."""
    return any(
        s.kind is StatusKind.DISARMED and s.item is not None and fold(s.item) == "shield"
        for s in defender.statuses
    )


# ---- pledges (F5) ----------------------------------------------------------------------------


@dataclass(slots=True)
class PledgeLine:
    """A Guard line reduced to what matching needs: scope (None = any) and levels."""

    index: int
    against: str | None
    levels: int


def match_pledges(pledges: Sequence[PledgeLine], incoming: Iterable[Incoming]) -> dict[str, int]:
    """Levels each incoming action loses to pledges (F5 Rule, Amb-5, Amb-6).

    Pledges naming an attacker go first, then "any" pledges, each group in declared order; each
    takes the first action in its scope, in the shield order, not yet matched by another pledge.
    One pledge covers one action; unmatched pledges are lost.
    """
    if not pledges:
        return {}
    ordered = sorted(incoming, key=Incoming.order)
    taken: dict[str, int] = {}
    named = [p for p in pledges if p.against is not None]
    general = [p for p in pledges if p.against is None]
    for pledge in (*named, *general):
        for action in ordered:
            if action.key in taken:
                continue
            if pledge.against is not None and fold(pledge.against) != fold(action.attacker):
                continue
            taken[action.key] = pledge.levels
            break
    return taken
