"""Nuisances and minions: swarms, Collaborate trios and eliminations (RULINGS F3, F20, F21).

[F:L340] "Any attack by a PC will knock (3x their success number) Nuisance creatures out of the
fight at once." "For every five Nuisance creatures attacking a character, treat them as a single
entity with +1 to the Nuisance creature's attack skill and AP and -1 to its defense (to a minimum
of 1). A Bare Success with a Swarm attack will cause 1 health level of damage; a Solid Success, 2
levels; and a Great Success, 3 levels." [F:L342] "A single successful attack by a PC will eliminate
their weapon's Health Levels in Minions in one turn." "The GM divides Minions into groups of 3,
each of which attacks as a single entity with +2 to all attack skills."
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from fappo_bot.rules.character import Character
from fappo_bot.rules.config import MinionElimMode, NuisanceCountMode, RulesConfig
from fappo_bot.rules.data import Tier
from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.names import fold
from fappo_bot.rules.orders import PendingHit

SWARM_SIZE = 5
TRIO_SIZE = 3
SWARM_SKILL_BONUS = 1
SWARM_AP_BONUS = 1
TRIO_SKILL_BONUS = 2
#: F20: a swarm's damage by level (no Specials); shields rank it as its SS damage, 2 (Amb-6)
SWARM_DAMAGE: dict[SuccessLevel, int] = {
    SuccessLevel.BARE: 1,
    SuccessLevel.SOLID: 2,
    SuccessLevel.GREAT: 3,
}
NUISANCE_PER_POINT = 3


@dataclass(frozen=True)
class Entity:
    """One acting entity of a character or group this turn (F20, F21 amendment)."""

    sub: int
    kind: str
    creatures: int = 1
    skill_bonus: int = 0
    ap_bonus: int = 0
    #: a swarm of five nuisances (`kind == "swarm"`, a field: planning and grading ask it of
    #: every strike)
    swarm: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "swarm", self.kind == "swarm")


SINGLE = Entity(0, "single")

#: entities are values (frozen, compared by value): one of each shape serves every group
_entity = lru_cache(maxsize=1024)(Entity)


def entities(character: Character, config: RulesConfig) -> list[Entity]:
    """The entities a character or group forms this turn: swarms, then trios, then leftovers.

    A nuisance group forms one swarm per five creatures (F20 Amb-2) and leftovers act alone
    (Amb-3); minions form trios when Collaborate is on (F21 Amb-3, Amb-4); a lone character is one
    entity.
    """
    if not character.is_fodder:
        return [SINGLE]
    if character.count <= 0:
        return []
    out: list[Entity] = []
    if character.tier is Tier.NUISANCE:
        blocks, rest = divmod(character.count, SWARM_SIZE)
        out += [
            _entity(i, "swarm", SWARM_SIZE, SWARM_SKILL_BONUS, SWARM_AP_BONUS)
            for i in range(blocks)
        ]
    elif config.collaborate:
        blocks, rest = divmod(character.count, TRIO_SIZE)
        out += [_entity(i, "trio", TRIO_SIZE, TRIO_SKILL_BONUS) for i in range(blocks)]
    else:
        blocks, rest = 0, character.count
    out += [_entity(blocks + i, "single") for i in range(rest)]
    return out


def forms_swarm(character: Character) -> bool:
    """Whether a nuisance group is big enough to swarm (F20)."""
    return character.tier is Tier.NUISANCE and character.count >= SWARM_SIZE


def swarm_defense(defense: int) -> int:
    """A swarm's defense: one less than a nuisance's, minimum 1 (F20)."""
    return max(1, defense - 1)


def swarm_damage(level: SuccessLevel, *, heavy_target: bool) -> int:
    """Swarm damage by level; Heavy armor ignores a Bare Success (F12 Amb-5, F20 Amb-6)."""
    if level is SuccessLevel.BARE and heavy_target:
        return 0
    return SWARM_DAMAGE.get(level, 0)


def eliminations(
    target: Character,
    level: SuccessLevel,
    em: int,
    damage: int,
    base_damage: int,
    config: RulesConfig,
) -> int:
    """Creatures one successful attack removes before caps (F20 Amb-1, F21 Amb-1).

    Nuisances: 3 x em (or 3 x level rank by config); minions: the damage the hit deals (or the
    weapon's base damage by config). Nothing on a failure.
    """
    if not level.succeeded:
        return 0
    if target.tier is Tier.NUISANCE:
        if config.nuisance_count_mode is NuisanceCountMode.LEVEL_RANK:
            return NUISANCE_PER_POINT * (int(level) - int(SuccessLevel.FAILURE))
        return NUISANCE_PER_POINT * em if em > 0 else 0
    if config.minion_elim_mode is MinionElimMode.WEAPON_BASE_DAMAGE:
        return base_damage
    return damage


#: the `source` of a pending hit that stands for creatures eliminated (`fodder_can_reduce`)
ELIMINATION = "elimination"


def elimination_hit(hit: tuple[str, str, str], group: str, creatures: int, turn: int, *,
                    first: bool) -> PendingHit:
    """With `fodder_can_reduce` (F13 Amb-8, F20, F21, R2) creatures an attack eliminates are a
    provisional hit on their group, one "level" a creature, that the group's next order may
    reduce like any hit: up to 2 per attack at 1 SP each (`finalize`). `hit` is the attack's
    (hit id, attacker, weapon); a group reached by overflow gets the id with its name added."""
    hit_id, attacker, weapon = hit
    if not first:
        hit_id = f"{hit_id}-{'-'.join(fold(group).split())}"
    return PendingHit(id=hit_id, target=group, attacker=attacker, weapon=weapon,
                      levels=creatures, source=ELIMINATION, turn=turn)

