"""Grading the turn's strikes: shields and pledges per defender, then each strike against its
defense (RULINGS F4, F5, F6, F12, F17, F18.15, F20, F21).

Everything a defender brings to every strike on it (frozen, helpless, swarming, armor, its defense
against each attacker) is worked out once per defender per turn (P2: one snapshot).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fappo_bot.rules.character import Character
from fappo_bot.rules.combat import Plan
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.context import Turn
from fappo_bot.rules.damage import (
    WeaponProfile,
    damage_for_level,
    great_specials,
    heavy_armored,
    weapon_profile,
)
from fappo_bot.rules.data import Special, Tier, Trait
from fappo_bot.rules.defense import (
    SHIELD_BONUS,
    Incoming,
    armor_rating,
    assign_shields,
    fallback_defense,
    match_pledges,
    shield_capacity,
    skill_def,
)
from fappo_bot.rules.fodder import (
    eliminations,
    forms_swarm,
    swarm_damage,
    swarm_defense,
)
from fappo_bot.rules.levels import Outcome, SuccessLevel, graded, resolve_check, sp_levels
from fappo_bot.rules.names import fold
from fappo_bot.rules.orders import ActionKind
from fappo_bot.rules.ranges import range_penalty
from fappo_bot.rules.spending import vetoed_refund
from fappo_bot.rules.strikes import Strike, StrikeResult

# Enum members read through module aliases: on Python 3.11 `ActionKind.MOVE` goes through the
# enum metaclass's `__getattr__` hook, and this module reads them often enough in the benchmarks
# for that to show (`benchmarks/enum_reads.py`, docs/benchmarks.md).
_ATTACK = ActionKind.ATTACK
_CAST = ActionKind.CAST
_ABJECT = SuccessLevel.ABJECT
_FAILURE = SuccessLevel.FAILURE
_GREAT = SuccessLevel.GREAT
_DISARM = Special.DISARM
_PC = Tier.PC

FREEZE_SHEATH = 10
FREEZE_SHEATH_HEAT = 5


def swarming(turn: Turn, name: str) -> bool:
    """A nuisance group swarms this turn when it attacks (F20: "five Nuisance creatures
    attacking a character"); attacks on it then face the swarm's defense."""
    order = turn.orders.get(name)
    return order is not None and any(
        a.kind is _ATTACK and a.effective_now for a in order.actions
    )


def _incoming(turn: Turn, strike: Strike) -> Incoming:
    # key, attacker, index, potential, skill, ranged, attack, sub
    return Incoming(strike.key, strike.actor, strike.index, strike.potential, strike.skill_value,
                    strike.weapon.ranged, strike.shieldable, strike.entity.sub * 1000 + strike.sub)


def grade_strikes(
    turn: Turn, plan: Plan, extra: dict[str, list[Incoming]]
) -> tuple[list[StrikeResult], dict[str, int]]:
    """Assign shields and pledges per defender (F17, F5), then grade every strike.

    `extra` holds the other opposed actions aimed at each defender (skill uses), which pledges
    may match too (F5 Amb-8); the pledge levels they drew are returned by key. The results come
    in the order of `plan.strikes`.
    """
    by_target: dict[str, list[Strike]] = {}
    for strike in plan.strikes:
        by_target.setdefault(strike.target, []).append(strike)
    drawn: dict[str, int] = {}  # pledge levels by strike key, for every defender
    covered: set[str] = set()  # strikes a shield covers, for every defender
    sides: dict[str, _Side] = {}
    for name in sorted(set(by_target) | set(extra), key=fold):
        defender = turn.chars[name]
        strikes = by_target.get(name, [])
        pledges = turn.pledges(defender)
        deflect = turn.deflects(defender)
        if pledges or deflect or shield_capacity(defender):
            incoming = [_incoming(turn, s) for s in strikes]
            covered.update(assign_shields(defender, incoming, deflect=deflect))
            drawn.update(match_pledges(pledges, [*incoming, *extra.get(name, [])]))
        if strikes:
            sides[name] = _side(turn, defender)
    # every strike's key is unique (actor, action, entity, target), so one set and one map
    # serve all defenders
    results = [
        _grade(turn, strike, sides[strike.target], strike.key in covered,
               drawn.get(strike.key, 0))
        for strike in plan.strikes
    ]
    return results, drawn


@dataclass(slots=True)
class _Side:
    """What a defender brings to every strike on it this turn, worked out once (P2)."""

    character: Character
    frozen: bool
    helpless: bool
    swarm: bool
    heavy: bool
    fodder: bool
    #: whether it defends this turn (else no defense AP or modifier against anyone, F5 Amb-3)
    defends: bool
    prone: bool
    #: the armor rating (`defense.armor_rating`, F17, F22 Amb-4)
    armor: int
    #: the highest attack skill - 1 against a standing attacker (`Facts.trained_defense`)
    trained: int
    #: the combat defense by (attacker, attacking skill, shield raised), as it is worked out
    defenses: dict[tuple[str, str | None, bool], int] = field(default_factory=dict)
    #: the untrained basic defense by attacking skill (F5)
    fallback: dict[str | None, int] = field(default_factory=dict)


def _side(turn: Turn, defender: Character) -> _Side:
    facts = turn.facts.of(defender)
    return _Side(
        defender, facts.frozen, facts.unconscious,
        forms_swarm(defender) and swarming(turn, defender.name), heavy_armored(defender),
        facts.fodder, bool(turn.defend_actions(defender.name)), facts.prone,
        armor_rating(defender), turn.facts.trained_defense(defender, None),
    )


def _defense(turn: Turn, side: _Side, attacker: Character, skill: str | None, shield: bool) -> int:
    """The defender's combat defense against one attacker's skill (F5, F17, F20: a swarm's is one
    less); a group's entities all meet the same one."""
    key = (attacker.name, skill, shield)
    found = side.defenses.get(key)
    if found is None:
        defender = side.character
        ap = modifier = 0
        if side.defends:
            ap, modifier = turn.defend_ap(defender.name, attacker.name)
        fallback = side.fallback.get(skill)
        if fallback is None:
            fallback = side.fallback[skill] = fallback_defense(defender, skill)
        # max(highest attack skill - 1, fallback) against this attacker (F5); a prone defender's
        # trained defense depends on whether the attacker is prone too (F18.9)
        trained = turn.facts.trained_defense(defender, attacker) if side.prone else side.trained
        base = trained if trained >= fallback else fallback
        # `defense.combat_defense` with the armor rating worked out once: floor 1 (F5 Amb-4)
        found = base + ap + side.armor + (SHIELD_BONUS if shield else 0) + modifier
        if found < 1:
            found = 1
        if side.swarm:
            found = swarm_defense(found)
        side.defenses[key] = found
    return found


def _grade(turn: Turn, strike: Strike, side: _Side, shield: bool, pledged: int) -> StrikeResult:
    attacker = turn.chars[strike.actor]
    defender = side.character
    action = strike.action
    config = turn.config
    shift, protected = strike.shift, strike.protected
    if shift is None or protected is None:  # planning left them to grading (a cast's strikes)
        shift, protected = _shift(attacker, strike)
    penalty = 0
    if strike.dist > 0:
        penalty = range_penalty(strike.weapon, strike.dist, steadied=strike.steadied)
    if side.frozen:
        heat = action.heat or Special.FIRE in strike.weapon.specials
        difficulty = (FREEZE_SHEATH_HEAT if heat else FREEZE_SHEATH) + penalty
        outcome = resolve_check(strike.total, difficulty, protected=protected, shift_up=shift)
        return _sheath(strike, difficulty, outcome, attacker)
    if strike.fixed_tn is not None:
        defense, shield = strike.fixed_tn, False
    elif action.flat_footed or side.helpless:
        defense, shield = 1, False
    else:
        cached = side.defenses.get((strike.actor, strike.skill, shield))  # `_defense`'s cache
        defense = cached if cached is not None else _defense(turn, side, attacker, strike.skill,
                                                             shield)
    difficulty = defense + (penalty if strike.fixed_tn is None else 0)
    # `resolve_check` (F4) without its keyword-argument wrapper: thousands of strikes a turn
    # (floors spelled out: a `max(0, x)` call costs five times the comparison; 1,700 strikes a turn)
    outcome = graded(strike.total - difficulty, protected, shift if shift > 0 else 0,
                     pledged if pledged > 0 else 0)
    heavy = side.heavy
    level = outcome.level
    profile = strike.profile or weapon_profile(strike.weapon, attacker, steadied=strike.steadied)
    if strike.entity.swarm:
        damage = swarm_damage(level, heavy_target=heavy)
    else:
        damage = damage_for_level(level, profile.damage, profile.extra_damage, heavy_target=heavy)
    result = StrikeResult(strike, difficulty, outcome, damage, (), 0, shield, pledged)
    if level is _ABJECT or level is _GREAT:
        _great_or_abject(strike, result, attacker, defender, profile, config)
    if side.fodder:
        if config.fodder_elimination_by_any_attacker or attacker.tier is _PC:
            result.eliminated = eliminations(
                defender, level, outcome.em, damage, profile.damage, config
            )
        result.specials = ()
    return result


def _great_or_abject(strike: Strike, result: StrikeResult, attacker: Character,
                     defender: Character, profile: WeaponProfile, config: RulesConfig) -> None:
    """A Great Success's Specials (F12), an Abject Failure's self-hit (lightsword, F19 Amb-2)."""
    action = strike.action
    outcome = result.outcome
    if not strike.entity.swarm:
        if outcome.level is _GREAT:
            declared = action.special
            if action.kind is _CAST and len(profile.specials) == 1 and declared is None:
                # a bought Special applies undeclared; several bought, the caster declares one
                # (F25, Amendments 2026-12-01)
                declared = profile.specials[0].value
            result.specials = great_specials(profile.specials, declared, action.invoke, config)
            if _DISARM in result.specials and action.item is None and _fists(defender):
                # nothing to disarm (F18.10, Amendments 2026-12-01)
                result.specials = tuple(s for s in result.specials if s is not _DISARM)
    if (
        outcome.level is _ABJECT
        and strike.weapon.self_hit_on_abject
        and not attacker.owns(Trait.UNCANNY)
    ):
        result.self_hit = strike.weapon.effective_damage


def _shift(attacker: Character, strike: Strike) -> tuple[int, bool]:
    """The SP shift of a strike (a GM veto refunding the SP of other Traits, F4 Amb-14) and
    whether the attacker owns its skill's Suggested Trait (Abject Failure protection, F4 Amb-4)."""
    action = strike.action
    definition = skill_def(strike.skill) if strike.skill else None
    suggested = definition.suggested if definition is not None else None
    spend = strike.spend
    if action.kind is _ATTACK and action.sp_vetoed:
        spend = dict(spend)
        for key, amount in vetoed_refund(action, suggested.value if suggested else None).items():
            spend[key] -= amount
    shift = sp_levels(spend, suggested.value if suggested else None) if spend else 0
    return shift, attacker.owns(suggested)


def _fists(defender: Character) -> bool:
    """Whether the defender fights with a Fist (or nothing in hand)."""
    weapon = defender.weapon()
    return weapon is None or fold(weapon.name) == "fist"


def _sheath(strike: Strike, difficulty: int, outcome: Outcome, attacker: Character) -> StrikeResult:
    """An attack on a frozen character strikes the sheath (F18.15 Amb-5): a success frees him,
    a Failure hits him for 1 level, an Abject Failure for the weapon's full (SS) damage."""
    result = StrikeResult(strike, difficulty, outcome)
    if outcome.level.succeeded:
        result.frees = True
    elif outcome.level is _FAILURE:
        result.damage = 1
    else:
        result.damage = weapon_profile(strike.weapon, attacker).damage
    return result
