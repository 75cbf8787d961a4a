"""The GM's review answers written into a turn: the orders with each action's answers, and
the turn-wide inputs (R1) with the end positions and the turn-wide rulings
(`review_rulings`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from fappo_bot.rules import GMInputs, Order
from fappo_bot.service.review_coerce import Question
from fappo_bot.service.review_rulings import TURN_FIELDS, with_turn_answers, written
from fappo_bot.service.scene import InForce


def apply_answers(in_force: Mapping[str, InForce], items: Sequence[Question],
                  base: GMInputs) -> tuple[list[Order], GMInputs]:
    """The orders with the GM's answers written into their actions, and the turn's inputs."""
    by_actor: dict[str, dict[int, dict[str, Any]]] = {}
    positions = dict(base.end_positions)
    turn_wide: list[tuple[str, str, bool]] = []
    accepted: set[str] = set()  # actors whose good case the GM accepted (F8)
    for item in items:
        if item.answer is None:
            continue
        if item.index is None and item.field == "good_case":
            if item.answer:
                accepted.add(item.actor)
            continue
        if item.index is None and item.field in TURN_FIELDS:
            turn_wide.append((item.field, item.actor, bool(item.answer)))
            continue
        if item.field == "end_position":
            positions[item.actor] = item.answer
            continue
        by_actor.setdefault(item.actor, {}).setdefault(item.index or 0, {})[item.field] = \
            item.answer
    orders: list[Order] = []
    for found in in_force.values():
        order = found.order
        if order.actor in accepted:  # the GM lifts concentration's exclusivity (F8 Amb-3)
            order = replace(order, actions=tuple(replace(a, concentration_ok=True)
                                                 for a in order.actions))
        changes = by_actor.get(order.actor)
        if not changes:
            orders.append(order)
            continue
        actions = []
        for i, action in enumerate(order.actions):
            update: dict[str, Any] = {}
            for field, answer in changes.get(i, {}).items():
                if field == "claim":
                    if answer and action.claim is not None:
                        update["modifier"] = action.modifier + action.claim.value
                elif field == "veto":
                    update["sp_vetoed"] = bool(answer)
                elif field == "invoke":
                    update["invoke"] = None if answer == "none" else answer
                elif field == "targets":
                    update["targets"] = tuple(answer)
                elif field in {"part", "profile"}:
                    update[field] = written(field, answer)
                else:
                    update[field] = answer
            actions.append(replace(action, **update) if update else action)
        orders.append(replace(order, actions=tuple(actions)))
    return orders, with_turn_answers(replace(base, end_positions=positions), turn_wide)
