"""The Dying countdown and stabilizing (RULINGS F15). Pure helpers the resolution engine calls.

[F:L180] "Dying characters will fall Dead if they don't receive two full turns of attention from
someone with the Healing skill, or two Success Points from someone with the traits Sagacious or
Highborn, within ten combat turns of being knocked out. These two turns do not require skill
checks, just attendance. Success stabilizes the character at Dying, allowing him to heal as
normal."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from fappo_bot.rules.character import Character, Status, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import PIP_THRESHOLDS, Trait
from fappo_bot.rules.healing import DEAD, is_stabilized
from fappo_bot.rules.health import is_dying, track, uses_pips
from fappo_bot.rules.results import RulesError

DYING_TURNS = 10
"""[F:L180] "within ten combat turns of being knocked out" (turns K+1 .. K+10, Amb-1)."""
ATTENTION_TURNS_NEEDED = 2
"""[F:L180] "two full turns of attention"."""
STABILIZE_SP = 2
"""[F:L180] "two Success Points from someone with the traits Sagacious or Highborn"."""
STABILIZING_TRAITS = frozenset({Trait.SAGACIOUS, Trait.HIGHBORN})
HEALING_SKILL = "Healing"


def dying_deadline(k_turn: int) -> int:
    """The last turn to stabilize: death is checked at the end of turn K + 10 (F15 Amb-1)."""
    return k_turn + DYING_TURNS


@dataclass(frozen=True, slots=True, kw_only=True)
class Qualification:
    """Whether a helper's turn counts toward stabilizing, and why not."""

    ok: bool
    reason: str | None = None


def _no(reason: str) -> Qualification:
    return Qualification(ok=False, reason=reason)


def qualifies_attendance(
    attendant: Character, *, distance: int, ap_spent: int, ap_budget: int
) -> Qualification:
    """A "full turn of attention" (F15 Amb-3): Healing >= 1, adjacent (distance 0) at the start
    of the turn, and ALL its AP (at least 1) allocated to attending."""
    if attendant.skills.get(HEALING_SKILL, 0) < 1:
        return _no(f"{attendant.name} has no Healing skill: attention must come \"from someone "
                   "with the Healing skill\" [F:L180].")
    if distance != 0:
        return _no(f"{attendant.name} must be next to the patient (distance 0) at the start of "
                   "the turn to attend.")
    if ap_budget < 1 or ap_spent < ap_budget:
        return _no(f"A full turn of attention takes all of {attendant.name}'s AP "
                   f"({ap_spent} of {ap_budget} allocated).")
    return Qualification(ok=True)


def qualifies_sp_route(
    helper: Character, *, distance: int, ap_spent: int, sp_spent: Mapping[str, int]
) -> Qualification:
    """The 2-SP route (F15 Amb-4, Amb-5, Amb-10): a helper owning Sagacious or Highborn, adjacent,
    with at least 1 AP on "stabilize", spends 2 SP from any of its pools in one turn."""
    if not any(helper.owns(t) for t in STABILIZING_TRAITS):
        return _no(f"{helper.name} owns neither Sagacious nor Highborn: the SP must come \"from "
                   "someone with the traits Sagacious or Highborn\" [F:L180].")
    if distance != 0:
        return _no(f"{helper.name} must be next to the patient (distance 0) to stabilize it.")
    if ap_spent < 1:
        return _no("Stabilizing with SP is an action: put at least 1 AP on it (F15 Amb-10).")
    total = sum(n for n in sp_spent.values() if n > 0)
    if total < STABILIZE_SP:
        return _no(f"Stabilizing takes {STABILIZE_SP} SP in one turn ({total} declared).")
    short = [k for k, n in sp_spent.items() if n > 0 and helper.pool(k) < n]
    if short:
        return _no(f"{helper.name} does not have the SP declared from {', '.join(short)}.")
    return Qualification(ok=True)


class DyingState(StrEnum):
    """Where a Dying character stands at the end of a turn."""

    DYING = "dying"
    STABILIZED = "stabilized"
    DEAD = "dead"


@dataclass(frozen=True, slots=True, kw_only=True)
class DyingOutcome:
    """The character after one turn of the countdown, and its state."""

    character: Character
    state: DyingState
    #: turns left before death at the end of K + 10 (0 once stabilized or dead)
    turns_left: int


def advance_dying(
    character: Character,
    *,
    attended: bool = False,
    sp_route: bool = False,
    config: RulesConfig | None = None,
) -> DyingOutcome:
    """End-of-turn update of a character at a final Dying (F15 Rule).

    `character.dying_turns` counts turns already spent at Dying (turn K+1 is the first) and
    `attended_turns` the qualifying turns of attention (any attendants, not necessarily
    consecutive, each turn once, Amb-2). Stabilized when attention reaches 2 or the SP route
    succeeds; otherwise Dead at the end of turn K + 10. A stabilized character stays put.
    """
    cfg = config or RulesConfig()
    if not is_dying(character, cfg):
        raise RulesError("not-dying", f"{character.name} is not Dying.", "target")
    if is_stabilized(character):
        return DyingOutcome(character=character, state=DyingState.STABILIZED, turns_left=0)
    turns = character.dying_turns + 1
    attention = character.attended_turns + (1 if attended else 0)
    if sp_route or attention >= ATTENTION_TURNS_NEEDED:
        stable = replace(character, dying_turns=turns, attended_turns=attention, statuses=character.statuses + (Status(kind=StatusKind.STABILIZED),), heal_elapsed=0)
        return DyingOutcome(character=stable, state=DyingState.STABILIZED, turns_left=0)
    if turns >= DYING_TURNS:
        return DyingOutcome(character=kill(character, cfg), state=DyingState.DEAD, turns_left=0)
    return DyingOutcome(
        character=replace(character, dying_turns=turns, attended_turns=attention),
        state=DyingState.DYING,
        turns_left=DYING_TURNS - turns,
    )


def kill(character: Character, config: RulesConfig | None = None) -> Character:
    """The character moved to its track's Dead level (pips: all 16 filled)."""
    cfg = config or RulesConfig()
    names = track(character)
    pips = PIP_THRESHOLDS[-1] if uses_pips(character, cfg) else character.pips
    return replace(character, health=names.index(DEAD), heal_elapsed=0, pips=pips)
