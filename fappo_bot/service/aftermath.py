"""After the fight: scene end with SP restoration (F27), adventure end with advancement and the
tournament ledger (F28)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fappo_bot.rules.advancement import (
    MAX_AWARD,
    Purchase,
    TournamentLedger,
    award_advancement,
    record_adventure,
    spend_cc,
)
from fappo_bot.rules.character import FLOATING, Character
from fappo_bot.rules.rest import BreakKind, rest_points, restore_sp
from fappo_bot.rules.results import RulesError
from fappo_bot.service import notices
from fappo_bot.service.base import (
    UseCases,
    audit,
    load_character,
    load_game,
    queue,
    require_gm,
    require_not_retired,
)
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterKind,
    CharacterRecord,
    CharacterStatus,
    Game,
    LedgerEntry,
    TurnStatus,
)
from fappo_bot.service.views import CharacterView, LedgerView

SceneGap = BreakKind
"""F27: how long until the next scene (the rules core's `BreakKind`)."""


def _rules_error(name: str, exc: RulesError) -> InvalidInput:
    return InvalidInput(f"{name}: {exc}")


class AftermathService(UseCases):
    """Scene and adventure ends, and the tournament ledger."""

    async def declare_rest(
        self, game_id: str, actor: str, name: str, allocation: Mapping[str, int]
    ) -> dict[str, int]:
        """F27 Amb-2: a player declares where their character's restored SP go at the next
        scene end (pool name -> points; a Trait or `floating`)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.runner() != actor:
                await require_gm(uow, game, actor)
            pools = {t.value.casefold(): t.value for t in record.state.traits}
            pools[FLOATING] = FLOATING
            problems = [f'{record.name} has no SP pool "{pool}".'
                        for pool in allocation if pool.strip().casefold() not in pools]
            problems += [f"{pool}: points are a whole number of 0 or more."
                         for pool, points in allocation.items() if points < 0]
            if problems:
                raise InvalidInput("Nothing was declared:", tuple(problems))
            declared = {pools[p.strip().casefold()]: n for p, n in allocation.items() if n}
            table = dict(game.settings.rest_declarations)
            table[record.name] = declared
            game = game.model_copy(update={
                "settings": game.settings.model_copy(update={"rest_declarations": table}),
                "version": game.version + 1})
            await uow.games.update(game)
            await audit(uow, self.deps, game.id, actor, "rest.declare", name=record.name,
                        allocation=declared)
            await uow.commit()
            return declared

    async def end_scene(
        self,
        game_id: str,
        actor: str,
        gap: SceneGap,
        allocations: Mapping[str, Mapping[str, int]] | None = None,
    ) -> list[CharacterView]:
        """A GM ends the scene (F27): every character in it regains SP by the gap, as its
        player declared (`declare_rest`) or as `allocations` (by character name) say, else by
        the engine's default (F27 Amb-2)."""
        allocations = allocations or {}
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            await self._no_turn_in_flight(uow, game)
            records = await self._scene(uow, game)
            self._known(records, allocations)
            points = rest_points(gap)
            changed = []
            problems: list[str] = []
            states: list[tuple[CharacterRecord, Character]] = []
            for record in records:
                wanted = next((v for k, v in allocations.items()
                               if k.casefold() == record.name.casefold()),
                              game.settings.rest_declarations.get(record.name))
                try:
                    states.append((record, restore_sp(record.state, gap, wanted, game.rules)))
                except RulesError as exc:
                    problems.append(f"{record.name}: {exc}")
            if problems:
                raise InvalidInput("No SP were restored:", tuple(problems))
            for record, state in states:
                changed.append(await self._save(uow, record, state))
            game = game.model_copy(update={
                "settings": game.settings.model_copy(update={"scene": game.settings.scene + 1,
                                                             "rest_declarations": {}}),
                "version": game.version + 1})
            await uow.games.update(game)
            label = "all" if points is None else f"{points} each"
            await queue(uow, self.deps, game, "scene_ended", notices.scene_ended(label),
                        f"scene-ended:{game.id}:{game.settings.scene}")
            await audit(uow, self.deps, game.id, actor, "scene.end", gap=gap.value,
                        allocations={k: dict(v) for k, v in allocations.items()})
            await uow.commit()
            return [CharacterView.of(r) for r in changed]

    async def end_adventure(
        self,
        game_id: str,
        actor: str,
        awards: Mapping[str, int],
        *,
        completed: bool = True,
    ) -> list[CharacterView]:
        """A GM ends the adventure (F28): each PC banks its award (0..3 CC); every SP is
        restored (F27 "All"); in tournament games each player of a completed adventure earns
        1 point in the ledger, kept forever across games."""
        problems = [f"{name}: an adventure awards 0 to {MAX_AWARD} CC [F:L467], not {award}."
                    for name, award in awards.items() if not 0 <= award <= MAX_AWARD]
        if problems:
            raise InvalidInput("No award was given:", tuple(problems))
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            await self._no_turn_in_flight(uow, game)
            records = await self._scene(uow, game)
            self._known(records, awards)
            pcs = {r.name.casefold() for r in records if r.kind is CharacterKind.PC}
            not_pcs = [n for n in awards if n.casefold() not in pcs]
            if not_pcs:
                raise InvalidInput(f"Only player characters get awards: {', '.join(not_pcs)}.")
            changed = []
            lines = []
            for record in records:
                award = next((v for k, v in awards.items()
                              if k.casefold() == record.name.casefold()), 0)
                state = restore_sp(record.state, BreakKind.ADVENTURE_END, None, game.rules)
                state = award_advancement(state, award)
                changed.append(await self._save(uow, record, state))
                if award:
                    lines.append(f"{record.name} +{award} CC")
            if game.settings.tournament and completed:
                owners = sorted({r.owner for r in records
                                 if r.kind is CharacterKind.PC and r.owner is not None})
                for owner in owners:
                    earned = record_adventure(TournamentLedger(player=owner), completed=True)
                    await uow.ledger.add(LedgerEntry(
                        id=self.deps.ids(), player=owner, game_id=game.id, points=earned.points,
                        reason=f"adventure {game.settings.adventure} completed",
                        at=self.now()))
            settings = game.settings.model_copy(update={
                "adventure": game.settings.adventure + 1, "scene": game.settings.scene + 1})
            game = game.model_copy(update={"settings": settings, "version": game.version + 1})
            await uow.games.update(game)
            await queue(uow, self.deps, game, "adventure_ended", notices.adventure_ended(lines),
                        f"adventure-ended:{game.id}:{settings.adventure}")
            await audit(uow, self.deps, game.id, actor, "adventure.end", awards=dict(awards),
                        completed=completed)
            await uow.commit()
            return [CharacterView.of(r) for r in changed]

    async def spend_cc(
        self, game_id: str, actor: str, name: str, purchase: Purchase
    ) -> CharacterView:
        """The player (or a GM) spends banked CC on the creation menu (F28 Amb-1); caps apply,
        and a refused purchase changes nothing."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.owner != actor:
                await require_gm(uow, game, actor)
            try:
                state = spend_cc(record.state, purchase, config=game.rules)
            except RulesError as exc:
                raise _rules_error(record.name, exc) from None
            sheet = state.model_copy(update={
                "traits": {t: state.trait_maximum(t) for t in state.traits},
                "floating": state.floating_maximum})
            record = record.model_copy(update={"state": state, "sheet": sheet,
                                               "version": record.version + 1})
            await uow.characters.update(record)
            await audit(uow, self.deps, game.id, actor, "character.advance", name=record.name,
                        purchase=purchase.model_dump(mode="json"))
            await uow.commit()
            return CharacterView.of(record)

    async def ledger(self, player: str) -> LedgerView:
        """F28 tournament points of one player across every game."""
        async with self.uow() as uow:
            entries = await uow.ledger.for_player(player)
            return LedgerView(player=player, total=sum(e.points for e in entries),
                              entries=tuple((e.game_id, e.points, e.reason) for e in entries))

    # ---- helpers ------------------------------------------------------------------------------
    @staticmethod
    async def _scene(uow: UnitOfWork, game: Game) -> list[CharacterRecord]:
        return [r for r in await uow.characters.list(game.id)
                if r.status is not CharacterStatus.RETIRED]

    @staticmethod
    def _known(records: list[CharacterRecord], names: Mapping[str, Any]) -> None:
        known = {r.name.casefold() for r in records}
        unknown = [n for n in names if n.casefold() not in known]
        if unknown:
            raise InvalidInput(f"Nobody in this game is called {', '.join(unknown)}.")

    @staticmethod
    async def _no_turn_in_flight(uow: UnitOfWork, game: Game) -> None:
        """F27 Amb-4 / F7: a scene ends between turns, not while one is closed for resolution."""
        turn = await uow.turns.latest(game.id)
        if turn is not None and turn.status is TurnStatus.CLOSED:
            raise Conflict(f"Turn {turn.number} is closed; resolve it (or reopen it) first.")

    @staticmethod
    async def _save(uow: UnitOfWork, record: CharacterRecord, state: Character) -> CharacterRecord:
        new = record.model_copy(update={"state": state, "version": record.version + 1})
        await uow.characters.update(new)
        return new
