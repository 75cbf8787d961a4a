"""The table notices queued in the outbox (turn opened, reminders, call time, seals, undo, the
NPC reveal, the results), as data: each is a `Notice`, the payload of its outbox message.

The service words none of them: `fappo_bot.render.notices` does, the same for every adapter,
and each adapter's renderer may word a kind its own way (`discord/rendering.py`,
`console/rendering.py`), e.g. Discord adds its `/reveal` command to a reveal from the turn in
its payload, and a web page could lay the fields out its own way; the results carry what
happened as blocks of data (`results_report`). The outbox
keeps both, the notice's fields (`OutboxMessage.payload`, the same in every part) and the
neutral words (`OutboxMessage.content`, cut into Discord's parts; see `service.base.queue`). A
payload keeps what the users wrote as they wrote it (names are data): every renderer makes them
inert as it writes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from fappo_bot.posting.render import DISCORD_LIMIT
from fappo_bot.posting.safety import safe
from fappo_bot.service.results_report import Block
from fappo_bot.service.rulesets.names import BY_NAME, STORED_DEFAULT, Naming


class Notice(BaseModel):
    """The data of one outbox message of kind `KIND` (its payload)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    KIND: ClassVar[str] = "text"

    def payload(self) -> dict[str, Any]:
        """The message's payload: the notice's fields as JSON values."""
        return self.model_dump(mode="json")


class TurnOpened(Notice):
    KIND = "turn_opened"
    turn: int
    deadline: datetime | None
    pending_hits: int
    #: the game's time zone (an IANA name), in which an adapter may show the deadline
    zone: str | None = None


class Reminder(Notice):
    """The room's reminder: who has still to post; `pings`, the players to mention (user ids:
    an adapter that can ping adds them after the words, the only mentions it lets through);
    `replaces`, the outbox ids of the room's previous reminder of the turn, which the adapter
    takes down as it posts this one (a reminder replaces the last, never piles up)."""

    KIND = "reminder"
    turn: int
    deadline: datetime | None
    #: who has still to post (display names)
    missing: tuple[str, ...]
    pings: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    zone: str | None = None


class ReminderDm(Notice):
    """A player's own reminder, by DM: the game by name, the room to post in (its adapter's
    keys: Discord links it), their characters still to post. `replaces` as `Reminder`'s."""

    KIND = "reminder_dm"
    game: str
    turn: int
    deadline: datetime | None
    characters: tuple[str, ...]
    room: str
    guild: str | None = None
    replaces: tuple[str, ...] = ()
    zone: str | None = None


