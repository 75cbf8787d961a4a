"""Spells resolved in one roll (RULINGS F25 Amb-1 (a), R2 `spell_resolution: single_roll`).

F25 Amb-1: "(a) One check: the cast level grades the effect and the target's defense is ignored.
(b) Two stages ... **Ruling: (b).**" With the flag, the casting stage (F25 CAST, F26) is the only
roll, and on a Bare Success or better each target takes the payload as that one level grades it:
damage by level from the spell's Solid-Success damage (F12; Heavy armor still turns a Bare
Success, F12 Amb-5, which is damage and not defense), the bought Special on a Great Success (F25,
Amendments 2026-12-01), eliminations of nuisances and minions (F20, F21). No defense, shield or
pledge, and no mood difficulty for mind magic: they are the target's side of the attack stage the
single roll does away with. The SP declared for the attack stage join the one roll; bought and
ad-hoc accuracy still raise the difficulty and have nothing left to add to (docs/rulings.md).
"""

from __future__ import annotations

from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import Character, Status, StatusKind, Weapon
from fappo_bot.rules.config import RulesConfig, SpellResolution
from fappo_bot.rules.context import Turn
from fappo_bot.rules.damage import (
    damage_for_level,
    great_success_specials,
    heavy_armored,
    weapon_profile,
)
from fappo_bot.rules.data import Tier
from fappo_bot.rules.fodder import SINGLE, eliminations
from fappo_bot.rules.levels import Outcome, SuccessLevel
from fappo_bot.rules.magic import SpellProfile
from fappo_bot.rules.orders import Action
from fappo_bot.rules.ranges import ranges_apart
from fappo_bot.rules.strikes import Strike, StrikeResult

_SPELLCASTING = "Spellcasting"


def single_roll(config: RulesConfig) -> bool:
    """Whether the game resolves spells in one roll (F25 Amb-1 (a))."""
    return config.spell_resolution is SpellResolution.SINGLE_ROLL


def one_roll_spend(cast: dict[str, int], attack: dict[str, int]) -> dict[str, int]:
    """The SP of the one roll: the cast's and the attack's, pool by pool."""
    if not attack:
        return cast
    out = dict(cast)
    for pool, amount in attack.items():
        out[pool] = out.get(pool, 0) + amount
    return out


def graded_by_cast(
    turn: Turn, caster: Character, index: int, action: Action, total: int, difficulty: int,
    outcome: Outcome, weapon: Weapon, targets: list[Character],
) -> tuple[StrikeResult, ...]:
    """Each target's effect of a successful cast, graded by the cast's own level."""
    config = turn.config
    profile = weapon_profile(weapon, caster)
    level = outcome.level
    out: list[StrikeResult] = []
    for sub, target in enumerate(targets):
        strike = Strike(
            key=f"{caster.name}#{index}#0#{sub}", actor=caster.name, attacker=caster, index=index,
            entity=SINGLE, swarm=False, action=action, target=target.name, weapon=weapon, skill=_SPELLCASTING,
            skill_value=0, total=total, potential=profile.damage, dist=ranges_apart(caster, target),
            area=bool(action.targets) or weapon.area, sub=sub,
            fixed_tn=difficulty, shieldable=False, profile=profile,
        )
        damage = damage_for_level(level, profile.damage, profile.extra_damage,
                                  heavy_target=heavy_armored(target))
        result = StrikeResult(strike, difficulty, outcome, damage)
        if target.is_fodder:
            if config.fodder_elimination_by_any_attacker or caster.tier is Tier.PC:
                result.eliminated = eliminations(target, level, outcome.em, damage,
                                                 profile.damage, config)
        elif level is SuccessLevel.GREAT:
            result.specials = great_success_specials(action, profile.specials, target, config)
        out.append(result)
    return tuple(out)


def alert_on_abject_cast(turn: Turn, actor: str, action: Action, profile: SpellProfile | None,
                         outcome: Outcome | None, changes: Changes) -> None:
    """An Abject Failure of mind magic alerts its targets (F25 Amb-6): with one roll, the
    cast's."""
    if profile is None or outcome is None or outcome.level is not SuccessLevel.ABJECT:
        return
    if not (profile.mind and profile.damage == 0):
        return
    names = list(action.targets) if action.targets else [action.target]
    for name in names:
        target = turn.find(name) if name else None
        if target is not None:
            changes.status(target.name, Status(kind=StatusKind.ALERTED, source=actor))

