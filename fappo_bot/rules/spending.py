"""SP declared in an order, line by line, and paying them (RULINGS F4, F5, F10 Amb-7, F13, P4).

P4: "Declared SPs and APs are consumed at resolution even when unnecessary, untriggered or
wasted. The one exception is a GM veto issued before close (F4 Amb-14)."
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from fappo_bot.rules.character import FLOATING, Character
from fappo_bot.rules.data import TRAIT_BY_VALUE, CustomTrait, Trait
from fappo_bot.rules.names import pool_key
from fappo_bot.rules.orders import Action, Order
from fappo_bot.rules.results import Where

TIRELESS = Trait.TIRELESS.value


Line = tuple[Where, int | None, str | None, int, str]
"""(where, index, canonical pool key or None if unknown, amount, the pool name as written)."""


def action_spends(action: Action) -> Iterator[tuple[str, int]]:
    """(written pool, amount) of one action: its `sp`, `cast_sp` and `attack_sp`."""
    for table in (action.sp, action.cast_sp, action.attack_sp):
        for name, amount in table.items():
            if amount > 0:
                yield name, amount


def declared_lines(order: Order) -> Iterator[Line]:
    """Every SP an order declares, in the order of its lines (actions, guard, reduce, endure)."""
    for i, action in enumerate(order.actions):
        sp, cast_sp, attack_sp = action.sp, action.cast_sp, action.attack_sp
        if not (sp or cast_sp or attack_sp):
            continue  # most actions declare no SP
        for table in (sp, cast_sp, attack_sp):  # as `action_spends`
            for name, amount in table.items():
                if amount > 0:
                    yield Where.ACTION, i, pool_key(name), amount, name
    for i, pledge in enumerate(order.guard):
        for name, amount in pledge.sp.items():
            if amount > 0:
                yield Where.GUARD, i, pool_key(name), amount, name
    for i, line in enumerate(order.reduce):
        for name, amount in line.sp.items():
            if amount > 0:
                yield Where.REDUCE, i, pool_key(name), amount, name
    if order.endure:
        yield Where.ENDURE, None, TIRELESS, 1, TIRELESS


def declares_sp(order: Order) -> bool:
    """Whether `declared_lines` has anything to yield (P4, F13: most orders spend no SP)."""
    if order.endure:
        return True
    for action in order.actions:
        if action.sp or action.cast_sp or action.attack_sp:
            return True
    for pledge in order.guard:
        if pledge.sp:
            return True
    reduce = order.reduce
    return bool(reduce) and any(line.sp for line in reduce)


def spent_key(name: str) -> str:
    """The pool a validated order's SP come from: a rulebook Trait's or the floating pool's
    canonical key, else the game's own Trait as the post named it (`Character.pool` compares
    those without case). Validation has refused every other name before SP are spent."""
    return pool_key(name) or name


def canonical(spend: dict[str, int]) -> dict[str, int]:
    """An SP map with canonical pool keys (a game's own Trait by its name, `spent_key`)."""
    out: dict[str, int] = {}
    for name, amount in spend.items():
        key = spent_key(name)
        if amount > 0:
            out[key] = out.get(key, 0) + amount
    return out


def vetoed_refund(action: Action, suggested: str | None) -> dict[str, int]:
    """SP a GM veto refunds: those from Traits other than the skill's Suggested Trait (F4 Amb-14).

    Floating SP need no explanation and are not vetoed.
    """
    if not action.sp_vetoed:
        return {}
    spend = canonical(action.sp)
    return {k: v for k, v in spend.items() if k not in (FLOATING, suggested)}


def pay(character: Character, spent: dict[str, int]) -> Character:
    """The character with `spent` SP taken out of its pools, never below 0 (F4)."""
    left = paid(character, spent)
    if left is None:
        return character
    traits, floating = left
    return replace(character, traits=traits, floating=floating)


def paid(character: Character, spent: dict[str, int]
         ) -> tuple[dict[Trait | CustomTrait, int], int] | None:
    """`pay` as the pools it leaves, the Traits' and the floating SP (None when nothing was
    spent), for one copy of the character with every change of the turn (F4)."""
    if not spent:
        return None
    traits = dict(character.traits)
    floating = character.floating
    for key, amount in spent.items():
        if key == FLOATING:
            floating = floating - amount if floating > amount else 0  # floor 0, no `max` call
            continue
        trait = TRAIT_BY_VALUE.get(key) or CustomTrait(key)
        if trait in traits:
            left = traits[trait] - amount
            traits[trait] = left if left > 0 else 0
    return traits, floating


def total_spend(order: Order) -> dict[str, int]:
    """All SP an order spends, by canonical pool (P4: spent even when wasted)."""
    out: dict[str, int] = {}
    tables = []
    for action in order.actions:
        for table in (action.sp, action.cast_sp, action.attack_sp):
            if table:
                tables.append(table)
    tables += [pledge.sp for pledge in order.guard if pledge.sp]
    tables += [line.sp for line in order.reduce if line.sp]
    for table in tables:  # the lines of `declared_lines`, without their places
        for name, amount in table.items():
            if amount > 0:
                key = spent_key(name)
                out[key] = out.get(key, 0) + amount
    if order.endure:
        out[TIRELESS] = out.get(TIRELESS, 0) + 1
    return out
