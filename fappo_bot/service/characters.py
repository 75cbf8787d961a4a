"""Characters: created from a sheet (checked, F1), shown, edited by a GM, retired, transferred,
taken over as NPCs (F30); enemies and fodder groups added by the GM (F3, F20, F21). A FAPPO
sheet is built in `sheet_building.py`; which sheet a game takes is its ruleset's (`rulesets/`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.rules import (
    Character,
    Tier,
    TournamentLedger,
    starting_budget,
)
from fappo_bot.service.base import (
    UseCases,
    check_name,
    is_gm,
    load_character,
    load_game,
    require_member,
    require_not_retired,
)
from fappo_bot.service.bounds import MAX_COUNT, check_number
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput
from fappo_bot.service.legendary import record_items
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterKind,
    CharacterRecord,
    CharacterStatus,
    Game,
    Role,
)
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.sheet_building import NewCharacter, carry_state, full_sheet
from fappo_bot.service.sheet_changes import sheet_changes
from fappo_bot.service.traits import catalogue
from fappo_bot.service.users import name_of
from fappo_bot.service.views import CharacterView, SheetReply
from fappo_bot.sheets.xp import XpSheetProblems, starting_problems, xp_sheet_from_dict
from fappo_bot.words import plural

__all__ = ["CharacterService", "NewCharacter", "carry_state", "full_sheet"]


async def _bump(uow: UnitOfWork, record: CharacterRecord, **update: Any) -> CharacterRecord:
    new = record.model_copy(update={**update, "version": record.version + 1})
    await uow.characters.update(new)
    return new


async def _free_name(uow: UnitOfWork, retired: CharacterRecord) -> None:
    """A retired character gives its name up to a new one: it is kept, as `Kael (retired)`
    (`Kael (retired 2)` when that is taken too). Names are unique per game, retired or not."""
    n = 1
    while True:
        renamed = f"{retired.name} (retired{'' if n == 1 else f' {n}'})"
        if await uow.characters.by_name(retired.game_id, renamed) is None:
            break
        n += 1
    await _bump(uow, retired, name=renamed,
                sheet=None if retired.sheet is None else replace(retired.sheet, name=renamed),
                state=None if retired.state is None else replace(retired.state, name=renamed),
                xp=None if retired.xp is None else retired.xp.model_copy(update={"name": renamed}))


async def _name_and_owner(uow: UnitOfWork, game: Game, wanted: str, actor: str, gm: bool,
                          kind: CharacterKind, owner: str | None) -> tuple[str, str | None]:
    """A new character's checked name, freed of a retired namesake, and its owner (a PC's:
    the actor, or the player a GM names; none for the GMs' characters). FAPPO and Xp sheets
    alike."""
    if kind is CharacterKind.PC:
        owner = owner if (gm and owner is not None) else (owner or actor)
        if owner != actor and not gm:
            raise Forbidden("You can only create a character for yourself.")
    else:
        owner = None
    name = check_name(wanted, "character")
    clash = await uow.characters.by_name(game.id, name)
    if clash is not None and clash.status is not CharacterStatus.RETIRED:
        raise Conflict(f'There is already a character called "{safe(name)}" here.')
    if clash is not None:
        await _free_name(uow, clash)
    return name, owner


class CharacterService(UseCases):
    """Character use cases. `actor` is always the user who asks."""

    async def create_from_data(
        self,
        game_id: str,
        actor: str,
        data: Mapping[str, Any],
        *,
        owner: str | None = None,
        kind: CharacterKind | None = CharacterKind.PC,
    ) -> SheetReply:
        """A character from a sheet as the adapter read it (a YAML mapping), in the game's
        ruleset: a FAPPO sheet is priced (F1, `create`), an Xp sheet is checked (`create_xp`).
        `kind` None: the GM adds an enemy (FAPPO: an enemy or a group by tier; Xp: an NPC).
        Not `@retried` itself: it reads the ruleset, then runs one use case that is."""
        async with self.in_game(game_id, actor, writes=False) as play:
            ruleset = self.ruleset(play.game)
        return await ruleset.create_character(self, game_id, actor, data, owner, kind)

    @retried
    async def create_xp(
        self,
        game_id: str,
        actor: str,
        data: Mapping[str, Any],
        *,
        owner: str | None = None,
        kind: CharacterKind = CharacterKind.PC,
    ) -> SheetReply:
        """An Xp character from its sheet (`fappo_bot.sheets.xp`): every fault comes back as
        data and nothing is stored. A player adds their own PC; a GM adds any, and NPCs (a
        sheet with `who: npc`) only as a GM's character."""
        try:
            sheet = xp_sheet_from_dict(data)
        except XpSheetProblems as exc:
            return SheetReply(ok=False, problems=exc.problems)
        if kind is CharacterKind.PC and starting_problems(sheet):  # X15, at creation only
            return SheetReply(ok=False, problems=starting_problems(sheet))
        async with self.in_game(game_id, actor, needs=Feature.XP_SHEETS) as play:
            uow, game = play.uow, play.game
            roles = await require_member(uow, game, actor)
            gm = Role.GM in roles
            if sheet.npc and kind is CharacterKind.PC:
                kind = CharacterKind.NPC
            if kind is not CharacterKind.PC and not gm:
                raise Forbidden("Only a GM can add NPCs.")
            name, owner = await _name_and_owner(uow, game, sheet.name, actor, gm, kind, owner)
            record = CharacterRecord(
                id=self.deps.ids(), game_id=game.id, name=name, owner=owner, kind=kind,
                xp=sheet.model_copy(update={"name": name}), created_at=self.now(),
            )
            await uow.characters.add(record)
            await play.audit("character.create", name=name,
                             owner=owner, kind=kind.value, checked=True, ruleset=game.ruleset)
            return SheetReply(ok=True, character=CharacterView.of(record))

    @retried
    async def create(
        self,
        game_id: str,
        actor: str,
        new: NewCharacter | Character,
        *,
        owner: str | None = None,
        kind: CharacterKind = CharacterKind.PC,
    ) -> SheetReply:
        """A player creates their PC from a sheet; a GM creates any character (for a player
        with `owner`).

        A `NewCharacter` is priced and checked by the rules (F1, F3: `check_sheet`); its
        problems come back as data and nothing is stored. A ready `Character` (an improvised
        enemy, a case file) skips the check and only a GM may add one.
        """
        async with self.in_game(game_id, actor, needs=Feature.CHARACTER_SHEETS) as play:
            uow, game = play.uow, play.game
            roles = await require_member(uow, game, actor)
            gm = Role.GM in roles
            if kind is not CharacterKind.PC and not gm:
                raise Forbidden("Only a GM can add NPCs, enemies and groups.")
            if isinstance(new, Character) and not gm:
                raise Forbidden("Only a GM can add a character without a sheet to check.")
            name, owner = await _name_and_owner(uow, game, new.name, actor, gm, kind, owner)
            if isinstance(new, NewCharacter):
                if (kind is CharacterKind.PC and game.settings.tournament
                        and new.sheet.budget is None and owner is not None):
                    # F28 tournament: 30 plus the player's points, kept across games
                    points = sum(e.points for e in await uow.ledger.for_player(owner))
                    ledger = TournamentLedger(player=owner, points=points)
                    new = new.model_copy(update={"sheet": replace(
                        new.sheet, budget=starting_budget(ledger))})
                built = new.build(catalogue(game))
                if isinstance(built, tuple):
                    return SheetReply(ok=False, problems=built)
                character = built
            else:
                character = new
            if kind is CharacterKind.GROUP and character.tier not in (Tier.NUISANCE, Tier.MINION):
                raise InvalidInput("A group must be of nuisances or minions (F20, F21).")
            character = full_sheet(replace(character, name=name))
            record = CharacterRecord(
                id=self.deps.ids(),
                game_id=game.id,
                name=name,
                owner=owner,
                kind=kind,
                sheet=character,
                state=character,
                created_at=self.now(),
            )
            await uow.characters.add(record)
            if isinstance(new, NewCharacter) and new.sheet.legendary:  # F22: who holds what
                await uow.games.update(record_items(game, name, new.sheet.legendary))
            await play.audit("character.create", name=name,
                             owner=owner, kind=kind.value, checked=isinstance(new, NewCharacter))
            return SheetReply(ok=True, character=CharacterView.of(record))

    @retried
    async def add_enemy(
        self, game_id: str, actor: str, new: NewCharacter | Character
    ) -> SheetReply:
        """A GM adds an enemy; nuisance and minion sheets become groups (F3, F20, F21)."""
        tier = new.sheet.tier if isinstance(new, NewCharacter) else new.tier
        kind = CharacterKind.GROUP if tier in (Tier.NUISANCE, Tier.MINION) else CharacterKind.ENEMY
        return await self.create(game_id, actor, new, kind=kind)

    async def show(self, game_id: str, name: str, viewer: str | None = None) -> CharacterView:
        """A character's sheet. An adapter's user (`viewer`) sees a player character's sheet;
        any other (an enemy's, a group's, an NPC's) is the GMs' secret. Without a viewer (the
        operator, the service's own callers) every sheet is shown."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            record = await load_character(uow, game, name)
            if (viewer is not None and record.kind is not CharacterKind.PC
                    and not await is_gm(uow, game, viewer)):
                raise Forbidden(f"{safe(record.name)}'s sheet is for the GMs only.")
            return CharacterView.of(record)

    async def list(self, game_id: str, include_retired: bool = False) -> list[CharacterView]:
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            return [
                CharacterView.of(c)
                for c in await uow.characters.list(game.id)
                if include_retired or c.status is not CharacterStatus.RETIRED
            ]

    @retried
    async def edit(
        self, game_id: str, actor: str, name: str, new: NewCharacter | Character
    ) -> SheetReply:
        """A GM approves a new sheet (checked, F1, when it is a `NewCharacter`); wounds,
        position and spent SP carry over."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.SHEET_EDITS) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            check_name(new.name, "character")
            if new.name.casefold() != record.name.casefold():
                clash = await uow.characters.by_name(game.id, new.name)
                if clash is not None:
                    raise Conflict(f'There is already a character called "{safe(new.name)}" here.')
            built = new.build(catalogue(game)) if isinstance(new, NewCharacter) else new
            if isinstance(built, tuple):
                return SheetReply(ok=False, problems=built)
            sheet = full_sheet(built)
            before = CharacterView.of(record, game.rules)
            record = await _bump(uow, record, name=sheet.name, sheet=sheet,
                                 state=carry_state(record.fappo_state, sheet, recharge=isinstance(
                                     new, NewCharacter) and new.ammo is not None))
            after = CharacterView.of(record, game.rules)
            changes = sheet_changes(before, after)
            if isinstance(new, NewCharacter) and new.sheet.legendary:  # F22: who holds what
                await uow.games.update(record_items(game, record.name, new.sheet.legendary))
            await play.audit("character.edit", name=record.name, was=before.name,
                             changes=list(changes))
            return SheetReply(ok=True, character=after, changes=changes)

    async def edit_from_data(
        self, game_id: str, actor: str, name: str, data: Mapping[str, Any]
    ) -> SheetReply:
        """A GM's new sheet for a character, as the adapter read it (a YAML mapping), checked
        by the game's ruleset (`edit` for FAPPO, `edit_xp`); the character's state carries
        over, and the reply lists what changed. A player is told only that GMs do this."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            ruleset = self.ruleset(play.game)
        return await ruleset.edit_character(self, game_id, actor, name, data)

    @retried
    async def edit_xp(
        self, game_id: str, actor: str, name: str, data: Mapping[str, Any]
    ) -> SheetReply:
        """A GM's new Xp sheet for a character: checked like a new one (every fault as data,
        nothing stored); its current Luck and plot points carry over (X14, X15)."""
        try:
            sheet = xp_sheet_from_dict(data)
        except XpSheetProblems as exc:
            return SheetReply(ok=False, problems=exc.problems)
        async with self.in_game(game_id, actor, gm=True, needs=Feature.XP_SHEETS) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.xp is None:
                raise Conflict(f"{safe(record.name)} has no Xp sheet to edit.")
            new_name = check_name(sheet.name, "character")
            if new_name.casefold() != record.name.casefold() and \
                    await uow.characters.by_name(game.id, new_name) is not None:
                raise Conflict(f'There is already a character called "{safe(new_name)}" here.')
            before = CharacterView.of(record)
            kept = sheet.model_copy(update={"name": new_name, "luck": record.xp.luck,
                                            "plot_points": record.xp.plot_points})
            record = await _bump(uow, record, name=new_name, xp=kept)
            after = CharacterView.of(record)
            changes = sheet_changes(before, after)
            await play.audit("character.edit", name=record.name, was=before.name,
                             changes=list(changes), ruleset=game.ruleset)
            return SheetReply(ok=True, character=after, changes=changes)

    @retried
    async def set_count(self, game_id: str, actor: str, name: str, count: int) -> CharacterView:
        """A GM sets the number of creatures in a nuisance or minion group (F20, F21)."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.GROUP_COUNTS) as play:
            uow, game = play.uow, play.game
            check_number(count, "A group's number of creatures", 0, MAX_COUNT)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.kind is not CharacterKind.GROUP:
                raise Conflict(f"{safe(record.name)} is not a group of nuisances or minions.")
            record = await _bump(uow, record, state=replace(record.fappo_state, count=count))
            await play.audit("character.count", name=record.name,
                             count=count)
            return CharacterView.of(record)

    @retried
    async def retire(self, game_id: str, actor: str, name: str) -> CharacterView:
        """The owner or a GM retires a character: it takes no further part (kept forever)."""
        async with self.in_game(game_id, actor) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            await self._owner_or_gm(uow, game, record, actor)
            require_not_retired(record)
            record = await _bump(uow, record, status=CharacterStatus.RETIRED)
            await play.audit("character.retire", name=record.name)
            return CharacterView.of(record)

    @retried
    async def transfer(
        self, game_id: str, actor: str, name: str, to_user: str, *, permanent: bool = True
    ) -> CharacterView:
        """A GM passes a character to another player (F30): for good (`permanent`, the owner
        changes) or for now (the other player runs it until the GM restores control)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.kind is not CharacterKind.PC:
                raise Conflict(f"{safe(record.name)} is not a player character.")
            members = await uow.members.list(game.id)
            if not any(m.user_id == to_user for m in members):
                who = await name_of(uow, to_user)
                raise Conflict(f"{safe(who)} is not in this game; add them as a player first.")
            update: dict[str, Any] = {"gm_controlled": False, "status": CharacterStatus.ACTIVE,
                                      "missed_turns": 0}
            if permanent:
                update.update(owner=to_user, controller=None)
            else:
                update["controller"] = to_user
            record = await _bump(uow, record, **update)
            await play.audit("character.transfer", name=record.name,
                             to=to_user, permanent=permanent)
            return CharacterView.of(record)

    @retried
    async def npcize(self, game_id: str, actor: str, name: str) -> CharacterView:
        """F30: the GMs assume the character as an NPC; the player returns only by GM command."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.run_by_gm:
                raise Conflict(f"{safe(record.name)} is already run by the GMs.")
            record = await _bump(uow, record, gm_controlled=True, controller=None,
                                 status=CharacterStatus.ACTIVE)
            await play.audit("character.npcize", name=record.name)
            return CharacterView.of(record)

    @retried
    async def mark_inactive(self, game_id: str, actor: str, name: str) -> CharacterView:
        """F30: the GM confirms that a player who missed `inactive_threshold` turns does not
        respond; the character takes no action until the GM NPC-izes, transfers or restores it."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            threshold = game.rules.inactive_threshold
            if record.missed_turns < threshold:
                raise Conflict(
                    f"{safe(record.name)} has missed {plural(record.missed_turns, 'turn')} in a row; "
                    f"a character becomes inactive after {threshold} (F30)."
                )
            record = await _bump(uow, record, status=CharacterStatus.INACTIVE)
            await play.audit("character.inactive", name=record.name,
                             missed=record.missed_turns)
            return CharacterView.of(record)

    @retried
    async def restore_control(self, game_id: str, actor: str, name: str) -> CharacterView:
        """F30 "only ... at the GM's mercy": the owner runs the character again."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.owner is None:
                raise Conflict(f"{safe(record.name)} has no player to give it back to.")
            record = await _bump(uow, record, gm_controlled=False, controller=None,
                                 status=CharacterStatus.ACTIVE, missed_turns=0)
            await play.audit("character.restore", name=record.name)
            return CharacterView.of(record)

    @staticmethod
    async def _owner_or_gm(
        uow: UnitOfWork, game: Game, record: CharacterRecord, actor: str
    ) -> None:
        if record.owner == actor or await is_gm(uow, game, actor):
            return
        raise Forbidden(f"Only {safe(record.name)}'s player or a GM can do that.")