class DigestGame(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: str
    game: str
    turn: int
    deadline: datetime | None
    characters: tuple[str, ...]
    room: str
    guild: str | None = None
    zone: str | None = None


class Digest(Notice):
    """A player's daily digest, by DM: each game with an open turn they have not posted in."""

    KIND = "digest"
    games: tuple[DigestGame, ...]


class GraceExtended(Notice):
    """At a deadline, players who had not posted (nor passed) and had grace left: the deadline
    moved once, by the game's grace period, and one grace extension of each of them is used
    (`service/grace.py`). Names the characters of those players: the room is reminded."""

    KIND = "grace"
    turn: int
    deadline: datetime
    #: the characters still to post of the players whose grace was used (display names)
    late: tuple[str, ...]
    #: how far the deadline moved, as a duration is written (`12h`)
    by: str
    zone: str | None = None


class DeadlineMoved(Notice):
    """A deadline that fell while the bot was down, moved by the outage's length (the game's
    `outage_extends`), so the outage costs nobody their turn."""

    KIND = "deadline_moved"
    turn: int
    deadline: datetime
    #: the outage's length, as a duration is written (`2h15m`)
    by: str
    zone: str | None = None


class TimeCalled(Notice):
    KIND = "time_called"
    turn: int
    #: the characters with no orders (no action this turn, F30)
    missing: tuple[str, ...]


class EveryoneIn(Notice):
    KIND = "everyone_in"
    turn: int


class SecretOrders(Notice):
    KIND = "secret_orders"
    turn: int
    #: how many sets of secret orders the turn has had, these included (each notice says a
    #: new number, so two arrivals never read as one said twice)
    count: int = 1


class Sealed(Notice):
    KIND = "sealed"
    turn: int
    #: the SHA-256 commitment, hex
    commitment: str


class Revealed(Notice):
    """The sealed NPC orders of a resolved turn in the canonical form of a post reply
    (`posting.render.render_order`, already made inert), with the commitment, the salt and how
    anyone checks them (F29: "verifiable after resolution"). The canonical JSON itself is not
    published with them: the `reveal` use case and the export give it; an adapter adds its own
    command for it from `turn`."""

    KIND = "revealed"
    turn: int
    commitment: str
    salt: str
    #: each order as its reply shows it (lines)
    orders: tuple[str, ...]


class Results(Notice):
    """A turn's results (kind `results`, to the room) or a party's or the GMs' secret part of
    them (`results_private`, by DM): the resolution they come from, for a party its
    characters, and what happened as data (`results_report`'s blocks), worded by each adapter.
    A long turn goes out in several messages, each with its own blocks (`continued` after the
    first), so that a part's payload is the part's data, not the whole turn's."""

    KIND = "results"
    turn: int
    resolution_id: str
    #: the characters of the party the message is for; None: every character's
    characters: tuple[str, ...] | None = None
    #: the ruleset that resolved the turn (its `Ruleset.name`; a payload that names none was
    #: written before there were two, `names.STORED_DEFAULT`)
    ruleset: str = STORED_DEFAULT.name
    #: the rules a dice-pool turn's title names (its ruleset's label), and whether the turn was
    #: rolled in dice pools (a turn that rolled nothing says so): the ruleset port's words
    #: (`Naming.results_label`, `dice_pools`)
    label: str = ""
    dice_pools: bool = False
    blocks: tuple[Block, ...]
    continued: bool = False

    def payload(self) -> dict[str, Any]:
        """`Notice.payload`, each block writing its own JSON (`results_report`)."""
        return {"turn": self.turn, "resolution_id": self.resolution_id,
                "characters": None if self.characters is None else list(self.characters),
                "ruleset": self.ruleset, "label": self.label, "dice_pools": self.dice_pools,
                "blocks": [block.as_json() for block in self.blocks],
                "continued": self.continued}

    @model_validator(mode="before")
    @classmethod
    def _words_before(cls, data: Any) -> Any:
        """A payload written before the ruleset's words were stored takes them from the
        ruleset it names (its naming, `service/rulesets/names.py`)."""
        if isinstance(data, dict) and "dice_pools" not in data:
            naming = BY_NAME.get(data.get("ruleset", STORED_DEFAULT.name))
            if naming is None:
                return data
            return {"label": naming.results_label, "dice_pools": naming.dice_pools, **data}
        return data


class Undone(Notice):
    """The undo notice; `withdrawn`: the characters whose orders for the next turn the undo
    took back with that turn (and `npc_sealed`: its sealed NPC orders), so nobody believes
    their orders still stand."""

    KIND = "undone"
    turn: int
    #: the GM who undid it (display name)
    actor: str
    withdrawn: tuple[str, ...] = ()
    npc_sealed: bool = False


class Inactive(Notice):
    KIND = "inactive"
    names: tuple[str, ...]
    threshold: int


class SceneEnded(Notice):
    KIND = "scene_ended"
    #: the SP restored: "all" or "N each"
    points: str


class AdventureEnded(Notice):
    KIND = "adventure_ended"
    awards: tuple[str, ...]


class TimeAdvanced(Notice):
    """The GM's "advance time" (F7 Amb-7, F14): who healed from what to what, and how long
    until each one's next level. Each line's name is already `safe` (the caller's job: the
    level arrows must stay readable)."""

    KIND = "time_advanced"
    elapsed: str
    healed: tuple[str, ...]


class Undelivered(Notice):
    """The GMs' private notice of a message given up for good: which one (its first words),
    where it was going and why it cannot go; it is kept, for the inbox. `where` is already
    safe (the caller names a player through `safe`)."""

    KIND = "undelivered"
    #: the game's name
    game: str
    where: str
    #: the first line of the message given up
    began: str
    why: str


class NpcWait(Notice):
    """To the GMs, at a deadline while NPCs have no orders and nothing is sealed: time is not
    called (it would seal them as doing nothing, for good) until the GM chooses."""

    KIND = "npc_wait"
    turn: int
    #: the NPCs with no orders
    names: tuple[str, ...]


class ItemBound(Notice):
    """F22, to the original owner's player: their legendary item was bound to another; no
    identity and no place ([F:L358] "will otherwise have no idea who currently has it or where
    it is")."""

    KIND = "item_bound"
    item: str
    #: the owning character
    owner: str


#: the notice of each kind of outbox message that carries one
_KINDS: tuple[type[Notice], ...] = (
    TurnOpened, Reminder, ReminderDm, Digest, TimeCalled, EveryoneIn, SecretOrders, Sealed,
    Revealed, Results, Undone, Inactive, SceneEnded, AdventureEnded, TimeAdvanced, Undelivered,
    NpcWait, GraceExtended, DeadlineMoved, ItemBound)
NOTICES: dict[str, type[Notice]] = {kind.KIND: kind for kind in _KINDS}
NOTICES["results_private"] = Results


def read(kind: str, payload: dict[str, Any] | None) -> Notice | None:
    """The notice of an outbox message's kind and payload, typed; None for a message that is
    its text alone (no payload, a kind of no notice, a payload this version cannot read)."""
    notice = NOTICES.get(kind)
    if notice is None or payload is None:
        return None
    try:
        return notice.model_validate(payload)
    except ValidationError:
        return None


# ---- the notices as the use cases write them ----------------------------------------------------
def turn_opened(number: int, deadline: datetime | None, pending_hits: int,
                zone: str | None = None) -> TurnOpened:
    return TurnOpened(turn=number, deadline=deadline, pending_hits=pending_hits, zone=zone)


def reminder(number: int, deadline: datetime | None, missing: Sequence[str],
             zone: str | None = None) -> Reminder:
    return Reminder(turn=number, deadline=deadline, missing=tuple(missing), zone=zone)


def grace_extended(number: int, deadline: datetime, late: Sequence[str], by: str,
                   zone: str | None = None) -> GraceExtended:
    return GraceExtended(turn=number, deadline=deadline, late=tuple(late), by=by, zone=zone)


def deadline_moved(number: int, deadline: datetime, by: str,
                   zone: str | None = None) -> DeadlineMoved:
    return DeadlineMoved(turn=number, deadline=deadline, by=by, zone=zone)


def time_called(number: int, missing: Sequence[str]) -> TimeCalled:
    return TimeCalled(turn=number, missing=tuple(missing))


def everyone_in(number: int) -> EveryoneIn:
    return EveryoneIn(turn=number)


def secret_orders_arrived(number: int, count: int = 1) -> SecretOrders:
    return SecretOrders(turn=number, count=count)


def sealed(number: int, digest: str) -> Sealed:
    return Sealed(turn=number, commitment=digest)


def revealed(number: int, digest: str, salt: str, orders: Sequence[str]) -> Revealed:
    return Revealed(turn=number, commitment=digest, salt=salt, orders=tuple(orders))


def results(number: int, resolution_id: str, blocks: Sequence[Block],
            characters: Sequence[str] | None = None,
            ruleset: Naming = STORED_DEFAULT) -> Results:
    """The results of turn `number` as the `ruleset` that resolved them names them (its port's
    `naming`)."""
    # constructed, not validated: the blocks are the service's own, of their types already,
    # and a turn of a thousand entries has thousands (a payload read back is validated, `read`)
    return Results.model_construct(
        turn=number, resolution_id=resolution_id, blocks=tuple(blocks),
        characters=None if characters is None else tuple(characters), ruleset=ruleset.name,
        label=ruleset.results_label, dice_pools=ruleset.dice_pools)


#: room left for the part's heading and the code fence of a canonical JSON message
_BLOCK_FRAME = 120


def canonical_blocks(number: int, canonical: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """The canonical JSON of the NPC orders exactly as hashed, in code blocks of at most `limit`
    characters each, for whoever asks to check a commitment. It holds no mention and no backtick
    (`scene.canonical_orders` escapes them), so it cannot ping anyone nor break out of its
    block; a long text is cut into parts that are joined back with nothing between them."""
    size = max(1, limit - _BLOCK_FRAME)
    pieces = [canonical[i:i + size] for i in range(0, len(canonical), size)] or [""]
    count = len(pieces)
    return [
        f"Canonical JSON of the NPC orders of turn {number} (part {i} of {count}; hashed exactly "
        f"as written):\n```json\n{piece}\n```"
        for i, piece in enumerate(pieces, start=1)
    ]


def undone(number: int, actor: str, withdrawn: Sequence[str] = (),
           npc_sealed: bool = False) -> Undone:
    return Undone(turn=number, actor=actor, withdrawn=tuple(withdrawn), npc_sealed=npc_sealed)


def inactive(names: Sequence[str], threshold: int) -> Inactive:
    return Inactive(names=tuple(names), threshold=threshold)


def scene_ended(points: str) -> SceneEnded:
    return SceneEnded(points=points)


def adventure_ended(awards: Sequence[str]) -> AdventureEnded:
    return AdventureEnded(awards=tuple(awards))


def time_advanced(elapsed: str, healed: Sequence[str]) -> TimeAdvanced:
    return TimeAdvanced(elapsed=elapsed, healed=tuple(healed))


def undelivered(game: str, where: str, first_line: str, why: str) -> Undelivered:
    return Undelivered(game=game, where=where, began=first_line, why=why)


def item_bound(item: str, owner: str) -> ItemBound:
    return ItemBound(item=item, owner=owner)


def waiting_for_npc_orders(number: int, names: Sequence[str]) -> NpcWait:
    return NpcWait(turn=number, names=tuple(names))


def undelivered_line(where: str, why: str, kind: str) -> str:
    """One line of a turn's status for a message given up: where, what kind and why."""
    return f"{kind.replace('_', ' ')} to {where}: {safe(why)}"
