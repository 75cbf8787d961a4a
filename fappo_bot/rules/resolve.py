"""The simultaneous resolution of a turn (RULINGS F7).

`resolve_turn` validates every order (a refused order is dropped whole and reported), finalises the
last resolution's provisional hits with this turn's reductions (step 2), resolves every action
against that one snapshot (step 5), deals the ongoing ticks (step 6), advances the clocks (step 7)
and returns the data of it all. Nothing depends on the order in which orders are listed: every
loop runs in a fixed order of names and indices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache

from fappo_bot.rules.absence import absent_reductions, note_absent_reductions
from fappo_bot.rules.actions import (
    contests,
    resolve_aim,
    resolve_equipment,
    resolve_extinguish,
    resolve_move,
    resolve_removal,
    resolve_skill,
    resolve_tend,
)
from fappo_bot.rules.apply import apply_changes
from fappo_bot.rules.casting import cast_result
from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import Character, StatusKind, Weapon
from fappo_bot.rules.combat import Plan, plan_strikes
from fappo_bot.rules.context import Turn
from fappo_bot.rules.data import Special
from fappo_bot.rules.facts import Facts
from fappo_bot.rules.finalize import bleed_out, finalized_for
from fappo_bot.rules.fodder import elimination_hit
from fappo_bot.rules.grading import grade_strikes
from fappo_bot.rules.levels import resolve_check, sp_levels
from fappo_bot.rules.names import Roster, fold
from fappo_bot.rules.orders import Action, ActionKind, Order, PendingHit
from fappo_bot.rules.ranges import range_penalty
from fappo_bot.rules.results import (
    ActionResult,
    ErrorCode,
    GMInputs,
    OrderError,
    TargetResult,
    TurnResult,
    TurnState,
    Where,
)
from fappo_bot.rules.specials import apply_specials
from fappo_bot.rules.spending import canonical
from fappo_bot.rules.strikes import Strike, StrikeResult
from fappo_bot.rules.validate import checked_order, order_budget
from fappo_bot.rules.validate_actions import action_ap

_KIND_VALUE = {kind: kind.value for kind in ActionKind}  # `.value` is a Python-level property
_SPECIAL_VALUE = {special: special.value for special in Special}
_SELF_HIT = ("self-hit",)
_NOT_TRIGGERED = ("not triggered",)

_PLANNED = frozenset({ActionKind.ATTACK, ActionKind.CAST})  # resolved as strikes
#: the kinds resolved one action at a time (`_other_action`)
_OTHER_KINDS = tuple(kind for kind in ActionKind if kind not in _PLANNED)

_EQUIPMENT = frozenset({
    ActionKind.READY, ActionKind.STOW, ActionKind.DROP, ActionKind.SWITCH, ActionKind.PICKUP,
    ActionKind.STAND,
})


def resolve_turn(
    state: TurnState, orders: Sequence[Order], gm: GMInputs | None = None
) -> TurnResult:
    """Resolve one turn simultaneously (F7 steps 1-7) and return its results as data.

    A large turn runs faster with the cyclic garbage collector paused; that is the caller's
    choice (`fappo_bot.collector`), since the collector is the whole process's.
    """
    return _resolve(state, orders, gm or GMInputs())


def _resolve(state: TurnState, orders: Sequence[Order], gm: GMInputs) -> TurnResult:
    absent = absent_reductions(state, orders)  # F30 Amb-4: empty unless the flag is on
    if absent:
        orders = (*orders, *absent)
    roster = Roster(state.characters, state.pending)
    facts = Facts(state.config)  # what validation learns of each character, resolution reuses
    errors, valid, trimmed, ready = _validate_all(state, orders, roster, facts, gm.trim_overflow)
    snap: dict[str, Character] = {}
    config, in_combat = state.config, state.in_combat
    for character in state.characters:
        name = character.name
        current = ready.get(name)  # step 2 as validation did it for the order
        if current is None:
            current = finalized_for(character, roster.hits(name), valid.get(name), config)
        if not in_combat and roster.hits(name):
            current = bleed_out(current, config)
        snap[name] = current
    characters = (tuple(snap.values()) if len(snap) == len(state.characters)  # names unique
                  else tuple(snap[c.name] for c in state.characters))
    finalized = replace(state, characters=characters, pending=())
    turn = Turn(state.turn, state.config, gm, snap, valid, state.in_combat, facts,
                traits=state.traits)
    changes = Changes()
    note_absent_reductions(absent, changes)
    for name, dropped in sorted(trimmed.items()):
        actions = "action" if dropped == 1 else "actions"
        changes.event("overflow", name, f"{dropped} {actions} over budget dropped (F7 step 3)")
    plan = plan_strikes(turn)
    strikes, drawn = grade_strikes(turn, plan, contests(turn))
    for stage in plan.casts.values():  # spells graded by their cast alone (`single_roll`)
        strikes.extend(stage.graded)
    _strike_effects(turn, strikes, bool(plan.casts), changes)
    results = _attack_results(turn, plan, strikes, changes)
    # every other action, in the order of `turn.actors()` (case-folded name) then of its order,
    # found through the turn's index of actions by kind rather than a read of every action's kind
    rank = {name: i for i, name in enumerate(turn.actors())}
    others = [(rank[name], index, name, action, kind) for kind in _OTHER_KINDS
              for name, index, action in turn.actions_of(kind)]
    others.sort()  # by (rank, index), each pair the turn's only one: nothing else compared
    for position, index, name, action, kind in others:
        results.append(((position, index), _other_action(turn, snap[name], index, action, kind,
                                                         drawn, changes)))
    results.sort(key=_first)  # (fold(actor), index): each actor's case-folded name is its own
    characters = apply_changes(turn, state, changes)
    next_state = TurnState(
        turn=state.turn + 1, characters=characters, pending=tuple(changes.hits),
        config=state.config, in_combat=state.in_combat and not gm.end_combat,
        traits=state.traits,
    )
    return TurnResult(
        turn=state.turn, actions=tuple([r for _, r in results]), errors=tuple(errors),
        events=tuple(changes.events), hits=tuple(changes.hits), state=next_state,
        finalized=finalized,
    )


def _validate_all(
    state: TurnState, orders: Sequence[Order], roster: Roster, facts: Facts, trim: bool = False
) -> tuple[list[OrderError], dict[str, Order], dict[str, int], dict[str, Character]]:
    """Validate each order; an actor with two orders has both refused (one post per turn).

    With `trim` (orders valid when posted), an order whose only problem is its AP budget keeps
    its actions in declared order and drops the overflow (F7 step 3 amendment). Also returns
    each valid order's actor after step 2, as validation finalised it.
    """
    valid: dict[str, Order] = {}
    ready: dict[str, Character] = {}
    more: dict[str, int] = {}  # the orders of an actor after its first, by actor
    errors: list[OrderError] = []
    trimmed: dict[str, int] = {}
    for order in orders:
        problems, current = checked_order(state, order, roster, facts)
        if problems and trim and all(p.code is ErrorCode.AP_OVER_BUDGET for p in problems):
            kept = _trim(state, order, roster)
            again, current = checked_order(state, kept, roster, facts)
            if not again:
                found = roster.get(order.actor)
                assert found is not None
                trimmed[found.name] = len(order.actions) - len(kept.actions)
                order, problems = kept, []
        if problems:
            errors.extend(problems)
            continue
        assert current is not None  # the actor after step 2, under its own name
        actor = current.name
        if actor in valid:
            more[actor] = more.get(actor, 0) + 1
        else:
            valid[actor], ready[actor] = order, current
    for actor in [name for name in valid if name in more]:  # in the order of their first orders
        del valid[actor], ready[actor]
        errors.append(OrderError(
            actor=actor, code=ErrorCode.BAD_CASE, where=Where.ORDER,
            message=f"{actor} has {more[actor] + 1} orders this turn; only one is allowed.",
            words=actor, expected="one order per character per turn",
            hint="Merge the orders into one post.",
        ))
    errors.sort(key=lambda e: (fold(e.actor), e.where.value, e.index or 0, e.code.value))
    return errors, valid, trimmed, ready


def _trim(state: TurnState, order: Order, roster: Roster) -> Order:
    """The order with the actions that no longer fit the budget dropped, in declared order."""
    actor = roster.get(order.actor)
    assert actor is not None
    budget = order_budget(state, actor, order, roster)
    kept: list[Action] = []
    spent = 0
    for action in order.actions:
        cost = action_ap(action)
        if spent + cost > budget:
            break  # the overflow: this action and every later one
        spent += cost
        kept.append(action)
    return replace(order, actions=tuple(kept))


@lru_cache(maxsize=4096)
def _slug(actor: str) -> str:
    """The actor's name in a hit id: case-folded, blanks as hyphens."""
    return "-".join(fold(actor).split())


