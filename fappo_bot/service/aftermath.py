"""After the fight: scene end with SP restoration (F27), adventure end with advancement and the
tournament ledger (F28)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from fappo_bot.rules.character import FLOATING, Character
from fappo_bot.rules.config import RulesConfig
from fappo_bot.service import notices
from fappo_bot.service.base import UseCases, audit, load_game, queue, require_gm
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


class SceneGap(StrEnum):
    """F27: how long until the next scene [F:L454-461]."""

    IMMEDIATE = "immediate"
    SAME_DAY = "same_day"
    NIGHT = "night"
    WEEK_PLUS = "week_plus"
    ADVENTURE_END = "adventure_end"


#: F27 Rule: r in {1, 2, 3, 4, all}; None means refill everything
RESTORED: dict[SceneGap, int | None] = {
    SceneGap.IMMEDIATE: 1,
    SceneGap.SAME_DAY: 2,
    SceneGap.NIGHT: 3,
    SceneGap.WEEK_PLUS: 4,
    SceneGap.ADVENTURE_END: None,
}

MAX_AWARD = 3
"""[F:L467] "a small number of character creation points (no more than 3)"."""


def restore(
    character: Character,
    points: int | None,
    allocation: Mapping[str, int] | None,
    config: RulesConfig,
) -> Character:
    """F27: restore `points` SP (None: all) by the player's allocation, else the engine's.

    Uses `fappo_bot.rules.rest.restore_sp` when the rules core has it; otherwise applies the F27
    Rule here: "These restored points may go toward any Trait or mix of Traits. Excess points
    are lost." The default allocation (F27 Amb-2) gives each point to the pool with the largest
    deficit, ties by Trait list order, floating last; floating pools only with
    `floating_sp_restorable` (F27 Amb-1).
    """
    try:
        rest: Any = importlib.import_module("fappo_bot.rules.rest")
    except ModuleNotFoundError:
        rest = None
    if rest is not None and hasattr(rest, "restore_sp"):
        restored: Character = rest.restore_sp(character, points, allocation, config)
        return restored
    traits = dict(character.traits)
    floating = character.floating
    deficits: dict[str, int] = {
        t.value: character.trait_maximum(t) - sp for t, sp in character.traits.items()
    }
    if config.floating_sp_restorable:
        deficits[FLOATING] = character.floating_maximum - floating
    if points is None:
        gains = dict(deficits)
    else:
        gains = {k: 0 for k in deficits}
        left = points
        if allocation:
            for pool, wanted in allocation.items():
                key = next((k for k in deficits if k.casefold() == pool.strip().casefold()), None)
                if key is None:
                    raise InvalidInput(f'{character.name} has no SP pool "{pool}" to restore.')
                take = max(0, min(wanted, left))
                gains[key] += take
                left -= take
        else:
            order = list(deficits)
            while left > 0:
                best = max(order, key=lambda k: (deficits[k] - gains[k], -order.index(k)))
                if deficits[best] - gains[best] <= 0:
                    break
                gains[best] += 1
                left -= 1
    for key, gain in gains.items():
        gain = max(0, min(gain, deficits[key]))  # excess points are lost
        if key == FLOATING:
            floating += gain
        else:
            trait = next(t for t in traits if t.value == key)
            traits[trait] += gain
    return character.model_copy(update={"traits": traits, "floating": floating})


class AftermathService(UseCases):
    """Scene and adventure ends, and the tournament ledger."""

    async def end_scene(
        self,
        game_id: str,
        actor: str,
        gap: SceneGap,
        allocations: Mapping[str, Mapping[str, int]] | None = None,
    ) -> list[CharacterView]:
        """A GM ends the scene (F27): every character in it regains SP by the gap; players'
        allocations by character name, the engine's default for the others (F27 Amb-2)."""
        allocations = allocations or {}
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            await self._no_turn_in_flight(uow, game)
            records = await self._scene(uow, game)
            self._known(records, allocations)
            points = RESTORED[gap]
            changed = []
            for record in records:
                wanted = next((v for k, v in allocations.items()
                               if k.casefold() == record.name.casefold()), None)
                state = restore(record.state, points, wanted, game.rules)
                changed.append(await self._save(uow, record, state))
            game = game.model_copy(update={
                "settings": game.settings.model_copy(update={"scene": game.settings.scene + 1}),
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
        problems = [f"{name}: an award is 0 to {MAX_AWARD} CC [F:L467]."
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
                state = restore(record.state, None, None, game.rules)
                state = state.model_copy(update={"unspent_cc": state.unspent_cc + award})
                changed.append(await self._save(uow, record, state))
                if award:
                    lines.append(f"{record.name} +{award} CC")
            if game.settings.tournament and completed:
                owners = sorted({r.owner for r in records
                                 if r.kind is CharacterKind.PC and r.owner is not None})
                for owner in owners:
                    await uow.ledger.add(LedgerEntry(
                        id=self.deps.ids(), player=owner, game_id=game.id, points=1,
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
