"""What each character brings to every check of one turn, worked out once (RULINGS P2; F5, F10,
F11, F17, F18.9, F18.12-14, F19).

Validation and resolution ask the same questions of the same characters: the level and whether it
lets them act, the weapon an attack uses, effective skills and the trained defense. Characters are
frozen values and a turn reads one snapshot (P2), so `Facts` answers each question once per
character object; validation's finalised actor is the very object the snapshot holds, so what
validation learnt, planning and grading reuse.
"""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.rules.character import Character, StatusKind, Weapon
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.damage import WeaponProfile, weapon_profile
from fappo_bot.rules.data import LEVELS, THROWN_FORMS, HealthLevelDef, Trait
from fappo_bot.rules.defense import (
    PRONE_PENALTY,
    effective_skill,
    skill_def,
)
from fappo_bot.rules.health import base_level_name
from fappo_bot.rules.names import Match, attack_weapon, match_skill
from fappo_bot.rules.orders import Order
from fappo_bot.rules.spending import declares_sp

_NO_ATTACK_SKILL = -1
"""`trained_defense` without an attack skill: 0 - 1 (F5 Amb-1 (c))."""

#: whether a skill, as a sheet writes it, counts for the trained defense (`is_attack_skill`):
#: an attack skill, Spellcasting (by config), or neither
_ATTACK, _SPELLCASTING, _NOT_ATTACK = "attack", "spellcasting", "not"
_ATTACK_SKILLS: dict[str, str] = {}


def _attack_kind(skill: str) -> str:
    definition = skill_def(skill)
    if definition is None:
        return _NOT_ATTACK
    if definition.name == "Spellcasting":
        return _SPELLCASTING
    return _ATTACK if definition.attack else _NOT_ATTACK


def weapon_skill(weapon: Weapon, config: RulesConfig) -> str | None:
    """The skill an attack with `weapon` uses when the order names none: the sheet's (or the
    table's) skill of the weapon, else the game's mapping; None for a weapon the table leaves to
    the GM (F19 Amb-1 amendment: never the attacker's best skill)."""
    return weapon.skill or config.mapped_skill(weapon.name)


def _skill_name(character: Character, skill: str) -> str:
    """The skill a written name means for `character` (`names.match_skill`: a rulebook skill,
    else a unique prefix or typo of its skills), else the name as written."""
    definition = skill_def(skill)
    if definition is not None:
        return definition.name
    return match_skill(character, skill).name or skill


@dataclass(slots=True)
class Arm:
    """The weapon of an attack that names `weapon` and `skill` (either may be None), as one
    character wields it this turn (F19): validation, planning and grading ask the same."""

    #: `names.attack_weapon`: how the written name matched, and the weapon carried
    found: Match | None
    carried: Weapon | None
    #: the skill validation checks: the one named, else the carried weapon's (`weapon_skill`)
    named: str | None
    #: the carried weapon as the attack uses it (a Spear thrown with Throwing, F19 amendment)
    weapon: Weapon | None
    #: the skill the attack uses: the rulebook's name of the one named, else the weapon's
    skill: str | None
    #: D, ED and Specials in the attacker's hands, unsteadied (`damage.weapon_profile`)
    profile: WeaponProfile | None


@dataclass(slots=True, init=False)
class Fighter:
    """One character's facts for the turn (the character is kept: its id keys the cache)."""

    character: Character
    level: HealthLevelDef
    #: Dead, or vaporized (F11, F18.16)
    dead: bool
    #: Dying, Dead or knocked out: no actions and defense 1 (F6 Amb-6, F10, F18.3)
    unconscious: bool
    #: whether the level and statuses let it allocate AP (F10; Incapacitated: with endure)
    able: bool
    prone: bool
    frozen: bool
    #: the weapon in hand (`Character.weapon()`)
    held: Weapon | None
    #: a nuisance or minion group (`Character.is_fodder`)
    fodder: bool
    #: effective skill by skill name as written, before the prone penalty (F18.9)
    skills: dict[str, int]
    #: the highest attack skill's effective value before the prone penalty (None without one),
    #: once `attack_known`
    best_attack: int | None
    attack_known: bool
    #: `attack_weapon` by the weapon name an attack writes (None: the one in hand)
    weapons: dict[str | None, tuple[Match | None, Weapon | None]]
    #: `arm` by the weapon and skill names an attack writes
    arms: dict[tuple[str | None, str | None], Arm]
    #: skills as written that validation found the character may use, by their rulebook names
    skills_ok: dict[str, str]

    def __init__(self, character: Character, level: HealthLevelDef, dead: bool,
                 unconscious: bool, able: bool, prone: bool, frozen: bool, held: Weapon | None,
                 fodder: bool) -> None:
        # written out rather than made by `dataclass`: its `__init__` calls a factory for each
        # of the four caches, and every character of a turn gets a Fighter
        self.character = character
        self.level = level
        self.dead = dead
        self.unconscious = unconscious
        self.able = able
        self.prone = prone
        self.frozen = frozen
        self.held = held
        self.fodder = fodder
        self.skills = {}
        self.best_attack = None
        self.attack_known = False
        self.weapons = {}
        self.arms = {}
        self.skills_ok = {}

    def can_act(self, endure: bool = False) -> bool:
        """`health.can_act` (F10): not unconscious, Dying or Dead; Incapacitated only with
        `endure` (F10 Amb-7)."""
        if self.able and self.level.name == "Incapacitated":
            return endure
        return self.able

    def base_skill(self, skill: str) -> int:
        """`defense.effective_skill` without an opponent (F5 Amb-10, F17, F18.12-14)."""
        value = self.skills.get(skill)
        if value is None:
            value = self.skills[skill] = effective_skill(self.character, skill)
        return value

    def best_attack_skill(self, config: RulesConfig) -> int | None:
        """The highest attack skill's effective value before the prone penalty (F5 Amb-1 (c),
        F18.9), None without an attack skill; worked out once."""
        if not self.attack_known:
            best: int | None = None
            for name in self.character.skills:
                attack = _ATTACK_SKILLS.get(name)
                if attack is None:
                    attack = _ATTACK_SKILLS[name] = _attack_kind(name)
                if attack is _NOT_ATTACK or (attack is _SPELLCASTING
                                             and not config.spellcasting_is_attack_skill):
                    continue  # `defense.is_attack_skill`
                value = self.base_skill(name)
                if best is None or value > best:
                    best = value
            self.best_attack = best
            self.attack_known = True
        return self.best_attack

    def attack_weapon(self, weapon: str | None) -> tuple[Match | None, Weapon | None]:
        """`names.attack_weapon`, once per written weapon name (F19)."""
        found = self.weapons.get(weapon)
        if found is None:
            found = self.weapons[weapon] = attack_weapon(self.character, weapon)
        return found

    def arm(self, weapon: str | None, skill: str | None, config: RulesConfig) -> Arm:
        """The weapon and skill of an attack naming `weapon` and `skill`, once per pair (F19)."""
        key = (weapon, skill)
        found = self.arms.get(key)
        if found is None:
            match, carried = self.attack_weapon(weapon)
            named = used = attack = profile = None
            if carried is not None:
                # the skill named, as validation reads it (exact, else a unique prefix): a
                # Spear attacked with `throw` is thrown, `sword` is Swordfighting's value
                written = _skill_name(self.character, skill) if skill else None
                if written:
                    named = written
                else:  # `weapon_skill`
                    named = carried.skill or config.mapped_skill(carried.name)
                # `Weapon.used_with` changes only a weapon with a thrown form
                used = (carried.used_with(named) if carried.name.casefold() in THROWN_FORMS
                        else carried)
                if written:
                    attack = written
                elif used is carried:
                    attack = named  # the same weapon's skill
                else:
                    attack = weapon_skill(used, config)
                profile = weapon_profile(used, self.character)
            found = self.arms[key] = Arm(match, carried, named, used, attack, profile)
        return found


