"""Reductions made for a player who did not post (RULINGS F30 Amb-4, R2 `auto_reduce_on_absence`).

[F:L231] "After the attack occurs, the defender declares the use of SPs to reduce damage in the same
post as declaring his next action." F30: "no post: ... NO post-hoc reductions for turn N-1 events
(forfeited, F13)"; Amb-4: "Forfeiting reductions is harsh. ... Config `auto_reduce_on_absence`".

With the flag on, a player character (tier PC) that gives no order this turn reduces each of its
pending hits as far as its SP allow, as its player could have declared: up to two levels per hit
and never more than the hit dealt (F13), 1 SP per level from any Trait, floating SP last and only
where `floating_sp_for_reduction` lets them (F13 Amb-1). The pools are drawn fullest first (ties in
the canonical Trait order), so that no Trait is emptied while another has more left. The result is
an order of Reduce lines alone, validated and paid like any other (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import FLOATING, Character
from fappo_bot.rules.data import CustomTrait, Tier, Trait
from fappo_bot.rules.finalize import MAX_REDUCTION
from fappo_bot.rules.names import Roster
from fappo_bot.rules.orders import Order, PendingHit, Reduction
from fappo_bot.rules.results import TurnState

WHY = "no post this turn: reduced by the bot (auto_reduce_on_absence, F30 Amb-4)"
_TRAIT_ORDER: dict[Trait | CustomTrait, int] = {trait: i for i, trait in enumerate(Trait)}


def absent_reductions(state: TurnState, orders: Sequence[Order]) -> tuple[Order, ...]:
    """The Reduce-only orders of the player characters that gave no order this turn and have
    pending hits (empty unless `auto_reduce_on_absence`). A character whose order was refused
    did post: its refused order forfeits the window as a pass does (docs/rulings.md)."""
    if not state.config.auto_reduce_on_absence or not state.pending:
        return ()
    roster = Roster(state.characters, state.pending)
    posted = set()
    for order in orders:
        found = roster.get(order.actor)
        if found is not None:
            posted.add(found.name)
    out: list[Order] = []
    for character in state.characters:
        if character.tier is not Tier.PC or character.name in posted:
            continue
        lines = planned_reductions(character, roster.hits(character.name),
                                   floating=state.config.floating_sp_for_reduction)
        if lines:
            out.append(Order(actor=character.name, reduce=lines))
    return tuple(out)


def planned_reductions(character: Character, hits: Sequence[PendingHit], *,
                       floating: bool) -> tuple[Reduction, ...]:
    """Reduce lines for `hits` in their order: each as far as the cap and the SP left allow."""
    left = {trait.value: sp for trait, sp in sorted(
        character.traits.items(), key=_in_order) if sp > 0}
    spare = character.floating if floating else 0
    lines: list[Reduction] = []
    for hit in hits:
        want = min(MAX_REDUCTION, hit.levels)
        spend: dict[str, int] = {}
        while want > 0:
            fullest = max(left, key=lambda key: left[key], default=None)  # first of the ties
            if fullest is not None and left[fullest] > 0:
                left[fullest] -= 1
                spend[fullest] = spend.get(fullest, 0) + 1
            elif spare > 0:
                spare -= 1
                spend[FLOATING] = spend.get(FLOATING, 0) + 1
            else:
                break
            want -= 1
        if spend:
            lines.append(Reduction(hit=hit.id, sp=spend, why=WHY))
    return tuple(lines)


def note_absent_reductions(orders: Sequence[Order], changes: Changes) -> None:
    """One event per hit the bot reduced for an absent player, for the turn's results."""
    for order in orders:
        for line in order.reduce:
            spent = ", ".join(f"{amount} {pool}" for pool, amount in line.sp.items())
            changes.event("reduced for the absent player", order.actor,
                          f"hit {line.hit}, {spent} SP (auto_reduce_on_absence, F30)",
                          levels=sum(line.sp.values()))


def _in_order(item: tuple[Trait | CustomTrait, int]) -> tuple[int, str]:
    """The rulebook's Traits in its order, then a game's own by name."""
    trait = item[0]
    return _TRAIT_ORDER.get(trait, len(_TRAIT_ORDER)), trait.value.casefold()
