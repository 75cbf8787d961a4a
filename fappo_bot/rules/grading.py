"""Grading the turn's strikes: shields and pledges per defender, then each strike against its
defense (RULINGS F4, F5, F6, F12, F17, F18.15, F20, F21).

Everything a defender brings to every strike on it (frozen, helpless, swarming, armor, its defense
against each attacker) is worked out once per defender per turn (P2: one snapshot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fappo_bot.rules.character import Character
from fappo_bot.rules.combat import Plan
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.context import Turn
from fappo_bot.rules.damage import (
    WeaponProfile,
    damage_for_level,
    great_success_specials,
    weapon_profile,
)
from fappo_bot.rules.data import ArmorType, CustomTrait, Special, Tier, Trait
from fappo_bot.rules.defense import (
    PRONE_PENALTY,
    SHIELD_BONUS,
    Incoming,
    assign_shields,
    match_pledges,
    shield_capacity,
)
from fappo_bot.rules.facts import Fighter
from fappo_bot.rules.fodder import (
    eliminations,
    forms_swarm,
    swarm_damage,
    swarm_defense,
)
from fappo_bot.rules.levels import Outcome, SuccessLevel, resolve_check, sp_levels
from fappo_bot.rules.orders import ActionKind
from fappo_bot.rules.ranges import range_penalty
from fappo_bot.rules.spending import vetoed_refund
from fappo_bot.rules.strikes import Strike, StrikeResult

FREEZE_SHEATH = 10
FREEZE_SHEATH_HEAT = 5


def swarming(turn: Turn, name: str) -> bool:
    """A nuisance group swarms this turn when it attacks (F20: "five Nuisance creatures
    attacking a character"); attacks on it then face the swarm's defense."""
    order = turn.orders.get(name)
    return order is not None and any(
        a.kind is ActionKind.ATTACK and a.effective_now for a in order.actions
    )


def _incoming(strike: Strike) -> Incoming:
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
        aimed = by_target.get(strike.target)
        if aimed is None:
            by_target[strike.target] = [strike]
        else:
            aimed.append(strike)
    drawn: dict[str, int] = {}  # pledge levels by strike key, for every defender
    covered: set[str] = set()  # strikes a shield covers, for every defender
    sides: dict[str, _Side] = {}
    chars = turn.chars
    fighters = turn.fighters
    orders = turn.orders
    # each defender's shields and pledges concern its own strikes only, and every strike's key
    # is its own (actor, action, entity, target): the defenders may come in any order
    for name in [*by_target, *[n for n in extra if n not in by_target]]:
        defender = chars[name]
        fighter = fighters[name]
        strikes = by_target.get(name, _NONE)
        order = orders.get(name)
        pledges = turn.pledges(defender) if order is not None and order.guard else _NONE
        held = fighter.held  # `Turn.deflects` asks for a lightsword in hand first (F17 Amb-7)
        deflect = turn.deflects(defender) if held is not None and held.uncanny_only_specials \
            else 0
        if pledges or deflect or defender.shield is not ArmorType.NONE and shield_capacity(defender):
            incoming = [_incoming(s) for s in strikes]
            covered.update(assign_shields(defender, incoming, deflect=deflect))
            drawn.update(match_pledges(pledges, [*incoming, *extra.get(name, _NONE)]))
        if strikes:
            sides[name] = _side(turn, defender, fighter)
    # every strike's key is unique (actor, action, entity, target), so one set and one map
    # serve all defenders
    get = drawn.get
    results = [
        _grade(turn, strike, sides[strike.target], strike.key in covered, get(strike.key, 0))
        for strike in plan.strikes
    ]
    return results, drawn


_NONE: list[Any] = []  # nothing aimed (never changed)
#: `int(armor)` of each armor type (an enum's `int()` is a call)
_ARMOR = {armor: int(armor) for armor in ArmorType}


@dataclass(slots=True)
class _Side:
    """What a defender brings to every strike on it this turn, worked out once (P2)."""

    character: Character
    fighter: Fighter
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
    #: the combat defense by (attacker, attacking skill, shield raised), as it is worked out
    defenses: dict[tuple[str, str | None, bool], int] = field(default_factory=dict)


def _side(turn: Turn, defender: Character, fighter: Fighter) -> _Side:
    armor, name = defender.armor, defender.name
    return _Side(
        defender, fighter, fighter.frozen, fighter.unconscious,
        fighter.fodder and forms_swarm(defender) and swarming(turn, name),
        armor is ArmorType.HEAVY,  # `damage.heavy_armored`
        fighter.fodder, bool(turn.defend_actions(name)), fighter.prone,
        _ARMOR[armor] + defender.armor_bonus,  # `defense.armor_rating`
    )


def _defense(turn: Turn, side: _Side, attacker: str, skill: str | None, shield: bool) -> int:
    """The defender's combat defense against one attacker's skill (F5, F17, F20: a swarm's is one
    less); a group's entities all meet the same one. `attacker` is the attacker's name."""
    ap = modifier = 0
    if side.defends:
        ap, modifier = turn.defend_ap(side.character.name, attacker)
    # `defense.fallback_defense`: 2 with the attacking skill's Suggested Trait, else 1 (F5)
    suggested = turn.traits.suggested(skill)
    fallback = 2 if suggested is not None and suggested in side.character.traits else 1
    # max(highest attack skill - 1, fallback) against this attacker (F5, `Facts.trained_defense`);
    # a prone defender's depends on whether the attacker is prone too (F18.9)
    best = side.fighter.best_attack_skill(turn.config)
    if best is None:
        trained = -1  # 0 - 1 without an attack skill (F5 Amb-1 (c))
    else:
        trained = best - 1
        if side.prone and not turn.fighters[attacker].prone:
            trained -= PRONE_PENALTY
    base = trained if trained >= fallback else fallback
    # `defense.combat_defense` with the armor rating worked out once: floor 1 (F5 Amb-4)
    found = base + ap + side.armor + (SHIELD_BONUS if shield else 0) + modifier
    if found < 1:
        found = 1
    if side.swarm:
        found = swarm_defense(found)
    side.defenses[(attacker, skill, shield)] = found
    return found


def _grade(turn: Turn, strike: Strike, side: _Side, shield: bool, pledged: int) -> StrikeResult:
    attacker = strike.attacker
    action = strike.action
    shift, protected = strike.shift, strike.protected
    if shift is None or protected is None:  # planning left them to grading (a cast's strikes)
        shift, protected = _shift(attacker, strike, turn.traits.suggested(strike.skill))
    dist = strike.dist
    penalty = range_penalty(strike.weapon, dist, steadied=strike.steadied) if dist > 0 else 0
    if side.frozen:
        heat = action.heat or Special.FIRE in strike.weapon.specials
        difficulty = (FREEZE_SHEATH_HEAT if heat else FREEZE_SHEATH) + penalty
        outcome = resolve_check(strike.total, difficulty, protected=protected, shift_up=shift)
        return _sheath(strike, difficulty, outcome, attacker)
    fixed = strike.fixed_tn
    if fixed is not None:
        difficulty, shield = fixed, False
    elif action.flat_footed or side.helpless:
        difficulty, shield = 1 + penalty, False
    else:
        defense = side.defenses.get((strike.actor, strike.skill, shield))  # `_defense`'s cache
        if defense is None:
            defense = _defense(turn, side, strike.actor, strike.skill, shield)
        difficulty = defense + penalty
    outcome = resolve_check(strike.total, difficulty, protected=protected, shift_up=shift,
                            shift_down=pledged)
    heavy = side.heavy
    level = outcome.level
    profile = strike.profile or weapon_profile(strike.weapon, attacker, steadied=strike.steadied)
    damage = (swarm_damage(level, heavy_target=heavy) if strike.swarm
              else damage_for_level(level, profile.damage, profile.extra_damage,
                                    heavy_target=heavy))
    result = StrikeResult(strike, difficulty, outcome, damage, (), 0, shield, pledged)
    if level is SuccessLevel.ABJECT or level is SuccessLevel.GREAT:
        _great_or_abject(strike, result, attacker, side.character, profile, turn.config)
    if side.fodder:
        config = turn.config
        if config.fodder_elimination_by_any_attacker or attacker.tier is Tier.PC:
            result.eliminated = eliminations(
                side.character, level, outcome.em, damage, profile.damage, config
            )
        result.specials = ()
    return result


def _great_or_abject(strike: Strike, result: StrikeResult, attacker: Character,
                     defender: Character, profile: WeaponProfile, config: RulesConfig) -> None:
    """A Great Success's Specials (F12), an Abject Failure's self-hit (lightsword, F19 Amb-2)."""
    action = strike.action
    outcome = result.outcome
    if not strike.entity.swarm:
        if outcome.level is SuccessLevel.GREAT:
            result.specials = great_success_specials(action, profile.specials, defender, config)
    if (
        outcome.level is SuccessLevel.ABJECT
        and strike.weapon.self_hit_on_abject
        and not attacker.owns(Trait.UNCANNY)
    ):
        result.self_hit = strike.weapon.effective_damage


def _shift(attacker: Character, strike: Strike, suggested: Trait | CustomTrait | None
           ) -> tuple[int, bool]:
    """The SP shift of a strike (a GM veto refunding the SP of other Traits, F4 Amb-14) and
    whether the attacker owns its skill's Suggested Trait, `suggested` (Abject Failure
    protection, F4 Amb-4)."""
    action = strike.action
    spend = strike.spend
    if action.kind is ActionKind.ATTACK and action.sp_vetoed:
        spend = dict(spend)
        for key, amount in vetoed_refund(action, suggested.value if suggested else None).items():
            spend[key] -= amount
    shift = sp_levels(spend, suggested.value if suggested else None) if spend else 0
    return shift, attacker.owns(suggested)



def _sheath(strike: Strike, difficulty: int, outcome: Outcome, attacker: Character) -> StrikeResult:
    """An attack on a frozen character strikes the sheath (F18.15 Amb-5): a success frees him,
    a Failure hits him for 1 level, an Abject Failure for the weapon's full (SS) damage."""
    result = StrikeResult(strike, difficulty, outcome)
    if outcome.level.succeeded:
        result.frees = True
    elif outcome.level is SuccessLevel.FAILURE:
        result.damage = 1
    else:
        result.damage = weapon_profile(strike.weapon, attacker).damage
    return result
