"""After the fight: the GM's "advance time" with healing (F7 Amb-7, F14), scene end with SP
restoration (F27), adventure end with advancement and the tournament ledger (F28)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules import (
    FLOATING,
    MAX_AWARD,
    BreakKind,
    Character,
    HealingCheck,
    Purchase,
    RulesError,
    TournamentLedger,
    Trait,
    award_advancement,
    heal,
    level_index,
    record_adventure,
    rest_points,
    restore_sp,
    spend_cc,
)
from fappo_bot.service import notices
from fappo_bot.service.advance_views import LedgerView
from fappo_bot.service.base import (
    UseCases,
    load_character,
    queue,
    require_gm,
    require_not_retired,
)
from fappo_bot.service.bounds import MAX_SHEET_NUMBER, check_number
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
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.scene_inputs import HealingInput, SceneGap
from fappo_bot.service.traits import catalogue
from fappo_bot.service.views import CharacterView

HEALTHY = "Healthy"
"""The top of every health track (F11)."""

MAX_ADVANCE_SECONDS = 366 * 24 * 3600
"""The longest single `advance_time`: a year (F14's longest heal is Dying's 30 days)."""

#: the rules' values are dataclasses: the audit log's JSON of them
_CHECK: TypeAdapter[HealingCheck] = TypeAdapter(HealingCheck)
_PURCHASE: TypeAdapter[Purchase] = TypeAdapter(Purchase)


class Healed(BaseModel):
    """One wounded character's heal in an `advance_time` (F14)."""

    model_config = ConfigDict(frozen=True)

    name: str
    start_level: str
    level: str
    levels_healed: int
    #: time still needed at the level reached; None when it cannot heal by time
    seconds_to_next: int | None
    #: the Healing check's success level name, when one was made
    check: str | None = None
    notes: tuple[str, ...] = ()


def _rules_error(name: str, exc: RulesError) -> InvalidInput:
    return InvalidInput(f"{safe(name)}: {safe_prose(str(exc))}")


def duration(seconds: int) -> str:
    """`seconds` for people: "10 min", "1 d 2 h", "6 s" (F14 Amb-10: 1 d = 24 h)."""
    if seconds == 0:
        return "0 s"
    parts = []
    rest = seconds
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        amount, rest = divmod(rest, size)
        if amount:
            parts.append(f"{amount} {unit}")
    return " ".join(parts)


def _healed_line(h: Healed) -> str:
    check = f" (Healing check: {h.check})" if h.check else ""
    moved = (f"{h.start_level} -> {h.level}" if h.levels_healed
             else f"still {h.level}")
    if h.level == HEALTHY:
        return f"{safe(h.name)}: {moved}{check}"
    if h.seconds_to_next is None:
        nxt = "does not heal by time" + (
            " until stabilized" if h.level == "Dying" else "")
    else:
        nxt = f"next level in {duration(h.seconds_to_next)}"
    notes = "".join(f" ({n.rstrip('.')})" for n in h.notes if not n.startswith("Dying"))
    return f"{safe(h.name)}: {moved}{check}{notes}; {nxt}"


