"""What a resolution discloses and to whom: the NPC reveal (issue 5, F29), secret PvP results
(F29), hidden allocations (R2 `hide_all_allocations`)."""

from __future__ import annotations

import hashlib
import json
import re

from fappo_bot.posting.render import describe_action
from fappo_bot.rules.orders import Order
from tests.service.conftest import ALICE, GM

LONG_INTENT = "crush them " * 300  # 3,300 characters: the canonical JSON takes several parts
NPCS = ("**Skarg**\n2 AP attack Kael with Broadsword (he leans in, @everyone <@123>)\n"
        f"Intent: {LONG_INTENT}\n**Goblins**\n1 AP attack Kael")


async def _outbox(uow_factory, game, kind=None):
    async with uow_factory() as uow:
        messages = list(await uow.outbox.for_game(game))
    return [m for m in messages if kind is None or m.kind == kind]


def _code_blocks(messages):
    """What a reader copies: the content of each ```json block, joined with nothing between."""
    found = [re.search(r"```json\n(.*)\n```", m.content, re.S) for m in messages]
    return "".join(f.group(1) for f in found if f)


async def test_the_npc_reveal_shows_canonical_orders_and_the_hash_recomputes_from_it(
    services, table, uow_factory
):
    """Issue 5: "store a SHA-256 commitment of the canonical NPC orders, published when sealed
    and verifiable after resolution"; the orders read as a post reply shows them."""
    game = table["game"]
    reply = await services.turns.post(game, GM, channel_key="c1", message_key="g1", text=NPCS)
    assert reply.ok, reply.reply
    seal = await services.turns.seal(game, GM)
    await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                              text="3 AP defend")
    await services.resolution.resolve(game, GM)
    reveal = await _outbox(uow_factory, game, "revealed")
    assert len(reveal) >= 3 and all(len(m.content) <= 2000 for m in reveal)
    first = reveal[0].content
    # the orders as a reply shows them, not as raw JSON
    assert "Skarg: 2/3 AP committed" in first and "Goblins: 1/2 AP committed" in first
    assert '"actions"' not in first
    skarg_sheet = await services.characters.show(game, "Skarg")
    orders = [Order.model_validate(o) for o in json.loads(
        (await services.turns.reveal(game, 1)).canonical)]
    skarg = next(o for o in orders if o.actor == "Skarg")
    assert describe_action(skarg.actions[0], skarg_sheet.state) in first
    assert "@everyone" not in first and "@\u200beveryone" in first
    # the commitment, the salt and how to check, all in the published text
    published = "\n".join(m.content for m in reveal)
    digest = re.search(r"Commitment \(SHA-256\): ([0-9a-f]{64})", published).group(1)
    salt = re.search(r"Salt: (\S+)", published).group(1)
    assert digest == seal.commitment
    assert 'sha256(salt + "\\n" + canonical JSON)' in published
    # a reader recomputes the hash from the code blocks alone
    canonical = _code_blocks(reveal)
    assert hashlib.sha256(f"{salt}\n{canonical}".encode()).hexdigest() == seal.commitment
    assert [Order.model_validate(o) for o in json.loads(canonical)] == orders
    assert LONG_INTENT.strip() == skarg.intent
    # the reveal goes out in order: the orders first, then the JSON parts 1..n
    parts = [int(p) for p in re.findall(r"part (\d+) of \d+", published)]
    assert parts == list(range(1, len(parts) + 1)) and len(parts) >= 2
    assert [m.dedupe_key for m in reveal][1:] == [
        f"{reveal[0].dedupe_key}#{n}" for n in range(2, len(reveal) + 1)]
