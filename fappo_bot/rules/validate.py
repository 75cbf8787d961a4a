"""Validating one order against the state of the turn (RULINGS F4, F5, F8, F10, F13, F16).

`validate_order` reports every problem of an order at once (STYLE: collect all problems), each
with the words at fault, what was expected and a hint, and with `where`/`index` so the post
parser can point at the line. An order with any error is refused whole (spec/cases.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from fappo_bot.rules.character import FLOATING, Character
from fappo_bot.rules.facts import Facts
from fappo_bot.rules.finalize import (
    MAX_REDUCTION,
    finalized_for,
    fodder_reduce_refusals,
    hits_on,
    unsettled,
)
from fappo_bot.rules.health import is_unconscious, turn_budget
from fappo_bot.rules.names import Roster, match_name
from fappo_bot.rules.orders import GENERAL, Action, ActionKind, Order
from fappo_bot.rules.results import ErrorCode, OrderError, TurnState, Where
from fappo_bot.rules.spending import declared_lines
from fappo_bot.rules.validate_actions import (
    MAY_CONCENTRATE,
    ActionCheck,
    action_ap,
    check_action,
    is_concentration,
    order_ap_costs,
)


def validate_order(
    state: TurnState, order: Order, *, roster: Roster | None = None
) -> list[OrderError]:
    """Every problem of one order, in the codes of spec/cases.md (F7 steps 2-3, F8, F10, F13).

    `roster` (the scene's names indexed) may be passed by a caller validating many orders.
    """
    return checked_order(state, order, roster or Roster(state.characters, state.pending))[0]


def checked_order(
    state: TurnState, order: Order, roster: Roster, facts: Facts | None = None
) -> tuple[list[OrderError], Character | None]:
    """`validate_order`, and the actor after step 2 (its pending hits finalised with the order's
    reductions, F7 step 2), which resolution reuses for a valid order; None for an unknown actor.

    `facts` (the turn's `Facts`) keeps what validation learns of the actor for resolution.
    """
    actor = roster.get(order.actor)
    if actor is None:
        return [_unknown_actor(order, roster.match(order.actor).candidates)], None
    config = state.config
    errors: list[OrderError] = []
    if order.reduce:
        refused = fodder_reduce_refusals(config, actor, order)  # F13 Amb-8
        errors.extend(refused or _check_reductions(state, actor, order, roster))
    hits = roster.hits(actor.name)
    if hits or unsettled(actor):  # else `finalized_for` returns `actor` itself
        current = finalized_for(actor, hits, order, config)
    else:
        current = actor
    facts = facts or Facts(config)
    me = facts.of(current)
    able = me.can_act(order.endure)
    checks: list[ActionCheck] = []
    actions: list[Action] = []
    frozen = focus = False
    spent = moves = 0
    for i, action in enumerate(order.actions):
        check = check_action(state, roster, current, me, order, i, action, able)
        actions.append(action)
        checks.append(check)
        if check.errors:
            errors.extend(check.errors)
        if check.frozen_forbidden:
            frozen = True
        spent += check.ap
        kind = action.kind
        if kind is ActionKind.MOVE:
            moves += 1
        elif (not focus and kind in MAY_CONCENTRATE and action.condition is None
              and is_concentration(action, actor)):
            focus = True
    if frozen or not able:
        errors.extend(_check_ability(state, current, order, able, checks))
    if able:
        # the wound penalty of the level (`health.wound_penalty`, F10); `cannot-act` replaces
        # only this budget error (Amendments 2026-12-01): every other problem is still reported
        if moves > 1:  # one free Range a turn, not one per move line (F16)
            spent = sum(order_ap_costs(actions))
        wound = me.level.ap_penalty
        budget = turn_budget(current, config, wound)
        if spent > budget:
            errors.append(_over_budget(current, wound, spent, budget, moves))
    if focus:
        errors.extend(_check_concentration(actor, order))
    if order.guard:
        errors.extend(_check_guards(roster, actor, order))
    if facts.declares_sp(order):
        errors.extend(_check_sp(actor, order, config.floating_sp_for_reduction))
    return errors, current


def order_budget(
    state: TurnState, actor: Character, order: Order, roster: Roster | None = None
) -> int:
    """AP `actor` may allocate this turn under `order` (F8, F10, F13, F20, F21): its pending
    hits settled with the order's Reduce lines first (step 2: shock and wound penalty), per
    creature for a nuisance or minion group. `roster` (the scene indexed) saves a search of
    the pending hits for a caller that has one."""
    hits = roster.hits(actor.name) if roster is not None else hits_on(state.pending, actor.name)
    return turn_budget(finalized_for(actor, hits, order, state.config), state.config)


def _unknown_actor(order: Order, candidates: tuple[str, ...]) -> OrderError:
    code = ErrorCode.AMBIGUOUS_NAME if len(candidates) > 1 else ErrorCode.UNKNOWN_NAME
    what = "could mean " + ", ".join(candidates) if candidates else "is nobody in this scene"
    return OrderError(
        actor=order.actor, code=code, where=Where.ORDER,
        message=f"The order is for '{order.actor}', who {what}.",
        words=order.actor, expected="the name of a character in this scene",
        hint="Write the character's name as it appears on the sheet.", candidates=candidates,
    )


def _check_reductions(
    state: TurnState, actor: Character, order: Order, roster: Roster
) -> Iterator[OrderError]:
    """Reduce lines: a known hit on this character, at most 2 levels and at most its levels."""
    per_hit: dict[str, int] = {}
    mine = [h.id for h in roster.hits(actor.name)]
    for i, line in enumerate(order.reduce):
        found = match_name(line.hit, mine)
        hit = next((h for h in roster.hits(actor.name) if h.id == found.name), None)
        if hit is None:
            yield OrderError(
                actor=actor.name, where=Where.REDUCE, index=i,
                code=ErrorCode.AMBIGUOUS_NAME if found.ambiguous else ErrorCode.UNKNOWN_NAME,
                message=f"Reduce: there is no hit '{line.hit}' on {actor.name} to reduce.",
                words=line.hit, expected="the id of a hit you took last turn",
                hint=("Your hits: " + ", ".join(mine)) if mine else "You took no hits last turn.",
                candidates=tuple(mine),
            )
            continue
        levels = sum(v for v in line.sp.values() if v > 0)
        per_hit[hit.id] = per_hit.get(hit.id, 0) + levels
        limit = min(MAX_REDUCTION, hit.levels)
        if per_hit[hit.id] > limit:
            yield OrderError(
                actor=actor.name, code=ErrorCode.REDUCE_OVER_LIMIT, where=Where.REDUCE, index=i,
                message=(
                    f"Reduce: {per_hit[hit.id]} SP on hit {hit.id}, which can be reduced by at "
                    f"most {limit} {'level' if limit == 1 else 'levels'} (up to two per attack, "
                    "never more than it dealt)."
                ),
                words=f"{per_hit[hit.id]} SP", expected=f"at most {limit} SP on {hit.id}",
                hint="Spend 1 SP per level, up to 2 per hit [F:L199].",
            )


def _check_ability(
    state: TurnState, current: Character, order: Order, able: bool, checks: list[ActionCheck]
) -> Iterator[OrderError]:
    """F10: Dying, Dead and unconscious characters cannot act; Incapacitated only with endure."""
    if able and not any(check.frozen_forbidden for check in checks):
        return
    out = is_unconscious(current, state.config)
    for i, (action, check) in enumerate(zip(order.actions, checks, strict=True)):
        if able and not check.frozen_forbidden:
            continue
        allocates = check.ap > 0 or (action.kind is ActionKind.MOVE and check.ranges > 1)
        if not (out or allocates or check.frozen_forbidden):
            continue
        if check.frozen_forbidden:
            why, hint = "is frozen in ice", "Only a Wrestling attempt to break the sheath is possible."
        elif out:
            why, hint = "is unconscious, Dying or Dead", "Only Guard and Reduce lines stand."
        else:
            why = "is Incapacitated"
            hint = "Add 'Endure' (1 Tireless SP) to act, or walk at most 1 Range [F:L178]."
        yield OrderError(
            actor=current.name, code=ErrorCode.CANNOT_ACT, where=Where.ACTION, index=i,
            message=f"{current.name} {why} and cannot {action.kind.value} this turn.",
            words=action.kind.value, expected="no AP allocation", hint=hint,
        )


def _over_budget(
    current: Character, wound: int, spent: int, budget: int, moves: int
) -> OrderError:
    """F8, F10: the AP of all actions (the order's) exceed the budget (per creature for a fodder
    group)."""
    reasons = []
    if current.shock:
        reasons.append("1 for last turn's shock")
    if wound:
        reasons.append(f"{wound} for wounds")
    why = f" (base {current.ap_base}, less " + ", ".join(reasons) + ")" if reasons else ""
    return OrderError(
        actor=current.name, code=ErrorCode.AP_OVER_BUDGET, where=Where.ORDER,
        message=f"{current.name} allocates {spent} AP but has {budget} this turn{why}.",
        words=f"{spent} AP", expected=f"at most {budget} AP",
        hint=("Take AP off an action or drop one."
              + (" Only one Range a turn is free: a second move pays for all its Ranges."
                 if moves > 1 else "")),
    )


def _check_concentration(actor: Character, order: Order) -> Iterator[OrderError]:
    """F8 Amb-3: one concentration action, alone but for defense and a free move (conditionals
    do not count; the GM's `concentration_ok` lifts the limit)."""
    focus = [
        (i, a) for i, a in enumerate(order.actions)
        if not a.conditional and is_concentration(a, actor)
    ]
    if not focus or any(a.concentration_ok for _, a in focus):
        return
    live = [(i, a) for i, a in enumerate(order.actions) if not a.conditional]
    first = focus[0][0]
    label = _label(focus[0][1])
    for i, action in live:
        beside = _BESIDE_CONCENTRATION.get(action.kind)
        if i == first or (beside is not None and beside(action)):
            continue
        yield OrderError(
            actor=actor.name, code=ErrorCode.CONCENTRATION_CONFLICT, where=Where.ACTION, index=i,
            message=(
                f"{_label(action)} cannot share a turn with {label}, which needs concentration."
            ),
            words=_label(action), expected="only defense and a free 1-Range move beside it",
            hint="Move it to another turn, or ask the GM to allow it [F:L72].",
        )


def _check_guards(roster: Roster, actor: Character, order: Order) -> Iterator[OrderError]:
    """Guard lines name a character of the scene, or `any`/`all` (F5)."""
    for i, pledge in enumerate(order.guard):
        against = pledge.against
        if against.casefold() in GENERAL or roster.get(against) is not None:
            continue  # `Pledge.general`, or a character of the scene
        found = roster.match(pledge.against)
        if not found.ok:
            code = ErrorCode.AMBIGUOUS_NAME if found.ambiguous else ErrorCode.UNKNOWN_NAME
            yield OrderError(
                actor=actor.name, code=code, where=Where.GUARD, index=i,
                message=f"Guard: '{pledge.against}' is not one character of this scene.",
                words=pledge.against, expected="an attacker's name, or any",
                hint="Write the attacker's name, or 'any'.", candidates=found.candidates,
            )


def _check_sp(actor: Character, order: Order, floating_ok: bool) -> Iterator[OrderError]:
    """SP over all lines come out of the same pools (F4, F5, F10 Amb-7, F13), the actions of an
    actor that cannot act included: `cannot-act` replaces only `ap-over-budget` (Amendments
    2026-12-01)."""
    left: dict[str, int] = {}
    reported: set[str] = set()
    for where, index, key, amount, label in declared_lines(order):
        if key is None:
            key = actor.custom_pool(label)  # a Trait of the game's own, owned by the actor
        if key is None:
            yield OrderError(
                actor=actor.name, code=ErrorCode.UNKNOWN_NAME, where=where, index=index,
                message=f"'{label}' is not a Trait (nor 'floating').",
                words=label, expected="a Trait name or 'floating'",
                hint="SP come from a Trait you own, or from your floating SP.",
            )
            continue
        if where is Where.REDUCE and key == FLOATING and not floating_ok:
            yield OrderError(
                actor=actor.name, code=ErrorCode.SP_INSUFFICIENT, where=where, index=index,
                message="This game does not allow floating SP to reduce damage.",
                words=label, expected="SP from a Trait", hint="Reduce with Trait SP (F13).",
            )
            continue
        if key not in left:
            left[key] = actor.pool(key)
        left[key] -= amount
        if left[key] < 0 and key not in reported:
            reported.add(key)
            yield OrderError(
                actor=actor.name, code=ErrorCode.SP_INSUFFICIENT, where=where, index=index,
                message=(
                    f"{actor.name} declares more {key} SP than the {actor.pool(key)} left."
                ),
                words=f"{key} SP", expected=f"at most {actor.pool(key)} {key} SP in all",
                hint="Actions, Guard, Reduce and Endure lines all draw on the same pools.",
            )


#: the kinds of action that may share a turn with a concentration action (F8 Amb-3): defense,
#: dropping, and a free move (no AP)
_BESIDE_CONCENTRATION: dict[ActionKind, Callable[[Action], bool]] = {
    ActionKind.DEFEND: lambda action: True,
    ActionKind.DROP: lambda action: True,
    ActionKind.MOVE: lambda action: action_ap(action) == 0,
}


def _label(action: Action) -> str:
    """How an error names an action: its skill, the attack's target, else its kind."""
    label = _LABELS.get(action.kind)
    return (label(action) if label is not None else None) or action.kind.value


#: the label of the kinds whose name is not their kind's (None: the kind's after all)
_LABELS: dict[ActionKind, Callable[[Action], str | None]] = {
    ActionKind.SKILL: lambda action: action.skill or None,
    ActionKind.ATTACK: lambda action: f"the attack on {action.target}" if action.target else None,
}