def _first(item: tuple[tuple[int, int], ActionResult]) -> tuple[int, int]:
    return item[0]


def _strike_effects(turn: Turn, strikes: list[StrikeResult], casts: bool,
                    changes: Changes) -> None:
    """Damage as new provisional hits, eliminations with overflow, Specials, self-hits, frees,
    strike by strike in the order of (actor, action, entity, target). Planning lists the attacks'
    strikes in that order, and the casts' after them (`casts`: some were planned).

    Either way each action's strikes are next to each other (an actor's case-folded name is its
    own), so which of its strikes one is, and whether it has several, is read off its neighbours.
    """
    ordered = sorted(strikes, key=lambda r: (fold(r.strike.actor), r.strike.index,
                                             r.strike.entity.sub, r.strike.sub)) if casts \
        else strikes
    remaining: dict[str, int] = {}  # creatures left in each group hit, as eliminations go
    number = turn.number
    chars, fighters = turn.chars, turn.fighters
    hits = changes.hits
    last = len(ordered) - 1
    nth = 0
    previous: Strike | None = None
    for i, result in enumerate(ordered):
        strike = result.strike
        if previous is not None and strike.index == previous.index \
                and strike.actor == previous.actor:
            nth += 1  # the same action's next strike
        else:
            nth = 0
        previous = strike
        if not (result.damage > 0 or result.eliminated or result.specials or result.self_hit
                or result.frees):
            continue  # a miss changes nothing
        actor = strike.actor
        target = strike.target  # the victim's name (`chars` is keyed by name)
        victim = fighters[target]  # its facts at the snapshot: fodder, frozen
        fodder = victim.fodder
        # the hit's id: the turn, the actor's slug, the action, and which of its strikes it is
        # when the action has several
        many = nth > 0
        if not many and i < last:
            following = ordered[i + 1].strike
            many = following.index == strike.index and following.actor == actor
        hit_id = f"t{number}-{_slug(actor)}-{strike.index}" + (f"-{nth + 1}" if many else "")
        if result.frees:
            changes.clear(target, StatusKind.FROZEN)
            changes.event("freed", target, f"sheath broken by {actor}")
        if result.eliminated:
            result.eliminated = _eliminate(turn, chars[target], strike.action,
                                           result.eliminated, remaining, changes,
                                           (hit_id, actor, strike.weapon.name))
        elif result.damage > 0 and not fodder:
            specials = result.specials
            hits.append(PendingHit(
                id=hit_id, target=target, attacker=actor, weapon=strike.weapon.name,
                levels=result.damage,
                specials=tuple([_SPECIAL_VALUE[s] for s in specials]) if specials else (),
                source="sheath" if victim.frozen else "attack", turn=number,
            ))
        if result.specials and not fodder:
            apply_specials(turn, result, changes)
        if result.self_hit:
            hits.append(PendingHit(
                id=f"{hit_id}-self", target=actor, attacker=actor,
                weapon=strike.weapon.name, levels=result.self_hit, source="self",
                turn=number,
            ))


