"""Ranges, range penalties, melee reach and movement (RULINGS F16).

[F:L223] "Short weapons add 2 to the difficulty to hit per Range between the attacker and the
target; Medium weapons add 1 per Range; Long weapons add 1 per 2 Ranges (round down); Extreme
weapons add 1 per 3 Ranges (round down)." [F:L225] "A character can move one Range per turn
without penalty ... for each AP spent in a turn, the character can move one extra Range."
"""

from __future__ import annotations

from collections.abc import Callable

from fappo_bot.rules.character import Character, StatusKind, Weapon
from fappo_bot.rules.data import RangeClass
from fappo_bot.rules.orders import ActionKind, Order

#: Ranges per +1 of difficulty, by class (short: +2 per Range is handled apart). C-15: Ultra = 10.
_DIVISOR: dict[RangeClass, int] = {
    RangeClass.MEDIUM: 1,
    RangeClass.LONG: 2,
    RangeClass.EXTREME: 3,
    RangeClass.ULTRA: 10,
}
SCOPE_DIVISOR = 6


def ranges_apart(a: Character, b: Character) -> int:
    """Distance in Ranges between two characters: |difference of positions| (F16 Amb-1)."""
    return abs(a.position - b.position)


def class_penalty(range_class: RangeClass, d: int) -> int:
    """The F16 range penalty of a class at distance `d` (melee has none)."""
    if d < 0:  # (not `max`: a slow builtin call, thousands a turn)
        d = 0
    if range_class is RangeClass.SHORT:
        return 2 * d
    if range_class is RangeClass.MELEE:
        return 0
    return d // _DIVISOR[range_class]


def range_penalty(weapon: Weapon, d: int, *, steadied: bool = False) -> int:
    """The difficulty a weapon adds at distance `d` (F16 Rule, Amb-4, Amb-5).

    A sniper rifle counts as Ultra (d // 10) only once steadied; a mounted scope gives the better
    of the class penalty and d // 6.
    """
    if weapon.melee:
        return 0
    range_class = weapon.range_class
    if steadied and weapon.steadied_range is not None:
        range_class = weapon.steadied_range
    penalty = class_penalty(range_class, d)
    if weapon.scope:
        penalty = min(penalty, max(0, d) // SCOPE_DIVISOR)
    return penalty


def reach(weapon: Weapon) -> int:
    """How far a melee weapon strikes without a penalty: 0, or 1 for the whip [F:L272]."""
    return weapon.reach if weapon.melee else 0


def in_reach(weapon: Weapon, d: int) -> bool:
    """Whether a melee weapon can strike at distance `d` (ranged weapons always can, F16 Amb-3)."""
    return not weapon.melee or d <= reach(weapon)


def move_cost(ranges: int) -> int:
    """AP to move `ranges` Ranges this turn: the first is free (F16, amendment)."""
    return max(0, ranges - 1)


def step_toward(start: int, goal: int, ranges: int) -> int:
    """A position moved up to `ranges` toward `goal`, stopping on it."""
    if goal >= start:
        return min(goal, start + ranges)
    return max(goal, start - ranges)


def step_away(start: int, other: int, ranges: int) -> int:
    """A position moved `ranges` away from `other` (ties move toward higher positions)."""
    return start - ranges if other > start else start + ranges


_EMBEDDED = (StatusKind.IMPALED, StatusKind.BARBED, StatusKind.TRANSFIXED)


def move_blocked(actor: Character, order: Order) -> str | None:
    """Why the actor's moves this turn go nowhere, else None: prone without standing up in the
    same order (F18.9), pinned by a Transfix (F18.14), or carefully removing a Barbed weapon
    (F18.7)."""
    if not actor.statuses:
        return None
    kinds = {a.kind for a in order.actions}
    if actor.has_status(StatusKind.PRONE) and ActionKind.STAND not in kinds:
        return "prone: stand first"
    if any(s.kind is StatusKind.TRANSFIXED and s.flag for s in actor.statuses):
        return "cannot move"
    if ActionKind.REMOVE in kinds:
        embedded = next((s.kind for s in actor.statuses if s.kind in _EMBEDDED), None)
        if embedded is StatusKind.BARBED:
            return "cannot move"
    return None


def moves_away(order: Order | None, attacker: str,
               find: Callable[[str], Character | None] | None = None,
               mover: Character | None = None) -> bool:
    """Whether a target with this order moves away from a melee attacker this turn (F7 Amb-4
    amendment): a move `away`, a move with no direction, or a move toward someone else.

    `find` gives the character a written name means (the turn's names: exact, else a unique
    prefix), so a move toward a namesake of the attacker is toward someone else; without it a
    prefix of the attacker's name counts as the attacker. With the `mover` given, moves that go
    nowhere (`move_blocked`) are no move away."""
    if order is None:
        return False
    if mover is not None and move_blocked(mover, order) is not None:
        return False
    me = attacker.casefold()
    for action in order.actions:
        if action.kind is not ActionKind.MOVE or not action.effective_now:
            continue
        if action.away is not None or action.toward is None:
            return True
        toward = action.toward.strip().casefold()
        if find is not None:
            whom = find(action.toward.strip())
            if whom is None or whom.name.casefold() != me:
                return True
        elif not (toward and me.startswith(toward)):
            return True
    return False
