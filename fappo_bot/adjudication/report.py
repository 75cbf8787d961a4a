"""Computed results as plain data in the shape of a case's `expect` (spec/cases.md).

These dicts are what `compare` checks and what `fappo-bot adjudicate --json` prints: every field
of every action, character and error, not only the expected ones.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from fappo_bot.rules import (
    Action,
    ActionResult,
    Character,
    Order,
    OrderError,
    Roster,
    RulesConfig,
    SuccessLevel,
    TargetResult,
    TurnResult,
    fold,
)


def level_label(level: SuccessLevel | None) -> str | None:
    """`abject`, `failure`, `bare`, `solid`, `great` (or None when nothing was rolled)."""
    return level.label if level is not None else None


def target_dict(target: TargetResult) -> dict[str, Any]:
    """The attack stage against one creature (F19, F25)."""
    return {
        "name": target.name,
        "total": target.total,
        "difficulty": target.difficulty,
        "margin": target.margin,
        "level": level_label(target.level),
        "damage": target.damage,
        "specials": [str(s) for s in target.specials],
        "eliminated": target.eliminated,
        "effective": target.effective,
    }


def action_dict(action: ActionResult) -> dict[str, Any]:
    """One action's result; for a cast the top-level fields are the casting stage (F25)."""
    return {
        "actor": action.actor,
        "index": action.index,
        "kind": action.kind,
        "target": action.target,
        "total": action.total,
        "difficulty": action.difficulty,
        "margin": action.margin,
        "level": level_label(action.level),
        "damage": action.damage,
        "specials": [str(s) for s in action.specials],
        "eliminated": action.eliminated,
        "effective": action.effective,
        "targets": [target_dict(t) for t in action.targets],
        "notes": list(action.notes),
    }


def sp_dict(character: Character) -> dict[str, int]:
    """SP left in each owned Trait, by canonical name."""
    return {trait.value: sp for trait, sp in character.traits.items()}


def character_dict(character: Character, config: RulesConfig) -> dict[str, Any]:
    """A character as `expect.characters` lists it (F10, F11): health by level name (Master slots
    numbered; a wiped-out fodder group is Dead), AP next turn as things stand, statuses in force from the next turn, and the pips
    filled where the pips option applies to the character (else 0: no pips are filled, as the
    spec's own example lists `damage: 0` for a goblin without pips)."""
    from fappo_bot.rules import ap_next, level_name, uses_pips

    return {
        "name": character.name,
        # a fodder group with no creature left is Dead (Amendments 2026-12-01, reporting)
        "health": "Dead" if character.is_fodder and character.count <= 0
        else level_name(character, config),
        "count": character.count,
        "sp": sp_dict(character),
        "floating": character.floating,
        "ap_next": ap_next(character, config),
        "status": [s.kind.value for s in character.statuses],
        "damage": character.pips if uses_pips(character, config) else 0,
    }


def error_dict(error: OrderError) -> dict[str, Any]:
    """A validation problem of an order: the actor, the code and the player-facing message."""
    out: dict[str, Any] = {
        "actor": error.actor,
        "code": error.code.value,
        "message": error.message,
        "where": error.where.value,
    }
    if error.index is not None:
        out["index"] = error.index
    return out


def turn_dict(result: TurnResult, orders: Sequence[Order] = (),
              refused_posts: Sequence[Order] = ()) -> dict[str, Any]:
    """The whole computed result of a turn case: actions, characters (after resolution, this
    resolution's hits provisional) and errors. Every action of every order is reported: those of
    a refused order with `effective: false` (RULINGS Amendments 2026-12-01, reporting)."""
    config = result.state.config
    actions = list(result.actions) + refused_actions(result, orders, refused_posts)
    actions.sort(key=lambda a: (fold(a.actor), a.index))
    return {
        "actions": [action_dict(a) for a in actions],
        "characters": [character_dict(c, config) for c in result.state.characters],
        "errors": [error_dict(e) for e in result.errors],
    }


def refused_actions(result: TurnResult, orders: Sequence[Order],
                    refused_posts: Sequence[Order] = ()) -> list[ActionResult]:
    """The actions of the orders validation refused (`orders` whose actor has errors, and the
    orders of posts refused for their problems): none of them resolved."""
    refused = {fold(e.actor) for e in result.errors}
    if not refused and not refused_posts:
        return []
    roster = Roster(result.state.characters)
    reported = {fold(a.actor) for a in result.actions}
    out: list[ActionResult] = []
    for order, whole in [(o, False) for o in orders] + [(o, True) for o in refused_posts]:
        found = roster.get(order.actor)
        name = found.name if found is not None else order.actor
        if (not whole and fold(name) not in refused) or fold(name) in reported:
            continue
        reported.add(fold(name))
        out.extend(
            ActionResult(actor=name, index=i, kind=action.kind.value, target=action.target,
                         effective=False, notes=("order refused",))
            for i, action in enumerate(order.actions)
        )
    return out


# ---- orders in the case format -----------------------------------------------------------------
_ACTION_ORDER = (
    "kind", "ap", "target", "targets", "weapon", "skill", "special", "against", "difficulty",
    "ranges", "toward", "away", "item", "spell", "effects", "accuracy", "cast_sp", "attack_sp",
    "sp", "why", "modifier", "claim", "if", "triggered",
)


@functools.cache
def _action_adapter() -> TypeAdapter[Action]:
    """Built at the first use, not at import: only parse cases and `--json` dump actions."""
    return TypeAdapter(Action)


def action_case_dict(action: Action) -> dict[str, Any]:
    """An action in the `orders` schema of spec/cases.md: only the fields that are set."""
    data = _action_adapter().dump_python(action, mode="json", by_alias=True, exclude_defaults=True)
    data["kind"] = action.kind.value
    ordered = {k: data.pop(k) for k in _ACTION_ORDER if k in data}
    ordered.update(data)
    return ordered


def order_case_dict(order: Order) -> dict[str, Any]:
    """An order in the `orders` schema (actor, actions, guard, reduce, endure, intent, ooc): the
    post language's own rendering (`posting.models.order_to_case`), with every set field of each
    action, the order's empty fields filled in and the explicit pass."""
    # here, not at the top: a turn case without posts reads no post language
    from fappo_bot.posting.models import order_to_case

    out = order_to_case(order)
    out["actions"] = [action_case_dict(a) for a in order.actions]
    # `--json` gives every field of the expect shape (spec/cases.md), also the empty ones.
    for key, empty in (("guard", []), ("reduce", []), ("endure", False), ("intent", ""), ("ooc", "")):
        out.setdefault(key, empty)
    if order.passed:
        out["passed"] = True
    return out