def _eliminate(turn: Turn, group: Character, action: Action, count: int,
               remaining: dict[str, int], changes: Changes, hit: tuple[str, str, str]) -> int:
    """Remove up to `count` creatures: the targeted group first, then the `also` groups in the
    GM's order (F20 Amb-4, F21 Amb-5). Returns how many were removed. With `fodder_can_reduce`
    each group's removal is also a provisional hit its next order may reduce (F13)."""
    removed = 0
    pools = [group.name] + [
        c.name for c in (turn.find(n) for n in action.also) if c is not None and c.is_fodder
    ]
    for name in dict.fromkeys(pools):
        if name not in remaining:
            pool = turn.chars[name]
            remaining[name] = pool.count if pool.is_fodder else 0
        take = count - removed  # at most what is left of the group, without a `min` call
        if take > remaining[name]:
            take = remaining[name]
        if take <= 0:
            continue
        remaining[name] -= take
        changes.eliminated[name] = changes.eliminated.get(name, 0) + take
        removed += take
        if turn.config.fodder_can_reduce:
            changes.hits.append(elimination_hit(hit, name, take, turn.number,
                                                first=name == group.name))
    return removed


def _attack_results(
    turn: Turn, plan: Plan, strikes: list[StrikeResult], changes: Changes
) -> list[tuple[tuple[int, int], ActionResult]]:
    """One result per attack action: the first entity's grade, damage and eliminations summed
    (spec: swarms, then trios, then individuals); an area attack lists each creature. Each
    result comes with its sort key (the actor's rank in `turn.actors()`, the action's index).

    `strikes` come in the order planning made them: each action's in (entity, target) order."""
    rank = {name: i for i, name in enumerate(turn.actors())}
    grouped: dict[tuple[str, int], list[StrikeResult]] = {}
    for result in strikes:
        strike = result.strike
        key = (strike.actor, strike.index)
        found = grouped.get(key)
        if found is None:
            grouped[key] = [result]
        else:
            found.append(result)
    out: list[tuple[tuple[int, int], ActionResult]] = []
    for (actor, index), reason in plan.void.items():
        action = turn.orders[actor].actions[index]
        out.append(((rank[actor], index), ActionResult(
            actor=actor, index=index, kind=_KIND_VALUE[action.kind], target=action.target,
            effective=False, notes=(reason,))))
    for (actor, index), stage in plan.casts.items():
        group = grouped.pop((actor, index), [])
        out.append(((rank[actor], index), cast_result(turn, actor, index, stage, group, changes)))
    for (actor, index), group in grouped.items():
        first = group[0]
        strike = first.strike
        weapon = strike.weapon
        if weapon.ammo_cost or weapon.single_use:
            _spend_ammo(turn, actor, weapon, changes)
        if len(group) == 1:
            damage, eliminated = first.damage, first.eliminated
            specials = tuple([_SPECIAL_VALUE[s] for s in first.specials]) if first.specials \
                else ()
        else:
            damage = eliminated = 0
            once: dict[str, None] = {}  # in order, once each
            for r in group:
                damage += r.damage
                eliminated += r.eliminated
                for special in r.specials:
                    once[_SPECIAL_VALUE[special]] = None
            specials = tuple(once)
        kind = _KIND_VALUE[strike.action.kind]
        if strike.area:
            out.append(((rank[actor], index), _area_result(
                group, actor, index, kind, damage, eliminated, specials)))
            continue
        outcome = first.outcome
        out.append(((rank[actor], index), ActionResult(
            actor=actor, index=index, kind=kind, target=strike.target, total=strike.total,
            difficulty=first.difficulty, margin=outcome.margin, level=outcome.level,
            em=outcome.em, damage=damage, specials=specials, eliminated=eliminated,
            shield=first.shield, pledged=first.pledged,
            notes=_SELF_HIT if first.self_hit else (),
        )))
    return out


