"""Finalising the last resolution's provisional hits with this turn's reductions (RULINGS F7
step 2, F10 Amb-3, F13).

[F:L199] "Characters can reduce incoming damage by up to two levels per attack by spending Success
Points on a one-to-one basis from any Trait." [F:L231] "After the attack occurs, the defender
declares the use of SPs to reduce damage in the same post as declaring his next action."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

from fappo_bot.rules.character import Character, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import PIP_THRESHOLDS
from fappo_bot.rules.fodder import ELIMINATION
from fappo_bot.rules.health import (
    apply_damage,
    current_index,
    index_of_level,
    is_dying,
    uses_pips,
)
from fappo_bot.rules.names import fold
from fappo_bot.rules.orders import Order, PendingHit
from fappo_bot.rules.results import ErrorCode, OrderError, Where

MAX_REDUCTION = 2
"""[F:L199] "up to two levels per attack"."""


class Finalized(NamedTuple):
    """A character after its pending hits were settled, and whether it moved down (shock)."""

    character: Character
    moved_down: bool
    dying_started: bool


def hits_on(pending: Sequence[PendingHit], name: str) -> list[PendingHit]:
    """The pending hits that target the character called `name`."""
    key = fold(name)
    return [h for h in pending if fold(h.target) == key]


def reductions_of(order: Order | None) -> dict[str, int]:
    """Levels each hit is reduced by in an order's Reduce lines (1 SP per level, F13)."""
    if order is None:
        return {}
    out: dict[str, int] = {}
    for line in order.reduce:
        key = fold(line.hit)
        out[key] = out.get(key, 0) + sum(v for v in line.sp.values() if v > 0)
    return out


def settled(character: Character) -> Character:
    """The character as it stood before its provisional hits were shown on it (F13)."""
    health, pips = character.settled_health, character.settled_pips
    if health is None and pips is None:
        return character
    return replace(
        character,
        health=character.health if health is None else health, settled_health=None,
        pips=character.pips if pips is None else pips, settled_pips=None,
    )


def finalize(
    character: Character,
    hits: Sequence[PendingHit],
    reductions: Mapping[str, int],
    config: RulesConfig,
) -> Finalized:
    """Apply each pending hit less its reduction (capped at 2 and at the hit) (F7 step 2).

    Shock comes from the net result only: a character who reduced every level did not move down
    (F10 Amb-3). With no pending hits the character's own `shock` flag stands. The Dying clock
    starts when the final level is Dying and the character was not Dying before (F15 Amb-6).
    """
    if character.is_fodder and any(h.source == ELIMINATION for h in hits):
        character, hits = _restored(character, hits, reductions)
    if not hits:
        base = character
        if character.settled_health is not None or character.settled_pips is not None or (
                character.settled_count is not None):
            base = replace(character, settled_health=None, settled_pips=None, settled_count=None)
        return Finalized(base, base.shock, False)
    start = settled(character)
    before = _position(start, config)
    net = 0
    for hit in hits:
        net += hit.levels - _cut(hit, reductions)
    was_dying = is_dying(start, config)
    after = apply_damage(start, net, config)
    moved = _position(after, config) > before
    started = is_dying(after, config) and not was_dying
    if started:  # the Dying clock starts (F15 Amb-6)
        return Finalized(replace(after, shock=moved, dying_turns=0, attended_turns=0),
                         moved, started)
    return Finalized(replace(after, shock=moved), moved, started)


def _restored(
    group: Character, hits: Sequence[PendingHit], reductions: Mapping[str, int]
) -> tuple[Character, list[PendingHit]]:
    """`fodder_can_reduce` (F13 Amb-8, R2): a group's eliminations, provisional until now, are
    settled less what its Reduce lines save (1 SP a creature, up to 2 per attack), from the count
    before them (`settled_count`, or `count` in a case file). Returns the group and its other
    hits."""
    start = group.settled_count if group.settled_count is not None else group.count
    net = sum(h.levels - _cut(h, reductions) for h in hits if h.source == ELIMINATION)
    group = replace(group, count=max(0, start - net), settled_count=None)
    return group, [h for h in hits if h.source != ELIMINATION]


def _cut(hit: PendingHit, reductions: Mapping[str, int]) -> int:
    """Levels (or creatures) a hit is reduced by: capped at 2 and at the hit (F13)."""
    return min(MAX_REDUCTION, hit.levels, max(0, reductions.get(fold(hit.id), 0)))


def fodder_reduce_refusals(
    config: RulesConfig, actor: Character, order: Order
) -> list[OrderError]:
    """A nuisance or minion group's Reduce lines while `fodder_can_reduce` is off (F13 Amb-8:
    "no post-hoc reduction"), each refused; none otherwise."""
    if config.fodder_can_reduce or not actor.is_fodder:
        return []
    return [
        OrderError(
            actor=actor.name, code=ErrorCode.REDUCE_OVER_LIMIT, where=Where.REDUCE, index=i,
            message=(f"Reduce: {actor.name} is a group of {actor.tier.value}s, and this game "
                     "does not let nuisances or minions reduce: their eliminations are final "
                     "(fodder_can_reduce is off, F13 Amb-8)."),
            words=line.hit, expected="no Reduce line for a nuisance or minion group",
            hint="Drop the Reduce line; the GM may turn fodder_can_reduce on for the game.",
        )
        for i, line in enumerate(order.reduce)
    ]


def finalized_for(
    character: Character, hits: Sequence[PendingHit], order: Order | None, config: RulesConfig
) -> Character:
    """F7 step 2 for one character: its pending `hits` settled with the Reduce lines of its
    `order` this turn (None: no order, nothing reduced). What validation checks the order
    against, what the budget of a post is computed on, and what resolution starts from."""
    if not hits and not unsettled(character):
        return character  # `finalize` changes nothing (most characters, most turns)
    return finalize(character, hits, reductions_of(order), config).character


def unsettled(character: Character) -> bool:
    """Whether the character shows provisional hits that step 2 settles even with no pending hit
    left (F13): without them and without hits, `finalized_for` returns the character itself."""
    return (character.settled_health is not None or character.settled_pips is not None
            or character.settled_count is not None)


def _position(character: Character, config: RulesConfig) -> int:
    """Track position for "moved down": pips where the pips option applies (F10 Amb-5)."""
    return character.pips if uses_pips(character, config) else current_index(character, config)


def bleed_out(character: Character, config: RulesConfig) -> Character:
    """After the combat ended, a bleeding wound keeps its victim at Incapacitated at best (F18.2):
    when step 2 settles hits of the last resolution from above that level, the drop is applied
    again, remembering the settled level for binding."""
    bleeding = next((s for s in character.statuses if s.kind is StatusKind.BLEEDING), None)
    if bleeding is None or bleeding.restore_to is None:
        return character
    incap = index_of_level(character.track_kind, "Incapacitated")
    index = current_index(character, config)
    if incap is None or index >= incap:
        return character
    statuses = tuple(
        replace(s, restore_to=index) if s is bleeding else s
        for s in character.statuses
    )
    pips = PIP_THRESHOLDS[incap] if uses_pips(character, config) else character.pips
    return replace(character, health=incap, statuses=statuses, pips=pips)
