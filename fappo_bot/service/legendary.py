"""Legendary items in play (F22): the game's record of each item (owner, holder, bindings), the
item changing hands at the GM's word, and a holder binding someone else's item with one
creation point, the owner told only that it was bound.

An item is recorded when the sheet or the purchase that made it is stored (`record_items`);
its holder is the character who has it now (the owner unless it changed hands). Taking it up
gives its powers to the owner and to those who bound it, the base weapon to anyone else
([F:L358]); the owner taking it back breaks every binding (`rules.change_hands`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from pydantic import BaseModel, ConfigDict

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import (
    FLOATING,
    Character,
    LegendaryItem,
    Order,
    RulesError,
    bind,
    change_hands,
    give_up,
    powers_active,
    take_up,
    trait_by_name,
)
from fappo_bot.service import notices
from fappo_bot.service.base import (
    Deps,
    Play,
    UseCases,
    gm_ids,
    load_character,
    queue,
    require_gm,
    require_not_retired,
)
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput, NotFound, ServiceError
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import CharacterRecord, Game, TurnRecord
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.scene import orders_in_force


class ItemView(BaseModel):
    """A legendary item as its change of hands or binding left it."""

    model_config = ConfigDict(frozen=True)

    item: str
    owner: str | None
    holder: str | None
    bound_to: tuple[str, ...]
    #: whether the holder gets its powers (the owner, or one who bound it)
    powers: bool
    #: what a binding cost the holder, when one was made
    sacrificed: str | None = None
    #: the bindings the owner's reclaim broke
    broken: tuple[str, ...] = ()


def _view(item: LegendaryItem, *, sacrificed: str | None = None,
          broken: tuple[str, ...] = ()) -> ItemView:
    holder = item.holder or item.owner
    return ItemView(item=item.item, owner=item.owner, holder=holder, bound_to=item.bound_to,
                    powers=holder is not None and powers_active(item, holder),
                    sacrificed=sacrificed, broken=broken)


def record_items(game: Game, owner: str, items: Iterable[LegendaryItem]) -> Game:
    """The game with `owner`'s items recorded (held by `owner`); an item of the same name the
    owner had is replaced, keeping who holds it and who bound it."""
    known = list(game.settings.legendary_items)
    for item in items:
        found = next((i for i, k in enumerate(known) if _same(k, item.item, owner)), None)
        new = replace(item, owner=owner, holder=owner)
        if found is not None:
            new = replace(new, holder=known[found].holder, bound_to=known[found].bound_to)
            known[found] = new
        else:
            known.append(new)
    settings = game.settings.model_copy(update={"legendary_items": tuple(known)})
    return game.model_copy(update={"settings": settings, "version": game.version + 1})


def _same(item: LegendaryItem, name: str, owner: str | None) -> bool:
    return item.item.casefold() == name.strip().casefold() and (
        owner is None or (item.owner or "").casefold() == owner.strip().casefold())


def _find(game: Game, name: str, owner: str | None) -> LegendaryItem:
    found = [i for i in game.settings.legendary_items if _same(i, name, owner)]
    if not found:
        raise NotFound(f"No legendary item called '{safe(name)}' is recorded in this game"
                       + (f" for {safe(owner)}" if owner else "") + " (an item is recorded from the "
                       "sheet or the purchase that made it; a GM's sheet edit records it).")
    if len(found) > 1:
        owners = ", ".join(safe(i.owner or "nobody") for i in found)
        raise InvalidInput(f"Several legendary items are called '{safe(name)}' (owned by {owners}): "
                           "name the owner too.")
    return found[0]


def _sacrifice(holder: Character, item: LegendaryItem, sacrifice: str | None
               ) -> tuple[str, Character]:
    """The holder after binding with `sacrifice` (None: a banked CC; `floating`; a Trait's
    name; else a skill's), and what it gave up."""
    word = (sacrifice or "").strip()
    try:
        if not word:
            outcome = bind(item, holder)
        elif word.casefold() in {FLOATING, "floating sp"}:
            outcome = bind(item, holder, floating=True)
        elif trait_by_name(word) is not None:
            outcome = bind(item, holder, trait=word)
        else:
            outcome = bind(item, holder, skill=word)
    except RulesError as exc:
        raise InvalidInput(safe_prose(str(exc))) from None
    return outcome.sacrificed, outcome.holder


async def _store(play: Play, record: CharacterRecord, sheet: Character, state: Character
                 ) -> None:
    await play.uow.characters.update(record.model_copy(update={
        "sheet": sheet, "state": state, "version": record.version + 1}))


def _with_item(game: Game, old: LegendaryItem, new: LegendaryItem) -> Game:
    items = tuple(new if i is old else i for i in game.settings.legendary_items)
    settings = game.settings.model_copy(update={"legendary_items": items})
    return game.model_copy(update={"settings": settings, "version": game.version + 1})


class LegendaryService(UseCases):
    """Legendary items changing hands and being bound (F22)."""

    async def items(self, game_id: str, actor: str) -> list[ItemView]:
        """Every recorded item of the game, with its holder and bindings (GMs only: the owner
        has "no idea who currently has it", [F:L358])."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.CC_PURCHASES) as play:
            return [_view(i) for i in play.game.settings.legendary_items]

    @retried
    async def hand_over(self, game_id: str, actor: str, item: str, to: str, *,
                        owner: str | None = None) -> ItemView:
        """At the GM's word the item passes to the character `to` (taken, given, found): the
        last holder no longer has it; `to` gets its powers if it owns or bound it, else its
        base weapon; the owner taking it back breaks every binding."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.CC_PURCHASES) as play:
            uow, game = play.uow, play.game
            found = _find(game, item, owner)
            taker = await load_character(uow, game, to)
            require_not_retired(taker)
            last = found.holder or found.owner
            if last is not None and last.casefold() == taker.name.casefold():
                raise Conflict(f"{safe(taker.name)} already has '{safe(found.item)}'.")
            moved = change_hands(found, taker.name)
            if last is not None:
                before = await uow.characters.by_name(game.id, last)
                if before is not None and before.sheet is not None and before.state is not None:
                    await _store(play, before, give_up(before.sheet, found),
                                 give_up(before.state, found))
            taker = await load_character(uow, game, taker.name)
            await _store(play, taker, take_up(taker.fappo_sheet, moved),
                         take_up(taker.fappo_state, moved))
            await uow.games.update(_with_item(game, found, moved))
            broken = tuple(b for b in found.bound_to if b not in moved.bound_to)
            await play.audit("legendary.hand_over", item=found.item, owner=found.owner,
                             to=taker.name, broken=list(broken))
            return _view(moved, broken=broken)

    @retried
    async def bind_item(self, game_id: str, actor: str, name: str, item: str, *,
                        sacrifice: str | None = None) -> ItemView:
        """The character `name`, holding someone else's item, binds it (F22): one creation
        point sacrificed (a banked CC unless `sacrifice` names a skill, a Trait or
        `floating`), its powers then active for it, and the owner's player told only that it
        was bound. (A post's `Bind:` line does the same as its turn resolves.)"""
        async with self.in_game(game_id, actor, needs=Feature.CC_PURCHASES) as play:
            record = await load_character(play.uow, play.game, name)
            require_not_retired(record)
            if record.runner() != actor:
                await require_gm(play.uow, play.game, actor)
            _, view = await bind_one(play, record, item, sacrifice)
            return view


def _held(game: Game, holder: str, item: str) -> LegendaryItem:
    found = next((i for i in game.settings.legendary_items
                  if i.item.casefold() == item.strip().casefold()
                  and (i.holder or "").casefold() == holder.casefold()), None)
    if found is None:
        raise Forbidden(f"{safe(holder)} does not hold a legendary item called '{safe(item)}'; only its "
                        "holder binds an item.")
    return found


def check_bindings(game: Game, records: Sequence[CharacterRecord],
                   orders: Iterable[Order]) -> None:
    """A post's `Bind:` lines, refused when they are posted if they could not be done now (the
    item not held, bound already, nothing to sacrifice): the post is then not recorded."""
    by_name = {r.name.casefold(): r for r in records}
    for order in orders:
        record = by_name.get(order.actor.casefold())
        if record is None or record.state is None:
            continue
        for binding in order.bind:
            _sacrifice(record.fappo_state, _held(game, record.name, binding.item),
                       binding.sacrifice)


async def bind_one(play: Play, record: CharacterRecord, item: str, sacrifice: str | None
                   ) -> tuple[Game, ItemView]:
    """`record` binds the item it holds (F22), in `play`'s transaction: the sacrifice made on
    its sheet and state, the item's powers taken up, the record of the item and the owner's
    DM written. Returns the game as written and the item."""
    found = _held(play.game, record.name, item)
    sacrificed, state = _sacrifice(record.fappo_state, found, sacrifice)
    _, sheet = _sacrifice(record.fappo_sheet, found, sacrifice)
    bound = replace(found, bound_to=(*found.bound_to, record.name), holder=record.name)
    await _store(play, record, take_up(give_up(sheet, found), bound),
                 take_up(give_up(state, found), bound))
    game = _with_item(play.game, found, bound)
    await play.uow.games.update(game)
    await _tell_owner(play, found)
    await play.audit("legendary.bind", item=found.item, owner=found.owner, holder=record.name,
                     sacrificed=sacrificed)
    return game, _view(bound, sacrificed=sacrificed)


async def bind_posted(uow: UnitOfWork, deps: Deps, game: Game, turn: TurnRecord, actor: str
                      ) -> Game:
    """The `Bind:` lines of the turn's orders in force, done as it resolves (before its
    actions, so the powers serve them). One that can no longer be done (the item passed on,
    the point spent since) is skipped, and the audit log says why; one done already (a turn
    resolved again after an undo) is not done twice."""
    if not game.settings.legendary_items:  # nothing to bind: no read of the orders
        return game
    for entry in (await orders_in_force(uow, turn)).values():
        for binding in entry.order.bind:
            record = await uow.characters.by_name(game.id, entry.order.actor)
            if record is None or record.state is None:
                continue
            held = next((i for i in game.settings.legendary_items
                         if i.item.casefold() == binding.item.strip().casefold()
                         and (i.holder or "").casefold() == record.name.casefold()), None)
            if held is not None and powers_active(held, record.name):
                continue
            play = Play(uow, game, actor, deps)
            try:
                game, _ = await bind_one(play, record, binding.item, binding.sacrifice)
            except ServiceError as exc:
                await play.audit("legendary.bind.skipped", holder=record.name,
                                 item=binding.item, why=str(exc))
    return game


async def _tell_owner(play: Play, item: LegendaryItem) -> None:
    """[F:L358] "The original owner will know immediately if his item is bound to
    another": a DM to the owner's player (its GMs when the owner is theirs)."""
    owner = None if item.owner is None else await play.uow.characters.by_name(
        play.game.id, item.owner)
    if owner is None:
        return
    player = owner.runner()
    users = [player] if player is not None else list(await gm_ids(play.uow, play.game))
    for user in users:
        await queue(play.uow, play.deps, play.game, "item_bound",
                    notices.item_bound(item.item, owner.name),
                    f"item-bound:{play.game.id}:{play.deps.ids()}:{user}", dm_to=user)
