"""Spending banked CC (F28): a player asks for a change (`Swordfighting +1`), a GM approves or
refuses it; a GM's own change is made at once. The prices and caps are the creation menu's
(F28 Amb-1, `rules.spend_cc`); a package is refused (creation only, [F:L207]), and a legendary
item needs the GM's acceptance ([F:L356], F22 Amb-7), which the approval is.

A request is checked when it is asked (a bad one is refused then, with its reason) and again
when it is approved (the CC or the sheet may have changed since); it waits in the game's
settings (`GameSettings.advance_requests`), one per character."""

from __future__ import annotations

from dataclasses import replace

from pydantic import TypeAdapter

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import Character, Purchase, RulesError, spend_cc
from fappo_bot.service.advance_text import describe, parse_change
from fappo_bot.service.advance_views import AdvanceView
from fappo_bot.service.base import (
    Play,
    UseCases,
    is_gm,
    load_character,
    require_not_retired,
)
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.legendary import record_items
from fappo_bot.service.records import AdvanceRequest, CharacterRecord, Game, trait_catalogue
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.views import CharacterView

_PURCHASE: TypeAdapter[Purchase] = TypeAdapter(Purchase)


def _bought(record: CharacterRecord, purchase: Purchase, game: Game) -> Character:
    """The character after the purchase, or InvalidInput with the rules' reason."""
    try:
        return spend_cc(record.fappo_state, purchase, config=game.rules,
                        traits=trait_catalogue(game.settings.traits))
    except RulesError as exc:
        raise InvalidInput(f"{safe(record.name)}: {safe_prose(str(exc))}") from None


def _cost(record: CharacterRecord, purchase: Purchase, game: Game) -> int:
    before = record.fappo_state.unspent_cc
    return before - _bought(record, purchase, game).unspent_cc


def _requests(game: Game) -> tuple[AdvanceRequest, ...]:
    return game.settings.advance_requests


def _with_requests(game: Game, requests: tuple[AdvanceRequest, ...]) -> Game:
    settings = game.settings.model_copy(update={"advance_requests": requests})
    return game.model_copy(update={"settings": settings, "version": game.version + 1})


class AdvancementService(UseCases):
    """CC purchases between adventures (F28): asked, approved, refused, listed."""

    @retried
    async def ask(self, game_id: str, actor: str, name: str, change: str) -> AdvanceView:
        """The character's player asks for `change`; checked now and kept for a GM. A GM's
        change (of any character) is made at once: the GM's word is the approval."""
        async with self.in_game(game_id, actor, needs=Feature.CC_PURCHASES) as play:
            uow, game = play.uow, play.game
            purchase = parse_change(change, trait_catalogue(game.settings.traits))
            record = await load_character(uow, game, name)
            require_not_retired(record)
            gm = await is_gm(uow, game, actor)
            if not gm and record.owner != actor:
                raise Forbidden(f"Only {safe(record.name)}'s player or a GM spends its CC.")
            if gm:
                return await self._apply(play, record, purchase, request_id="", player=actor)
            if any(r.character.casefold() == record.name.casefold() for r in _requests(game)):
                raise Conflict(f"{safe(record.name)} already has a change waiting for a GM; a GM "
                               "approves or refuses it first.")
            cost = _cost(record, purchase, game)
            request = AdvanceRequest(id=self.deps.ids(), character=record.name,
                                     change=describe(purchase), player=actor, at=self.now())
            await uow.games.update(_with_requests(game, (*_requests(game), request)))
            await play.audit("character.advance.ask", name=record.name, request=request.id,
                             purchase=_PURCHASE.dump_python(purchase, mode="json"))
            return AdvanceView(id=request.id, character=record.name, change=request.change,
                               cost=cost, banked=record.fappo_state.unspent_cc, player=actor,
                               applied=False)

    @retried
    async def approve(self, game_id: str, actor: str, request: str) -> AdvanceView:
        """A GM approves a waiting request (by its id, or its character's name): the CC are
        spent if the purchase is still allowed; a refused one stays waiting."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.CC_PURCHASES) as play:
            found = self._find(play.game, request)
            record = await load_character(play.uow, play.game, found.character)
            require_not_retired(record)
            game = _with_requests(play.game, tuple(
                r for r in _requests(play.game) if r.id != found.id))
            await play.uow.games.update(game)
            return await self._apply(play, record, parse_change(found.change, trait_catalogue(game.settings.traits)),
                                     request_id=found.id, player=found.player, game=game)

    @retried
    async def refuse(self, game_id: str, actor: str, request: str) -> AdvanceView:
        """A GM refuses a waiting request: nothing is spent."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.CC_PURCHASES) as play:
            found = self._find(play.game, request)
            await play.uow.games.update(_with_requests(play.game, tuple(
                r for r in _requests(play.game) if r.id != found.id)))
            await play.audit("character.advance.refuse", name=found.character,
                             request=found.id)
            record = await play.uow.characters.by_name(play.game.id, found.character)
            banked = 0 if record is None or record.state is None else record.state.unspent_cc
            return AdvanceView(id=found.id, character=found.character, change=found.change,
                               cost=0, banked=banked, player=found.player, applied=False)

    async def waiting(self, game_id: str, actor: str) -> list[AdvanceView]:
        """The requests waiting for a GM (GMs only), oldest first, each priced as of now."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            uow, game = play.uow, play.game
            out = []
            for r in _requests(game):
                record = await uow.characters.by_name(game.id, r.character)
                banked = 0 if record is None or record.state is None else record.state.unspent_cc
                try:
                    cost = _cost(record, parse_change(r.change, trait_catalogue(game.settings.traits)), game) if record else 0
                except InvalidInput:
                    cost = 0
                out.append(AdvanceView(id=r.id, character=r.character, change=r.change,
                                       cost=cost, banked=banked, player=r.player,
                                       applied=False))
            return out

    # ---- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _find(game: Game, request: str) -> AdvanceRequest:
        key = request.strip().casefold()
        for r in _requests(game):
            if r.id == request.strip() or r.character.casefold() == key:
                return r
        raise NotFound("No change is waiting there: it was approved or refused already, or "
                       "never asked.")

    @staticmethod
    async def _apply(play: Play, record: CharacterRecord, purchase: Purchase, *,
                     request_id: str, player: str, game: Game | None = None) -> AdvanceView:
        """The purchase made; `game` is the game as this transaction last wrote it."""
        game = game or play.game
        banked = record.fappo_state.unspent_cc
        state = _bought(record, purchase, game)
        sheet = replace(state, traits={t: state.trait_maximum(t) for t in state.traits},
                        floating=state.floating_maximum)
        record = record.model_copy(update={"state": state, "sheet": sheet,
                                           "version": record.version + 1})
        await play.uow.characters.update(record)
        if purchase.item is not None:  # F22 Amb-7: an item made legendary, now recorded
            await play.uow.games.update(record_items(game, record.name, (purchase.item,)))
        await play.audit("character.advance", name=record.name, request=request_id or None,
                         purchase=_PURCHASE.dump_python(purchase, mode="json"))
        return AdvanceView(id=request_id, character=record.name, change=describe(purchase),
                           cost=banked - state.unspent_cc, banked=banked, player=player,
                           applied=True, after=CharacterView.of(record, game.rules))
