"""The scene of a turn as the rules see it, and the orders in force (F7, F29).

- The characters of the scene are the game's characters that are not retired.
- F29 Amb-2/Amb-3: a player's posts in a turn are merged per character and the last one wins:
  for each character, the order from the most recently written valid revision (a post or its
  edit) is in force. A deleted post's orders are withdrawn.
- The NPC commitment is SHA-256 over `salt + "\\n" + canonical`, where canonical is the JSON of the
  GM-run characters' orders, sorted by actor, with sorted keys and no spaces.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

import orjson
from pydantic import TypeAdapter

from fappo_bot.rules import Order, TurnState
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterRecord,
    CharacterStatus,
    Game,
    Post,
    PostRevision,
    TurnRecord,
    trait_catalogue,
)


@dataclass(slots=True)
class InForce:
    """The order in force for one character, and where it comes from. Made for every order of
    a turn at each read of them (call time, the review, a resolve), so not frozen (a frozen
    dataclass sets each field through `object.__setattr__`); never changed once made."""

    order: Order
    post: Post
    revision: PostRevision

    @property
    def passed(self) -> bool:
        return self.order.passed


def in_scene(records: Iterable[CharacterRecord]) -> list[CharacterRecord]:
    """Characters taking part in the scene: everyone not retired (F30: the inactive are there
    but take no action)."""
    return [r for r in records if r.status is not CharacterStatus.RETIRED]


def build_state(game: Game, turn: TurnRecord, records: Sequence[CharacterRecord]) -> TurnState:
    """The rules' state at the start of `turn` (F7): current characters and pending hits."""
    return TurnState(
        turn=turn.number,
        characters=tuple(r.fappo_state for r in in_scene(records)),
        pending=turn.pending,
        config=game.rules,
        in_combat=game.settings.in_combat,
        traits=trait_catalogue(game.settings.traits),
    )


async def orders_in_force(
    uow: UnitOfWork, turn: TurnRecord, actors: Collection[str] | None = None
) -> dict[str, InForce]:
    """Per character (casefolded name), the order in force: last written wins (F29 Amb-3).
    `actors` (case-folded): only theirs."""
    found: dict[str, InForce] = {}
    posts = sorted(await uow.posts.in_force_revisions(turn.id, actors), key=lambda pr: (
        pr[1].created_at, pr[0].updated_at, pr[0].id))
    for post, revision in posts:
        if not revision.ok:
            continue
        for order in revision.orders:
            found[order.actor.casefold()] = InForce(order, post, revision)
    return found


_ORDERS: TypeAdapter[list[Order]] = TypeAdapter(list[Order])
_NON_ASCII = re.compile(r"[^\x00-\x7e]")  # what ensure_ascii escapes: DEL too


def _ascii(char: re.Match[str]) -> str:
    return json.encoder.encode_basestring_ascii(char.group())[1:-1]


def stable_json(data: object) -> str:
    """`json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`, byte for
    byte, written by orjson: the standard library's encoder sorts every dict in Python, and a
    seal of hundreds of orders spent most of its time there. orjson writes what is not ASCII as
    UTF-8, so that is escaped after; what orjson refuses (an integer past 64 bits, a lone
    surrogate) goes to the standard library, which gives the same text for everything else."""
    try:
        text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text if text.isascii() and "\x7f" not in text else _NON_ASCII.sub(_ascii, text)


def canonical_orders(orders: Iterable[Order]) -> str:
    """The canonical text of a set of orders (sorted by actor; stable JSON).

    `@`, `<` and a backtick (only ever inside JSON strings) are written as `\\u0040`, `\\u003c`
    and `\\u0060`: the text is published as it is hashed, in a code block, and so can never hold
    a mention nor close its code block. Parsing the JSON gives the orders back unchanged.
    """
    ordered = sorted(orders, key=lambda o: o.actor.casefold())
    data = _ORDERS.dump_python(ordered, mode="json", by_alias=True)
    for order in data:  # an order binding nothing hashes as it did before bindings existed
        if not order.get("bind"):
            order.pop("bind", None)
    text = stable_json(data)
    text = text.replace("@", "\\u0040").replace("<", "\\u003c").replace("`", "\\u0060")
    _MADE[text] = tuple(ordered)
    _MADE.move_to_end(text)
    while len(_MADE) > _MADE_KEPT:
        _MADE.popitem(last=False)
    return text


#: the orders of the last canonical texts made in this process, by their text: the reveal of a
#: turn sealed at call time, resolved in another request, shows the orders without reading them
#: back from the JSON (hundreds of orders validated again). Keyed by the whole text, so what it
#: gives is what that text reads back as (orders are frozen values); a text made elsewhere (another
#: process, before a restart) is read back as before.
_MADE: OrderedDict[str, tuple[Order, ...]] = OrderedDict()
_MADE_KEPT = 16


def orders_of(canonical: str) -> tuple[Order, ...] | None:
    """The orders `canonical` was made of (in its order, sorted by actor), when this process
    made it lately (`canonical_orders`); None when it must be read back from the JSON."""
    return _MADE.get(canonical)


def commitment(salt: str, canonical: str) -> str:
    """SHA-256 hex of the salt and the canonical NPC orders."""
    return hashlib.sha256(f"{salt}\n{canonical}".encode()).hexdigest()


def gm_run(records: Iterable[CharacterRecord]) -> list[CharacterRecord]:
    """The active characters the GMs give orders for (NPCs, enemies, groups, NPC-ized PCs)."""
    return [r for r in records if r.status is CharacterStatus.ACTIVE and r.run_by_gm]


def player_run(records: Iterable[CharacterRecord]) -> list[CharacterRecord]:
    """The active characters players give orders for."""
    return [r for r in records if r.status is CharacterStatus.ACTIVE and not r.run_by_gm]


def everyone_in(
    turn: TurnRecord, records: Sequence[CharacterRecord], in_force: Collection[str]
) -> bool:
    """Every active player character has posted or passed, and the NPC orders are sealed (or
    the GMs run no active character)."""
    players_in = all(r.name.casefold() in in_force for r in player_run(records))
    npcs_in = turn.npc_commitment is not None or not gm_run(records)
    return players_in and npcs_in


def secrets_hidden(turn: TurnRecord, records: Sequence[CharacterRecord]) -> bool:
    """The players' secret orders stay hidden from the GM until the GM's NPC orders are sealed,
    so the NPC orders cannot be fitted to them (F29, the NPC commitment)."""
    return turn.npc_commitment is None and bool(gm_run(records))


def visible_to_gm(
    turn: TurnRecord, records: Sequence[CharacterRecord], in_force: dict[str, InForce]
) -> tuple[dict[str, InForce], int]:
    """The orders in force the GM may see now, and how many secret ones are still hidden."""
    if not secrets_hidden(turn, records):
        return in_force, 0
    shown = {k: v for k, v in in_force.items() if not v.post.secret}
    return shown, len(in_force) - len(shown)
