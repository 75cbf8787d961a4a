"""Healing checks posted in a turn (RULINGS F14): a Healing skill use on a wounded patient is
the level episode's one Healing check, which halves the level's time on a Solid Success or
better.

[F:L201] "Successful use of the Healing skill versus the difficulty number given in the list
above will cut the time to heal one level in half ... This check can only be made once per
health level, and must result in a Solid Success or better."

`resolve_turn` leaves a Healing skill use an ordinary skill use (the case format's results are
unchanged); the play use case (the service's resolve) passes its result through
`with_healing_checks`, which grades each check against the patient's level after the turn, with
the healer's total (skill + AP + modifiers) and SP (Sagacious, Healing's Suggested Trait, counts
double and protects, F14 Amb-6), and writes it on the patient's heal clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from fappo_bot.rules.data import Trait
from fappo_bot.rules.healing import HealingCheck, heal, level_index
from fappo_bot.rules.names import fold
from fappo_bot.rules.orders import Action, ActionKind, Order
from fappo_bot.rules.results import Event, RulesError, TurnResult

HEALING = "healing"


def healing_check(healer: str, action: Action, total: int, sagacious: bool) -> HealingCheck:
    """The Healing check an action makes: its total, its SP, whether the healer is Sagacious."""
    return HealingCheck(total=total, sp={k: v for k, v in action.sp.items() if v},
                        sagacious=sagacious, healer=healer)


def with_healing_checks(result: TurnResult, orders: Sequence[Order]) -> TurnResult:
    """`result` with every posted Healing check on a wounded patient written on the patient's
    heal clock (F14), each told as a `healing_check` event (or `healing_refused`: the patient
    healed themselves, or had this level's check already, F14 Amb-3 and Amb-5)."""
    by_actor = {fold(o.actor): o for o in orders}
    state = result.state
    characters = {fold(c.name): c for c in state.characters}
    events: list[Event] = []
    for done in result.actions:
        order = by_actor.get(fold(done.actor))
        if order is None or done.index >= len(order.actions) or done.total is None \
                or not done.effective:
            continue
        action = order.actions[done.index]
        if action.kind is not ActionKind.SKILL or fold(action.skill or "") != HEALING \
                or not action.target:
            continue
        patient = characters.get(fold(action.target))
        healer = characters.get(fold(done.actor))
        if patient is None or healer is None or patient.is_fodder \
                or level_index(patient, state.config) == 0:
            continue
        check = healing_check(healer.name, action, done.total, healer.owns(Trait.SAGACIOUS))
        try:
            outcome = heal(patient, 0, check=check, config=state.config)
        except RulesError as exc:
            events.append(Event("healing_refused", patient.name, str(exc)))
            continue
        if outcome.check_level is None:  # a level that needs no check (F14 Amb-8)
            continue
        characters[fold(patient.name)] = outcome.character
        halves = "halves" if outcome.character.heal_halved else "does not halve"
        events.append(Event("healing_check", patient.name,
                            f"{healer.name}'s Healing check, {outcome.check_level.title}: "
                            f"{halves} the time to heal {outcome.start_level} (F14)"))
    if not events:
        return result
    new_state = replace(state, characters=tuple(characters[fold(c.name)]
                                                for c in state.characters))
    return replace(result, state=new_state, events=result.events + tuple(events))