def _fighter(character: Character, config: RulesConfig) -> Fighter:
    """A character's facts, from one reading of its level and statuses (`health.dead_or_out`,
    `health.can_act`)."""
    level = LEVELS[base_level_name(character, config)]
    vaporized = knocked_out = prone = frozen = False
    for s in character.statuses:
        kind = s.kind
        if kind is StatusKind.VAPORIZED:
            vaporized = knocked_out = True
        elif kind is StatusKind.UNCONSCIOUS:
            knocked_out = True
        elif kind is StatusKind.PRONE:
            prone = True
        elif kind is StatusKind.FROZEN:
            frozen = True
    unconscious = level.unconscious or level.dead or knocked_out
    held = character.weapon()  # the weapon in hand
    # character, level, dead, unconscious, able, prone, frozen, held, fodder (by position: a
    # keyword call matches each name)
    return Fighter(
        character, level, level.dead or vaporized, unconscious, not unconscious, prone, frozen,
        held, character.is_fodder,
    )


class Facts:
    """The per-turn cache of `Fighter`s, by character object (P2: one snapshot)."""

    def __init__(self, config: RulesConfig) -> None:
        self.config = config
        self._by_id: dict[int, Fighter] = {}
        self._spends: dict[int, tuple[Order, bool]] = {}

    def declares_sp(self, order: Order) -> bool:
        """`spending.declares_sp`, once per order: validation asks it, paying asks it again."""
        found = self._spends.get(id(order))
        if found is None:  # the order is kept, so its id stays its own
            found = self._spends[id(order)] = (order, declares_sp(order))
        return found[1]

    def of(self, character: Character) -> Fighter:
        """The facts of one character, worked out on the first question."""
        found = self._by_id.get(id(character))
        if found is None:  # the Fighter keeps the character alive, so its id stays its own
            found = self._by_id[id(character)] = _fighter(character, self.config)
        return found

    def skill(self, character: Character, skill: str, opponent: Character | None) -> int:
        """`defense.effective_skill` (F5 Amb-10, F17, F18.9, F18.12-14): the opponent counts
        only through whether he is prone, so the rest is worked out once per skill."""
        fighter = self.of(character)
        value = fighter.base_skill(skill)
        if fighter.prone and opponent is not None and not self.of(opponent).prone:
            return value - PRONE_PENALTY
        return value

    def trained_defense(self, defender: Character, attacker: Character | None) -> int:
        """`defense.trained_defense`: the highest effective attack skill - 1 (F5 Amb-1 (c));
        the prone penalty (F18.9) is the same for every skill."""
        fighter = self.of(defender)
        best = fighter.best_attack_skill(self.config)
        if best is None:
            return _NO_ATTACK_SKILL
        if fighter.prone and attacker is not None and not self.of(attacker).prone:
            return best - PRONE_PENALTY - 1
        return best - 1

    def deflects_with(self, defender: Character) -> bool:
        """Whether the defender's weapon in hand can serve as a shield: a lightsword of an
        Uncanny wielder who is not disarmed (F17 Amb-7)."""
        weapon = self.of(defender).held
        if weapon is None or not weapon.uncanny_only_specials:
            return False
        return defender.owns(Trait.UNCANNY) and not defender.has_status(StatusKind.DISARMED)
