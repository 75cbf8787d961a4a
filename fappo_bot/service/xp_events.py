"""The GM's Xp narrative events and ranks (RULINGS X16, X17), recorded in the audit log:

- `event`: the time tags' GM-declared boundaries (the end of an Event, a Session, an Episode, an
  Adventure; Downtime), at which durations tagged with them expire (X17), and the narrative modes
  Sequence, Parley and Cut!. A Cut! names its character and the GM's Luck price (X15 Amb-1, the
  price the seed leaves out, X18), taken off that character's Xp sheet.
- `rank`: a character's Physical, Mental, elemental or spiritual rank depleted (or restored) by
  the points the GM gives: how much a blow or a spell takes is in the missing Combat and Magic
  rules (X18), so the GM says it; a rank never falls below -3 (CX-03) nor rises above its maximum.

Each returns the sentence the table sees; the adapters show it in the game's room.
"""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.traits import deplete
from fappo_bot.service.base import UseCases
from fappo_bot.service.errors import InvalidInput, NotFound
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import CharacterRecord, CharacterStatus
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.xp_records import sentence, store
from fappo_bot.sheets.xp import RANK_NAMES

EVENT_ACTION = "xp.event"
RANK_ACTION = "xp.rank"
MAX_NOTE = 300
MAX_PRICE = 99
MAX_POINTS = 20
__all__ = ["EVENTS", "RANK_NAMES", "XpEventService", "XpEventShown"]

#: X17: what each event is, as the table reads it
EVENTS: dict[str, str] = {
    "event": "End of the event (X17): what lasts an Event ends now",
    "session": "End of the session (X17): what lasts a Session ends now",
    "episode": "End of the episode (X17): what lasts an Episode ends now",
    "adventure": "End of the adventure (X17): what lasts an Adventure ends now",
    "downtime": "Downtime (X17): the characters' time between adventures",
    "sequence": "Sequence (X17): the GM plays it out as a sequence",
    "parley": "Parley (X17): time and actions stop for the two sides to talk",
    "cut": "Cut! (X17)",
}


@dataclass(frozen=True)
class XpEventShown:
    """An event or a rank change as the table sees it, with its audit entry's id."""

    id: str
    kind: str
    text: str


async def _character(uow: UnitOfWork, game_id: str, name: str) -> CharacterRecord:
    """The game's character `name` (any case) with an Xp sheet."""
    wanted = " ".join(name.split()).casefold()
    found = [r for r in await uow.characters.list(game_id)
             if r.name.casefold() == wanted and r.status is not CharacterStatus.RETIRED]
    if not found or found[0].xp is None:
        raise NotFound(f'There is no character "{safe(name)}" with an Xp sheet in this game.')
    return found[0]


def _note(note: str) -> str:
    text = " ".join(note.split())
    if len(text) > MAX_NOTE:
        raise InvalidInput(f"A note has at most {MAX_NOTE} characters, not {len(text)}.")
    return text


def _event(kind: str, note: str, character: str | None, luck: int) -> tuple[str, str]:
    """An event's kind (a key of `EVENTS`) and note as written, refused when the kind is none
    of them, the note too long, or a character and a price come without a Cut! (or a Cut!
    without its character, a price out of bounds)."""
    kind = kind.strip().casefold().removesuffix("!")
    if kind not in EVENTS:
        raise InvalidInput(f'An event is one of {", ".join(EVENTS)}, not "{safe(kind)}".')
    text = _note(note)
    if kind == "cut" and not (character or "").strip():
        raise InvalidInput("A Cut! names the character who takes control of the scene.")
    if kind != "cut" and (character or luck):
        raise InvalidInput("Only a Cut! names a character and a Luck price.")
    if not 0 <= luck <= MAX_PRICE:
        raise InvalidInput(f"A Cut!'s price is 0 to {MAX_PRICE} Luck, not {luck}.")
    return kind, text


def _rank(rank: str, change: int) -> str:
    """The rank's name (of `RANK_NAMES`), refused with the names, or when `change` is 0 or
    more points than a rank change takes."""
    wanted = rank.strip().casefold()
    if wanted not in RANK_NAMES:
        raise InvalidInput(f'A rank is {", ".join(RANK_NAMES)} (X16), not "{safe(rank)}".')
    if change == 0 or abs(change) > MAX_POINTS:
        raise InvalidInput(f"Give the points the rank loses (-1 to -{MAX_POINTS}) or "
                           f"recovers (1 to {MAX_POINTS}), not {change}.")
    return wanted


class XpEventService(UseCases):
    """The GM's narrative events and rank changes in an Xp game."""

    @retried
    async def event(self, game_id: str, actor: str, *, kind: str, note: str = "",
                    character: str | None = None, luck: int = 0) -> XpEventShown:
        """Record an event (`EVENTS`: a time tag's boundary, a Sequence, a Parley or a Cut!);
        a Cut! takes `luck`, the GM's price, off `character`'s sheet (GM only)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            # a player hears only that GMs do this; a GM hears of a wrong input before the rules
            kind, text = _event(kind, note, character, luck)
            self.require(game, Feature.DICE_POOLS)
            detail: dict[str, object] = {"kind": kind, "note": text}
            said = EVENTS[kind]
            if kind == "cut":
                record = await _character(uow, game.id, character or "")
                sheet = record.xp
                assert sheet is not None
                if sheet.luck < luck:
                    raise InvalidInput(f"{safe(record.name)} has {sheet.luck} Luck; the Cut! costs "
                                       f"{luck} (X17).")
                await uow.characters.update(record.model_copy(update={
                    "xp": sheet.model_copy(update={"luck": sheet.luck - luck}),
                    "version": record.version + 1}))
                detail.update(name=record.name, price=luck, luck=[sheet.luck, sheet.luck - luck])
                said = (f"Cut! (X17): {safe(record.name)} takes control of the scene, for "
                        f"{luck} Luck (the GM's price): Luck {sheet.luck} -> {sheet.luck - luck}")
            entry = await store(uow, self.deps, game.id, actor, EVENT_ACTION, detail)
        return XpEventShown(entry.id, kind, said + (f". {safe_prose(text)}" if text else "."))

    @retried
    async def rank(self, game_id: str, actor: str, *, name: str, rank: str,
                   change: int) -> XpEventShown:
        """`rank` of `name` changed by `change` points: less is depletion (never below -3),
        more a recovery (never above the maximum) (X16; GM only)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            wanted = _rank(rank, change)  # as `event`: the GM first, then the input, the rules
            self.require(game, Feature.DICE_POOLS)
            record = await _character(uow, game.id, name)
            sheet = record.xp
            assert sheet is not None
            top: int = getattr(sheet.ranks(), wanted)
            before = sheet.rank_now(wanted)
            try:
                after = deplete(before, -change) if change < 0 else min(top, before + change)
            except XpError as exc:
                raise sentence(exc) from None
            lost = {**sheet.rank_lost, wanted: top - after}
            lost = {k: v for k, v in lost.items() if v}
            await uow.characters.update(record.model_copy(update={
                "xp": sheet.model_copy(update={"rank_lost": lost}),
                "version": record.version + 1}))
            entry = await store(uow, self.deps, game.id, actor, RANK_ACTION,
                                {"name": record.name, "rank": wanted, "change": change,
                                 "before": before, "after": after, "max": top})
        how = "loses" if change < 0 else "recovers"
        floor = " (the floor, X16)" if change < 0 and after == -3 else ""
        return XpEventShown(entry.id, "rank",
                            f"{safe(record.name)} {how} {abs(change)} {wanted.title()} rank: "
                            f"{before} -> {after} of {top}{floor} (X16).")