def _spend_ammo(turn: Turn, actor: str, weapon: Weapon, changes: Changes) -> None:
    """A fired plaser loses its setting in ammo (F19 Amb-4); a grenade is used up (F19)."""
    if weapon.ammo_cost and turn.chars[actor].ammo is not None:
        changes.ammo[actor] = changes.ammo.get(actor, 0) + weapon.ammo_cost
    if weapon.single_use:
        changes.lose_weapon.setdefault(actor, []).append(weapon.name)


def _area_result(group: list[StrikeResult], actor: str, index: int, kind: str, damage: int,
                 eliminated: int, specials: tuple[str, ...]) -> ActionResult:
    """The throw (total against the range penalty to the impact point) and each creature."""
    strike = group[0].strike
    penalty = range_penalty(strike.weapon, strike.dist, steadied=strike.steadied)
    outcome = resolve_check(strike.total, penalty, protected=group[0].outcome.protected,
                            shift_up=sp_levels(canonical(strike.action.sp), None))
    targets = tuple([
        TargetResult(
            name=r.strike.target, total=r.strike.total, difficulty=r.difficulty,
            margin=r.outcome.margin, level=r.outcome.level, em=r.outcome.em, damage=r.damage,
            specials=tuple([_SPECIAL_VALUE[s] for s in r.specials]) if r.specials else (),
            eliminated=r.eliminated, shield=r.shield, pledged=r.pledged,
        )
        for r in group
    ])
    return ActionResult(
        actor=actor, index=index, kind=kind, target=strike.action.target, total=strike.total,
        difficulty=penalty, margin=outcome.margin, level=outcome.level, em=outcome.em,
        damage=damage, specials=specials, eliminated=eliminated, targets=targets,
    )


_Resolver = Callable[[Turn, Character, int, Action, Changes], ActionResult]
#: the resolution of each kind of action resolved alone; a kind missing here (defend, watch,
#: ...) has no effect of its own (skill uses take the turn's drawn pledges: `_other_action`)
_RESOLVERS: dict[ActionKind, _Resolver] = {
    ActionKind.MOVE: resolve_move,
    **{kind: resolve_equipment for kind in _EQUIPMENT},
    ActionKind.REMOVE: resolve_removal,
    ActionKind.RIPOUT: resolve_removal,
    ActionKind.TEND: resolve_tend,
    ActionKind.EXTINGUISH: resolve_extinguish,
    ActionKind.AIM: resolve_aim,
}


def _other_action(turn: Turn, actor: Character, index: int, action: Action, kind: ActionKind,
                  drawn: dict[str, int], changes: Changes) -> ActionResult:
    """Every action that is neither an attack nor a cast (`kind`, the action's)."""
    if kind is ActionKind.SKILL:
        return resolve_skill(turn, actor, index, action, drawn, changes)
    resolver = _RESOLVERS.get(kind)
    if resolver is not None:
        return resolver(turn, actor, index, action, changes)
    effective = action.effective_now
    return ActionResult(actor.name, index, _KIND_VALUE[kind], action.against,
                        effective=effective, notes=() if effective else _NOT_TRIGGERED)
