"""One incoming attack and its grade, the values that planning (`combat`, `casting`) builds and
`grading` grades (RULINGS F4, F5, F12).

Apart from the planning modules so that both attacks and spells can make strikes without one
importing the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fappo_bot.rules.character import Character, Weapon
from fappo_bot.rules.damage import WeaponProfile
from fappo_bot.rules.data import Special
from fappo_bot.rules.fodder import Entity
from fappo_bot.rules.levels import Outcome
from fappo_bot.rules.orders import Action


@dataclass(slots=True)
class Strike:
    """One incoming attack: an entity of an attacker against one defender."""

    key: str
    actor: str
    #: the attacker (or caster) at the snapshot, `turn.chars[actor]`
    attacker: Character
    index: int
    entity: Entity
    #: `entity.swarm`, read once (grading asks it of every strike)
    swarm: bool
    action: Action
    target: str
    weapon: Weapon
    skill: str | None
    skill_value: int
    total: int
    potential: int
    dist: int
    steadied: bool = False
    area: bool = False
    sub: int = 0
    #: the SP that shift this strike (an action's `sp`, a cast's `attack_sp`), canonical keys
    spend: dict[str, int] = field(default_factory=dict)
    #: a fixed difficulty instead of the defense (a mind spell's mood, F25)
    fixed_tn: int | None = None
    #: whether the defender may raise a shield against it (F17: flat-footed gets none)
    shieldable: bool = True
    #: the weapon in the attacker's hands (D, ED, Specials), when planning already worked it out
    profile: WeaponProfile | None = None
    #: the levels the SP shift it up (F4) and whether the attacker owns the skill's Suggested
    #: Trait (F4 Amb-4), when planning already worked them out for the action
    shift: int | None = None
    protected: bool | None = None


@dataclass(slots=True)
class StrikeResult:
    """The grade and effects of one strike (F4, F12)."""

    strike: Strike
    difficulty: int
    outcome: Outcome
    damage: int = 0
    specials: tuple[Special, ...] = ()
    eliminated: int = 0
    shield: bool = False
    pledged: int = 0
    #: damage to the attacker (lightsword self-hit, F19 Amb-2)
    self_hit: int = 0
    #: a Freeze sheath broken by this strike (F18.15)
    frees: bool = False
    hits_victim: bool = True
