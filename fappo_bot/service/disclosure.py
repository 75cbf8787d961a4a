"""What a resolution discloses, and to whom (F29; issue 5: the sealed NPC orders).

- The NPC reveal: the sealed orders in the canonical form of a post reply, the commitment, the
  salt, how to check, and the canonical JSON exactly as hashed in code blocks.
"""

from __future__ import annotations

import json

from fappo_bot.posting.render import render_order
from fappo_bot.rules.health import ap_budget
from fappo_bot.rules.orders import Order
from fappo_bot.rules.results import TurnState
from fappo_bot.service import notices


def sealed_orders(canonical: str) -> list[Order]:
    """The NPC orders back from their canonical JSON (`scene.canonical_orders`)."""
    return [Order.model_validate(item) for item in json.loads(canonical)]


def reveal_messages(number: int, digest: str, salt: str, canonical: str,
                    state: TurnState) -> list[str]:
    """The reveal of the NPC orders sealed for turn `number` (F29, issue 5): first the orders as
    a post reply shows them (`render_order`, with each character's AP budget and ratings at the
    start of the turn in `state`), the SHA-256 commitment, the salt and how to check; then the
    canonical JSON exactly as hashed, in code blocks that fit a Discord message.

    The reply's last line, the SP each pool keeps, is left out: it tells the NPC's remaining
    pools, which are the GM's and no part of the orders sealed."""
    rendered: list[str] = []
    for order in sealed_orders(canonical):
        character = state.character(order.actor)
        budget = ap_budget(character, state.config) if character is not None else None
        lines = render_order(order, character, budget, state.pending).split("\n")
        if character is not None and lines[-1].startswith("SP left: "):
            lines.pop()
        rendered.append("\n".join(lines))
    return [notices.revealed(number, digest, salt, rendered),
            *notices.canonical_blocks(number, canonical)]