class AftermathService(UseCases):
    """Scene and adventure ends, and the tournament ledger."""

    @retried
    async def declare_rest(
        self, game_id: str, actor: str, name: str, allocation: Mapping[str, int]
    ) -> dict[str, int]:
        """F27 Amb-2: a player declares where their character's restored SP go at the next
        scene end (pool name -> points; a Trait or `floating`)."""
        async with self.in_game(game_id, actor, needs=Feature.REST_DECLARATIONS) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.runner() != actor:
                await require_gm(uow, game, actor)
            pools = {t.value.casefold(): t.value for t in record.fappo_state.traits}
            pools[FLOATING] = FLOATING
            known = catalogue(game)

            def pool_of(written: str) -> str | None:
                """A pool by its name or a Trait's alternate name (`Agile` is Nimble, F1)."""
                key = written.strip().casefold()
                trait = known.find(written.strip())
                owned = trait is not None and trait in record.fappo_state.traits
                return pools.get(key) or (trait.value if trait is not None and owned else None)

            problems = [f'{safe(record.name)} has no SP pool "{safe(pool)}".'
                        for pool in allocation if pool_of(pool) is None]
            problems += [f"{safe(pool)}: points are a whole number from 0 to {MAX_SHEET_NUMBER:,}."
                         for pool, points in allocation.items()
                         if not 0 <= points <= MAX_SHEET_NUMBER]
            if problems:
                raise InvalidInput("Nothing was declared:", tuple(problems))
            declared = {pool_of(p) or p: n for p, n in allocation.items() if n}
            table = dict(game.settings.rest_declarations)
            table[record.name] = declared
            game = game.model_copy(update={
                "settings": game.settings.model_copy(update={"rest_declarations": table}),
                "version": game.version + 1})
            await uow.games.update(game)
            await play.audit("rest.declare", name=record.name,
                             allocation=declared)
            return declared

    @retried
    async def end_scene(
        self,
        game_id: str,
        actor: str,
        gap: SceneGap | BreakKind,
        allocations: Mapping[str, Mapping[str, int]] | None = None,
    ) -> list[CharacterView]:
        """A GM ends the scene (F27): every character in it regains SP by the gap, as its
        player declared (`declare_rest`) or as `allocations` (by character name) say, else by
        the engine's default (F27 Amb-2)."""
        allocations = allocations or {}
        async with self.in_game(game_id, actor, gm=True, needs=Feature.SCENE_ENDS) as play:
            uow, game = play.uow, play.game
            for allocation in allocations.values():
                for given in allocation.values():
                    check_number(given, "SP allocated at a rest", 0, MAX_SHEET_NUMBER)
            await self._no_turn_in_flight(uow, game)
            records = await self._scene(uow, game)
            self._known(records, allocations)
            gap = BreakKind(gap)  # the rules' own, of the same name (an adapter's `SceneGap`)
            points = rest_points(gap)
            changed = []
            problems: list[str] = []
            states: list[tuple[CharacterRecord, Character]] = []
            for record in records:
                wanted = next((v for k, v in allocations.items()
                               if k.casefold() == record.name.casefold()),
                              game.settings.rest_declarations.get(record.name))
                try:
                    states.append((record, restore_sp(record.fappo_state, gap, wanted, game.rules)))
                except RulesError as exc:
                    problems.append(f"{safe(record.name)}: {safe_prose(str(exc))}")
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
            await play.audit("scene.end", gap=gap.value,
                             allocations={k: dict(v) for k, v in allocations.items()})
            return [CharacterView.of(r) for r in changed]

    @retried
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
        async with self.in_game(game_id, actor, gm=True, needs=Feature.CC_AWARDS) as play:
            uow, game = play.uow, play.game
            problems = [f"{name}: an adventure awards 0 to {MAX_AWARD} CC [F:L467], not "
                        f"{award}." for name, award in awards.items()
                        if not 0 <= award <= MAX_AWARD]
            if problems:
                raise InvalidInput("No award was given:", tuple(problems))
            await self._no_turn_in_flight(uow, game)
            records = await self._scene(uow, game)
            self._known(records, awards)
            pcs = {r.name.casefold() for r in records if r.kind is CharacterKind.PC}
            not_pcs = [n for n in awards if n.casefold() not in pcs]
            if not_pcs:
                raise InvalidInput(f"Only player characters get awards: {', '.join(map(safe, not_pcs))}.")
            changed = []
            lines = []
            for record in records:
                award = next((v for k, v in awards.items()
                              if k.casefold() == record.name.casefold()), 0)
                state = restore_sp(record.fappo_state, BreakKind.ADVENTURE_END, None, game.rules)
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
            await play.audit("adventure.end", awards=dict(awards),
                             completed=completed)
            return [CharacterView.of(r) for r in changed]

    @retried
    async def advance_time(
        self,
        game_id: str,
        actor: str,
        seconds: int,
        *,
        checks: Mapping[str, HealingInput | HealingCheck] | None = None,
    ) -> list[Healed]:
        """The GM lets `seconds` pass without new damage (F7 Amb-7 GM input `advance_time`):
        every non-retired, non-fodder character heals by F14 (Dying only once stabilized, F15;
        Dead never). `checks` gives at most one Healing check per patient (F14: by an assisting
        character, once per level episode, Solid+ halves the level's time).

        Allowed between turns only: refused while the latest turn is closed for resolution, is
        open with a post in it, or still carries provisional hits a post may Reduce (F13); time
        passes between turns and scenes (F7 Amb-7). A refused call changes nothing. Returns
        the heal of every character that was wounded, in the game's order."""
        found: dict[str, HealingCheck] = {patient: _check(given)
                                          for patient, given in (checks or {}).items()}
        async with self.in_game(game_id, actor, gm=True, needs=Feature.HEALING_CLOCKS) as play:
            uow, game = play.uow, play.game
            for healing in found.values():
                check_number(healing.total, "A Healing check's total", -MAX_SHEET_NUMBER,
                             MAX_SHEET_NUMBER)
            if isinstance(seconds, bool) or not 0 <= seconds <= MAX_ADVANCE_SECONDS:
                raise InvalidInput(f"Time advances by 0 to {MAX_ADVANCE_SECONDS} seconds (a "
                                   f"year), not {seconds}.")
            await self._between_turns(uow, game)
            everyone = await self._scene(uow, game)
            records = [r for r in everyone if not r.fappo_state.is_fodder]
            self._known(everyone, found)
            fodder = {r.name.casefold() for r in everyone if r.fappo_state.is_fodder}
            problems = [f"{name}: fodder does not heal by time (F3 Amb-2)."
                        for name in found if name.casefold() in fodder]
            known = {r.name.casefold() for r in everyone}
            patients = [name.casefold() for name in found]
            problems += [f"{name}: one Healing check per patient at a time (F14 Amb-3)."
                         for i, name in enumerate(found) if name.casefold() in patients[:i]]
            problems += [f"{r.name} is {HEALTHY}: there is no level to heal, so no Healing check."
                         for r in records if r.name.casefold() in patients
                         and level_index(r.fappo_state, game.rules) == 0]
            problems += [f"{name}: nobody in this game is called {check.healer}."
                         for name, check in found.items()
                         if check.healer is not None and check.healer.casefold() not in known]
            found = _sagacious_healers(found, everyone)
            outcomes = []
            for record in records:
                check = next((v for k, v in found.items()
                              if k.casefold() == record.name.casefold()), None)
                try:
                    outcome = heal(record.fappo_state, seconds, check=check, config=game.rules)
                except RulesError as exc:
                    problems.append(f"{safe(record.name)}: {safe_prose(str(exc))}")
                    continue
                outcomes.append((record, outcome))
            if problems:
                raise InvalidInput("No time passed:", tuple(problems))
            report: list[Healed] = []
            for record, outcome in outcomes:
                if outcome.character != record.fappo_state:
                    await self._save(uow, record, outcome.character)
                if level_index(record.fappo_state, game.rules) == 0:
                    continue
                report.append(Healed(
                    name=record.name, start_level=outcome.start_level, level=outcome.level,
                    levels_healed=outcome.levels_healed, seconds_to_next=outcome.seconds_to_next,
                    check=outcome.check_level.title if outcome.check_level is not None else None,
                    notes=outcome.notes))
            lines = [_healed_line(h) for h in report]
            await queue(uow, self.deps, game, "time_advanced",
                        notices.time_advanced(duration(seconds), lines),
                        f"time-advanced:{game.id}:{self.deps.ids()}")
            await play.audit("time.advance", seconds=seconds,
                             checks={k: _CHECK.dump_python(v, mode="json") for k, v in found.items()},
                             healed={h.name: [h.start_level, h.level] for h in report})
            return report

    @retried
    async def spend_cc(
        self, game_id: str, actor: str, name: str, purchase: Purchase
    ) -> CharacterView:
        """The player (or a GM) spends banked CC on the creation menu (F28 Amb-1); caps apply,
        and a refused purchase changes nothing."""
        async with self.in_game(game_id, actor, needs=Feature.CC_PURCHASES) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.owner != actor:
                await require_gm(uow, game, actor)
            try:
                state = spend_cc(record.fappo_state, purchase, config=game.rules,
                                 traits=catalogue(game))
            except RulesError as exc:
                raise _rules_error(record.name, exc) from None
            sheet = replace(state, traits={t: state.trait_maximum(t) for t in state.traits}, floating=state.floating_maximum)
            record = record.model_copy(update={"state": state, "sheet": sheet,
                                               "version": record.version + 1})
            await uow.characters.update(record)
            await play.audit("character.advance", name=record.name,
                             purchase=_PURCHASE.dump_python(purchase, mode="json"))
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
            raise InvalidInput(f"Nobody in this game is called {', '.join(map(safe, unknown))}.")

    @staticmethod
    async def _between_turns(uow: UnitOfWork, game: Game) -> None:
        """F7 Amb-7: time is advanced between turns: not while a turn is closed for resolution,
        nor while the open turn already has posts (resolve it first, or advance before anyone
        posts), nor while its posts may still Reduce the last turn's provisional hits (F13: the
        next resolution finalises them from the level before, which would undo any healing)."""
        turn = await uow.turns.latest(game.id)
        if turn is None:
            return
        if turn.status is TurnStatus.CLOSED:
            raise Conflict(f"Turn {turn.number} is closed; resolve it (or reopen it) before "
                           "time passes.")
        if turn.status is TurnStatus.OPEN and await uow.posts.list(turn.id):
            raise Conflict(f"Turn {turn.number} already has posts; resolve it before time "
                           "passes (time advances between turns).")
        if turn.status is TurnStatus.OPEN and turn.pending:
            raise Conflict(f"Turn {turn.number}'s posts can still Reduce hits of the turn "
                           f"before (F13); resolve turn {turn.number} first, then let time pass.")

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


def _check(given: HealingInput | HealingCheck) -> HealingCheck:
    """An adapter's Healing check as the rules take it."""
    if isinstance(given, HealingCheck):
        return given
    return HealingCheck(total=given.total, sp=dict(given.sp), sagacious=given.sagacious,
                        healer=given.healer)


def _sagacious_healers(checks: Mapping[str, HealingCheck],
                       records: Sequence[CharacterRecord]) -> dict[str, HealingCheck]:
    """The checks with a Sagacious healer marked so: Healing's Suggested Trait protects the
    check and doubles its SP (F14 Amb-6, F4), whether or not SP are spent from it."""
    owners = {r.name.casefold(): r for r in records}
    out: dict[str, HealingCheck] = {}
    for patient, check in checks.items():
        healer = owners.get(check.healer.casefold()) if check.healer else None
        if healer is not None and not check.sagacious and \
                healer.fappo_state.owns(Trait.SAGACIOUS):
            check = replace(check, sagacious=True)
        out[patient] = check
    return out
