"""What a resolution discloses, and to whom (F29: the sealed NPC orders).

- The NPC reveal: the sealed orders in the canonical form of a post reply, the commitment, the
  salt and how to check. The canonical JSON exactly as hashed stays with the turn (the `reveal`
  use case and the game's export give it), not in the channel: two kilobytes of JSON
  for every seat on every turn.
- The results: the public part (no parties-only order, no allocation that must stay hidden)
  and the parties' part (F29 secret PvP, R2 `hide_all_allocations`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, replace

from pydantic import TypeAdapter

from fappo_bot.posting.render import render_order
from fappo_bot.posting.safety import inert
from fappo_bot.rules import (
    ActionResult,
    Character,
    Order,
    PendingHit,
    TurnResult,
    TurnState,
    order_budget,
)
from fappo_bot.service import notices
from fappo_bot.service.records import CharacterRecord, Game, ResultsVisibility
from fappo_bot.service.scene import InForce, player_run

_ORDERS: TypeAdapter[tuple[Order, ...]] = TypeAdapter(tuple[Order, ...])


def sealed_orders(canonical: str) -> list[Order]:
    """The NPC orders back from their canonical JSON (`scene.canonical_orders`)."""
    return list(_ORDERS.validate_json(canonical))


def readable_orders(canonical: str) -> tuple[str, ...]:
    """Each sealed order as a post's reply shows it, without the sheet's budget (`render_order`
    of the order alone): what a reader checks the JSON against. Empty for orders sealed by an
    older version that this one cannot read back (their JSON still checks)."""
    try:
        orders = sealed_orders(canonical)
    except ValueError:
        return ()
    return tuple(inert(render_order(order)) for order in orders)


def reveal_messages(number: int, digest: str, salt: str, canonical: str,
                    state: TurnState, orders: Sequence[Order] | None = None
                    ) -> notices.Revealed:
    """The reveal of the NPC orders sealed for turn `number` (F29): the orders as the
    GM's post reply showed them (`render_order`, with each character's AP budget and ratings at
    the start of the turn in `state`, its own Reduce lines settled as when it was posted), the
    SHA-256 commitment, the salt and how to check.

    The reply's last line, the SP each pool keeps, is left out: it tells the NPC's remaining
    pools, which are the GM's and no part of the orders sealed. `orders`: the orders
    `canonical` was just made of, in its order (sorted by actor), when the caller has them;
    else they are read back from it."""
    rendered: list[str] = []
    try:
        if orders is None:
            orders = sealed_orders(canonical)
    except ValueError:  # sealed by an older version of the orders: the JSON below still checks
        orders = []
        rendered.append("(these orders cannot be shown as a reply; the canonical JSON is what "
                        "was sealed)")
    by_key: dict[str, Character] = {}
    for someone in state.characters:  # as `state.character`, without a scan per order
        by_key.setdefault(someone.name.casefold(), someone)
    for order in orders:
        character = by_key.get(order.actor.casefold())
        budget = order_budget(state, character, order) if character is not None else None
        rendered.append(render_order(order, character, budget, state.pending,
                                     show_sp_left=False))
    return notices.revealed(number, digest, salt, rendered)


# ---- results: who sees what (F29) ----------------------------------------------------------------
_ALLOCATION_NOTE = re.compile(r"\b(AP|SP)\b")


@dataclass(frozen=True)
class Audiences:
    """Who may see what of one resolution (case-folded character names).

    - `parties_only`: actors whose results go only to the parties and the GMs (F29: secret PvP
      orders with results "parties-only", the default `results_visibility`).
    - `masked`: characters whose AP/SP allocations the public results must not show: the
      secret orders' actors shown publicly and, with `hide_all_allocations` (R2), every
      player-run character. Actions by or against them show only their outcome.
    """

    parties_only: frozenset[str]
    masked: frozenset[str]


def audiences(secret: Set[str], pvp: Set[str], players: Set[str], *, parties_only: bool,
              hide_all: bool) -> Audiences:
    """F29 and its Amb-4, R2: `secret` are the actors of orders sent by DM, `pvp` those of them
    whose orders concern another player's character, `players` every player-run character.

    Only PvP orders are the parties' (F29: "results published per GM choice: public |
    parties-only"): with `results_visibility: parties` their results go to the parties alone,
    with `public` the room sees their outcomes. A secret order that targets no other player's
    character is public once the turn resolves, with its numbers (F29 Amb-4: non-PvP
    allocations are public by default), outcomes only with `hide_all_allocations`."""
    masked = set(pvp) | ((set(secret) | set(players)) if hide_all else set())
    return Audiences(frozenset(pvp if parties_only else ()), frozenset(masked))


def turn_audiences(game: Game, records: Sequence[CharacterRecord],
                   in_force: Mapping[str, InForce]) -> Audiences:
    """`audiences` of one turn: its orders in force (`secret`: those sent by DM), the game's
    characters and its settings."""
    secret = {k for k, f in in_force.items() if f.post.secret}
    runner_of = {r.name.casefold(): r.runner() for r in records}
    return audiences(
        secret,
        pvp_actors(secret, {k: f.order for k, f in in_force.items()}, runner_of),
        {r.name.casefold() for r in player_run(records)},
        parties_only=game.settings.results_visibility is ResultsVisibility.PARTIES,
        hide_all=game.rules.hide_all_allocations,
    )


def public_hits(pending: Sequence[PendingHit], hidden: Set[str]) -> tuple[PendingHit, ...]:
    """The hits open to Reduce that everyone may see: none dealt by a parties-only actor
    (`hidden`, case-folded), as `public_result` shows no such hit (F29)."""
    return tuple(h for h in pending if (h.attacker or "").casefold() not in hidden)


def party_names(action: ActionResult) -> set[str]:
    names = {action.actor, *(t.name for t in action.targets)}
    if action.target:
        names.add(action.target)
    return {n.casefold() for n in names}


def _outcome_only(action: ActionResult) -> ActionResult:
    """An action without the numbers that tell allocations: totals, difficulties, margins and
    Guard levels (the AP and SP behind them); success level, damage and effects stay."""
    targets = tuple(replace(t, total=None, difficulty=None, margin=None, em=None)
                    for t in action.targets)
    notes = tuple(n for n in action.notes if not _ALLOCATION_NOTE.search(n))
    return replace(action, total=None, difficulty=None, margin=None, em=None, targets=targets,
                   pledged=0, notes=notes)


def public_result(result: TurnResult, seen: Audiences) -> TurnResult:
    """The part of a resolution everyone may see (F29): no action, refusal, hit or event of a
    parties-only order or of its parties, and only outcomes where a masked character acts or is
    the target. `result` itself when nobody is parties-only or masked."""
    hidden = seen.parties_only
    if not hidden and not seen.masked:
        return result
    parties: set[str] = set(hidden)
    for action in result.actions:
        if action.actor.casefold() in hidden:
            parties |= party_names(action)
    actions = tuple(
        _outcome_only(a) if party_names(a) & seen.masked else a
        for a in result.actions if a.actor.casefold() not in hidden)
    errors = tuple(
        replace(e, message="the GM has the details")
        if e.actor.casefold() in seen.masked else e
        for e in result.errors if e.actor.casefold() not in hidden)
    hits = tuple(h for h in result.hits
                 if (h.attacker or "").casefold() not in hidden)
    events = tuple(e for e in result.events if e.character.casefold() not in parties)
    return replace(result, actions=actions, errors=errors, hits=hits, events=events)


def private_result(result: TurnResult, hidden: Set[str]) -> TurnResult:
    """The parties-only part of a resolution: the hidden actors' actions and refusals (each
    party's DM narrows it further to its own characters: `results_report.turn_blocks`' audience)."""
    return replace(
        result,
        actions=tuple(a for a in result.actions if a.actor.casefold() in hidden),
        errors=tuple(e for e in result.errors if e.actor.casefold() in hidden),
    )


def concerns(action: ActionResult, names: Set[str]) -> bool:
    """Whether a party of `action` is one of `names` (case-folded)."""
    return bool(party_names(action) & names)


def pvp_actors(secret: Set[str], orders: Mapping[str, Order],
               runners: Mapping[str, str | None]) -> set[str]:
    """The secret actors whose orders concern another player's character (F29 Rule: "if an
    action targets a PC controlled by another player"). `orders` and `runners` (the user who
    gives a character's orders, None for the GMs) are keyed by case-folded name."""
    found: set[str] = set()
    for key in secret:
        order = orders.get(key)
        if order is None:
            continue
        mine = runners.get(key)
        named: list[str | None] = [p.against for p in order.guard]
        for action in order.actions:
            named.extend((action.target, action.against, *(action.targets or ())))
        for name in named:
            other = runners.get(name.casefold()) if name else None
            if other is not None and other != mine:
                found.add(key)
    return found
