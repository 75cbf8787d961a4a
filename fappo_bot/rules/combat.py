"""Attacks: planning every strike of the turn (RULINGS F4, F5, F12, F16, F17, F19, F20, F21);
`grading` grades each against its defender.

All strikes read the one snapshot (P2). A group order's action is performed by every entity the
group forms (swarms, trios, leftovers); an area attack is one total against each creature listed
in `targets`, each a separate incoming action with its own defense (F5 Amb-11, F19 Amb-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fappo_bot.rules.casting import CastStage, plan_casts
from fappo_bot.rules.character import Character, StatusKind, Weapon
from fappo_bot.rules.context import Turn
from fappo_bot.rules.damage import (
    WeaponProfile,
    weapon_profile,
)
from fappo_bot.rules.data import CustomTrait, Trait
from fappo_bot.rules.defense import PRONE_PENALTY
from fappo_bot.rules.fodder import SINGLE, SWARM_DAMAGE, entities
from fappo_bot.rules.levels import SuccessLevel, sp_levels
from fappo_bot.rules.names import fold
from fappo_bot.rules.orders import Action, ActionKind, Order
from fappo_bot.rules.ranges import moves_away, ranges_apart
from fappo_bot.rules.spending import canonical, vetoed_refund
from fappo_bot.rules.strikes import Strike
from fappo_bot.rules.validate_actions import reachable

#: a swarm's potential damage, by which shields and pledges rank it (F20 Amb-6)
SWARM_POTENTIAL = SWARM_DAMAGE[SuccessLevel.SOLID]
STEADY_TURNS = 2
_SINGLE = (SINGLE,)
_READYING = (ActionKind.READY, ActionKind.SWITCH, ActionKind.PICKUP)


@dataclass
class Plan:
    """Every strike of the turn, and the attack actions that came to nothing (F8 Amb-6, F9)."""

    strikes: list[Strike] = field(default_factory=list)
    void: dict[tuple[str, int], str] = field(default_factory=dict)
    casts: dict[tuple[str, int], CastStage] = field(default_factory=dict)


def _readies(order: Order, weapon: Weapon) -> bool:
    return any(
        a.kind in _READYING
        and a.item is not None
        and fold(a.item) == fold(weapon.name)
        for a in order.actions
    )


def in_hand(attacker: Character, weapon: Weapon, order: Order, held: Weapon | None) -> bool:
    """Whether the weapon can strike this turn: in hand (`held`, the attacker's `weapon()`), or
    readied in the same order (F8)."""
    if held is weapon and not attacker.statuses:
        return True  # the very weapon in hand, and nothing knocked from it
    if fold(weapon.name) == "fist":
        return True
    for s in attacker.statuses:
        if s.kind is not StatusKind.DISARMED:
            continue
        lost = s.item if s.item is not None else (held.name if held is not None else None)
        if lost is not None and fold(lost) == fold(weapon.name):
            return _readies(order, weapon)  # it lies at his feet (F18.10)
    if held is not None and fold(held.name) == fold(weapon.name):
        return True
    if held is not None and held.ammo_cost and weapon.ammo_cost:
        return True  # the same plaser at another setting (F19 Amb-4: free)
    return _readies(order, weapon)


def steadied(attacker: Character, target: Character) -> bool:
    """A sniper who has steadied two full turns on this target (F16 Amb-4, F19 Amb-6)."""
    if attacker.steadied_turns < STEADY_TURNS:
        return False
    return attacker.steady_target is None or fold(attacker.steady_target) == fold(target.name)


def plan_strikes(turn: Turn) -> Plan:
    """Every strike of the turn, in a fixed order (actor name, action index, entity, target)."""
    plan = Plan()
    strikes = plan.strikes
    config = turn.config
    chars = turn.chars
    fighters = turn.fighters
    # the targets that move this turn: only their orders can take them out of reach (F7 Amb-4)
    movers = {name for name, _, _ in turn.actions_of(ActionKind.MOVE)}
    for name, index, action in turn.actions_of(ActionKind.ATTACK):
        order = turn.orders[name]
        attacker = chars[name]
        fighter = fighters[name]
        arm = fighter.arm(action.weapon, action.skill, config)  # what validation looked up
        weapon = arm.weapon
        targets = _targets(turn, action)
        reason = _void_reason(attacker, fighter.held, order, action, weapon, targets)
        if reason is None and weapon is not None and not weapon.ranged:
            reason = _melee_void(turn, attacker, order, action, weapon, targets, movers)
        if reason is not None:
            plan.void[(name, index)] = reason
            continue
        assert weapon is not None and arm.profile is not None
        area = bool(action.targets) or weapon.area
        impact = _impact_distance(turn, attacker, action, targets) if area else 0
        skill = arm.skill
        sp = action.sp
        spend = canonical(sp) if sp else {}
        shift, protected = _shift(attacker.traits, action, turn.traits.suggested(skill), spend)
        profile = arm.profile
        steady = attacker.steadied_turns >= STEADY_TURNS
        position = attacker.position
        prone = fighter.prone
        rating = fighter.base_skill(skill) if skill else 0  # before the prone penalty
        # each target as every entity of the attacker meets it: (name, distance, steadied,
        # effective skill, the weapon's profile)
        aims: list[tuple[str, int, bool, int, WeaponProfile]] = []
        for target in targets:
            target_name = target.name
            value = rating
            # `Facts.skill`: the prone penalty against a standing opponent (F18.9)
            if skill and prone and not fighters[target_name].prone:
                value -= PRONE_PENALTY
            dist = impact if area else abs(position - target.position)
            if steady and steadied(attacker, target):
                aims.append((target_name, dist, True, value,
                             weapon_profile(weapon, attacker, steadied=True)))
            else:
                aims.append((target_name, dist, False, value, profile))
        ap = action.ap
        base = (ap if ap is not None and ap > 0 else 0) + action.modifier + weapon.accuracy
        shieldable = not action.flat_footed
        # a swarm's +1 AP goes to the order's first action with AP (F20)
        first_ap = fighter.fodder and index == _ap_action(order)
        for entity in (entities(attacker, config) if fighter.fodder else _SINGLE):
            ap_bonus = entity.ap_bonus if first_ap else 0
            swarm = entity.swarm
            sub = entity.sub
            bonus = entity.skill_bonus
            for t_index, (target_name, dist, steady_aim, value, aim_profile) in enumerate(aims):
                value += bonus
                strikes.append(Strike(
                    f"{name}#{index}#{sub}#{t_index}", name, attacker, index, entity, swarm,
                    action, target_name, weapon, skill, value, value + base + ap_bonus,
                    SWARM_POTENTIAL if swarm else aim_profile.damage,
                    dist, steady_aim, area, t_index, spend, None, shieldable, aim_profile,
                    shift, protected,
                ))
    plan_casts(turn, strikes, plan.casts, plan.void)
    return plan


def _shift(traits: dict[Trait | CustomTrait, int], action: Action,
           suggested: Trait | CustomTrait | None, spend: dict[str, int]) -> tuple[int, bool]:
    """An attack's SP shift (a GM veto refunding the SP of other Traits, F4 Amb-14) and whether
    the attacker owns its skill's Suggested Trait (Abject Failure protection, F4 Amb-4), from
    the attacker's `traits`."""
    value = suggested.value if suggested is not None else None
    protected = suggested is not None and suggested in traits  # `Character.owns`
    if not spend:
        return 0, protected  # nothing declared: nothing to shift, nothing a veto refunds
    if action.sp_vetoed:
        spend = dict(spend)
        for key, amount in vetoed_refund(action, value).items():
            spend[key] -= amount
    return (sp_levels(spend, value) if spend else 0), protected


def _ap_action(order: Order) -> int | None:
    """The first action with AP: a swarm's +1 AP goes to it (F20)."""
    return next((i for i, a in enumerate(order.actions) if (a.ap or 0) >= 1), None)


def _void_reason(attacker: Character, held: Weapon | None, order: Order, action: Action,
                 weapon: Weapon | None, targets: list[Character]) -> str | None:
    if not action.effective_now:
        return "not triggered"
    if weapon is None:
        return "no such weapon"
    if not in_hand(attacker, weapon, order, held):
        return f"the {weapon.name} is not in hand"
    if not targets:
        return "no target"
    return None


def _melee_void(turn: Turn, attacker: Character, order: Order, action: Action, weapon: Weapon,
                targets: list[Character], movers: set[str]) -> str | None:
    """A melee strike that cannot land (F7 Amb-4, Amb-6 amendments): a conditional's target
    beyond reach (validation checks the others when posted), or a target that moved away without
    the GM's ruling that the attacker engaged it. Never judged from the distances alone."""
    conditional = action.conditional
    if not conditional and (action.engaged or not movers):
        return None  # nothing to judge
    for target in targets:
        if conditional and not reachable(order, attacker, target, weapon):
            return f"{target.name} is out of reach"
        if (not action.engaged and target.name in movers
                and moves_away(turn.orders.get(target.name), attacker.name, turn.find,
                               target)):
            return f"{target.name} moved away (the GM did not rule the attacker engaged)"
    return None


def _targets(turn: Turn, action: Action) -> list[Character]:
    out: list[Character] = []
    chars, fighters = turn.chars, turn.fighters
    for name in action.targets or (action.target,):
        if name in chars:  # written exactly (`Turn.find`)
            if not fighters[name].dead:
                out.append(chars[name])
            continue
        found = turn.find(name)
        if found is not None and not fighters[found.name].dead:
            out.append(found)
    return out


def _impact_distance(
    turn: Turn, attacker: Character, action: Action, targets: list[Character]
) -> int:
    """Area attacks: the penalty is measured to the impact point (F16 Amb-6): the named target,
    else the given Ranges, else the nearest creature in the area."""
    point = turn.find(action.target)
    if point is not None:
        return ranges_apart(attacker, point)
    if action.ranges is not None:
        return action.ranges
    return min((ranges_apart(attacker, t) for t in targets), default=0)
