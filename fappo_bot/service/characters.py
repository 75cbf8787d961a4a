"""Characters: created from a sheet (checked, F1), shown, edited by a GM, retired, transferred,
taken over as NPCs (F30); enemies and fodder groups added by the GM (F3, F20, F21)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fappo_bot.rules import (
    PLASER_BATTERY,
    ArmorType,
    Character,
    RulesError,
    Sheet,
    Tier,
    TournamentLedger,
    Weapon,
    armor_by_name,
    character_from_sheet,
    check_sheet,
    starting_budget,
)
from fappo_bot.service.base import (
    UseCases,
    audit,
    check_name,
    is_gm,
    load_character,
    load_game,
    require_fappo,
    require_gm,
    require_member,
    require_not_retired,
)
from fappo_bot.service.bounds import MAX_COUNT, MAX_POSITION, check_number, sheet_problems
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterKind,
    CharacterRecord,
    CharacterStatus,
    Game,
    Role,
)
from fappo_bot.service.retry import retried
from fappo_bot.service.users import name_of
from fappo_bot.service.views import CharacterView, SheetReply
from fappo_bot.sheets.convert import sheet_data
from fappo_bot.sheets.xp import XpSheetProblems, xp_sheet_from_dict


class NewCharacter(BaseModel):
    """A character sheet as written (F1) with the character's equipment and place."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    sheet: Sheet = Field(default_factory=Sheet)
    weapons: tuple[str, ...] = ()
    wielding: str | None = None
    armor: str | None = None
    shield: str | None = None
    #: creatures in a nuisance or minion group (F20, F21)
    count: int = Field(default=1, ge=0, le=MAX_COUNT)
    position: int = Field(default=0, ge=-MAX_POSITION, le=MAX_POSITION)
    #: a plaser's battery (F19): full (10) unless the sheet says; a GM's edit that gives it
    #: recharges the battery, one that does not keeps what is left
    ammo: int | None = Field(default=None, ge=0, le=PLASER_BATTERY)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NewCharacter:
        """From one mapping (a YAML sheet): the sheet's keys and the equipment's together."""
        problems = sheet_problems(data)
        if problems:
            raise InvalidInput("This sheet cannot be read:", tuple(problems))
        sheet_keys = {f.name for f in fields(Sheet)}
        sheet = {k: v for k, v in data.items() if k in sheet_keys}
        rest = {k: v for k, v in data.items() if k not in sheet_keys}
        if isinstance(rest.get("weapons"), list):
            rest["weapons"] = tuple(rest["weapons"])
        try:
            return cls.model_validate({**rest, "sheet": sheet_data(sheet)})
        except ValidationError as exc:
            raise InvalidInput.of("This sheet cannot be read:", exc) from None

    def build(self) -> Character | tuple[str, ...]:
        """The rules' Character (pools full), or every problem of the sheet (F1)."""
        problems: list[str] = []
        check = check_sheet(self.sheet)
        problems.extend(p.message for p in check.errors)
        armor = _armor(self.armor, "armor", problems)
        shield = _armor(self.shield, "shield", problems)
        for weapon in self.weapons:
            if Weapon.named(weapon) is None:
                problems.append(f'"{weapon}" is not a weapon of the weapon table (F19).')
        if problems:
            return tuple(problems)
        try:
            character = character_from_sheet(
                self.name.strip(), self.sheet, weapons=self.weapons,
                wielding=self.wielding or (self.weapons[0] if self.weapons else None),
                armor=armor, shield=shield,
            )
        except RulesError as exc:
            return (str(exc),)
        update: dict[str, Any] = {"count": self.count, "position": self.position}
        if any(w.ammo_cost for w in character.weapons):
            update["ammo"] = PLASER_BATTERY if self.ammo is None else self.ammo
        return replace(character, **update)


def _armor(name: str | None, what: str, problems: list[str]) -> ArmorType:
    if name is None:
        return ArmorType.NONE
    found = armor_by_name(name)
    if found is None:
        problems.append(f'"{name}" is not a kind of {what} (none, light, medium, heavy).')
        return ArmorType.NONE
    return found


#: what a sheet edit keeps of the character's current state (its wounds, place and clocks)
_CARRIED = (
    "health",
    "pips",
    "settled_health",
    "settled_pips",
    "position",
    "statuses",
    "shock",
    "dying_turns",
    "attended_turns",
    "ammo",
    "steadied_turns",
    "steady_target",
    "heal_elapsed",
    "heal_checked",
    "heal_halved",
    "wielding",
)


def carry_state(current: Character, sheet: Character, *, recharge: bool = False) -> Character:
    """The new sheet with the current state's wounds, position and clocks, and the SP already
    spent still spent (capped by the new maxima). Used by GM edits; with `recharge` (the edit
    gives `ammo`) the sheet's battery replaces what was left (F19)."""
    update: dict[str, Any] = {name: getattr(current, name) for name in _CARRIED}
    if recharge or (current.ammo is None and sheet.ammo is not None):
        update["ammo"] = sheet.ammo
    traits = {}
    for trait, full in sheet.traits.items():
        spent = current.trait_maximum(trait) - current.traits.get(trait, 0)
        traits[trait] = max(0, full - max(0, spent)) if trait in current.traits else full
    update["traits"] = traits
    update["trait_max"] = {t: sheet.trait_maximum(t) for t in sheet.traits}
    floating_spent = max(0, current.floating_maximum - current.floating)
    update["floating"] = max(0, sheet.floating - floating_spent)
    update["floating_max"] = sheet.floating_maximum
    if sheet.weapon(current.wielding) is None:
        update["wielding"] = sheet.wielding
    return replace(sheet, **update)


def full_sheet(sheet: Character) -> Character:
    """The sheet with its maxima made explicit, so restoring SP (F27) knows them."""
    return replace(sheet, trait_max={t: sheet.trait_maximum(t) for t in sheet.traits}, floating_max=sheet.floating_maximum)


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
                sheet=replace(retired.sheet, name=renamed),
                state=replace(retired.state, name=renamed),
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
        raise Conflict(f'There is already a character called "{name}" here.')
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
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
        if game.ruleset == "xp":
            return await self.create_xp(game_id, actor, data, owner=owner,
                                        kind=CharacterKind.NPC if kind is None else kind)
        new = NewCharacter.from_dict(data)
        if kind is None:
            return await self.add_enemy(game_id, actor, new)
        return await self.create(game_id, actor, new, owner=owner, kind=kind)

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
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            if game.ruleset != "xp":
                raise Conflict(f'"{game.name}" plays the {game.ruleset} rules: an Xp sheet does '
                               "not apply to it.")
            roles = await require_member(uow, game, actor)
            gm = Role.GM in roles
            if sheet.npc and kind is CharacterKind.PC:
                kind = CharacterKind.NPC
            if kind is not CharacterKind.PC and not gm:
                raise Forbidden("Only a GM can add NPCs.")
            name, owner = await _name_and_owner(uow, game, sheet.name, actor, gm, kind, owner)
            shell = Character(name=name)
            record = CharacterRecord(
                id=self.deps.ids(), game_id=game.id, name=name, owner=owner, kind=kind,
                sheet=shell, state=shell, xp=sheet.model_copy(update={"name": name}),
                created_at=self.now(),
            )
            await uow.characters.add(record)
            await audit(uow, self.deps, game.id, actor, "character.create", name=name,
                        owner=owner, kind=kind.value, checked=True, ruleset="xp")
            await uow.commit()
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
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            require_fappo(game, "character sheets")
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
                built = new.build()
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
            await audit(uow, self.deps, game.id, actor, "character.create", name=name,
                        owner=owner, kind=kind.value, checked=isinstance(new, NewCharacter))
            await uow.commit()
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
                raise Forbidden(f"{record.name}'s sheet is for the GMs only.")
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
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            require_fappo(game, "sheet edits")
            await require_gm(uow, game, actor)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            check_name(new.name, "character")
            if new.name.casefold() != record.name.casefold():
                clash = await uow.characters.by_name(game.id, new.name)
                if clash is not None:
                    raise Conflict(f'There is already a character called "{new.name}" here.')
            built = new.build() if isinstance(new, NewCharacter) else new
            if isinstance(built, tuple):
                return SheetReply(ok=False, problems=built)
            sheet = full_sheet(built)
            record = await _bump(uow, record, name=sheet.name, sheet=sheet,
                                 state=carry_state(record.state, sheet, recharge=isinstance(
                                     new, NewCharacter) and new.ammo is not None))
            await audit(uow, self.deps, game.id, actor, "character.edit", name=record.name)
            await uow.commit()
            return SheetReply(ok=True, character=CharacterView.of(record))

    @retried
    async def set_count(self, game_id: str, actor: str, name: str, count: int) -> CharacterView:
        """A GM sets the number of creatures in a nuisance or minion group (F20, F21)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            require_fappo(game, "counts of nuisances and minions")
            await require_gm(uow, game, actor)
            check_number(count, "A group's number of creatures", 0, MAX_COUNT)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.kind is not CharacterKind.GROUP:
                raise Conflict(f"{record.name} is not a group of nuisances or minions.")
            record = await _bump(uow, record, state=replace(record.state, count=count))
            await audit(uow, self.deps, game.id, actor, "character.count", name=record.name,
                        count=count)
            await uow.commit()
            return CharacterView.of(record)

    @retried
    async def retire(self, game_id: str, actor: str, name: str) -> CharacterView:
        """The owner or a GM retires a character: it takes no further part (kept forever)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            record = await load_character(uow, game, name)
            await self._owner_or_gm(uow, game, record, actor)
            require_not_retired(record)
            record = await _bump(uow, record, status=CharacterStatus.RETIRED)
            await audit(uow, self.deps, game.id, actor, "character.retire", name=record.name)
            await uow.commit()
            return CharacterView.of(record)

    @retried
    async def transfer(
        self, game_id: str, actor: str, name: str, to_user: str, *, permanent: bool = True
    ) -> CharacterView:
        """A GM passes a character to another player (F30): for good (`permanent`, the owner
        changes) or for now (the other player runs it until the GM restores control)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.kind is not CharacterKind.PC:
                raise Conflict(f"{record.name} is not a player character.")
            members = await uow.members.list(game.id)
            if not any(m.user_id == to_user for m in members):
                who = await name_of(uow, to_user)
                raise Conflict(f"{who} is not in this game; add them as a player first.")
            update: dict[str, Any] = {"gm_controlled": False, "status": CharacterStatus.ACTIVE,
                                      "missed_turns": 0}
            if permanent:
                update.update(owner=to_user, controller=None)
            else:
                update["controller"] = to_user
            record = await _bump(uow, record, **update)
            await audit(uow, self.deps, game.id, actor, "character.transfer", name=record.name,
                        to=to_user, permanent=permanent)
            await uow.commit()
            return CharacterView.of(record)

    @retried
    async def npcize(self, game_id: str, actor: str, name: str) -> CharacterView:
        """F30: the GMs assume the character as an NPC; the player returns only by GM command."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.run_by_gm:
                raise Conflict(f"{record.name} is already run by the GMs.")
            record = await _bump(uow, record, gm_controlled=True, controller=None,
                                 status=CharacterStatus.ACTIVE)
            await audit(uow, self.deps, game.id, actor, "character.npcize", name=record.name)
            await uow.commit()
            return CharacterView.of(record)

    @retried
    async def mark_inactive(self, game_id: str, actor: str, name: str) -> CharacterView:
        """F30: the GM confirms that a player who missed `inactive_threshold` turns does not
        respond; the character takes no action until the GM NPC-izes, transfers or restores it."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            threshold = game.rules.inactive_threshold
            if record.missed_turns < threshold:
                raise Conflict(
                    f"{record.name} has missed {record.missed_turns} turn(s) in a row; "
                    f"a character becomes inactive after {threshold} (F30)."
                )
            record = await _bump(uow, record, status=CharacterStatus.INACTIVE)
            await audit(uow, self.deps, game.id, actor, "character.inactive", name=record.name,
                        missed=record.missed_turns)
            await uow.commit()
            return CharacterView.of(record)

    @retried
    async def restore_control(self, game_id: str, actor: str, name: str) -> CharacterView:
        """F30 "only ... at the GM's mercy": the owner runs the character again."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            record = await load_character(uow, game, name)
            require_not_retired(record)
            if record.owner is None:
                raise Conflict(f"{record.name} has no player to give it back to.")
            record = await _bump(uow, record, gm_controlled=False, controller=None,
                                 status=CharacterStatus.ACTIVE, missed_turns=0)
            await audit(uow, self.deps, game.id, actor, "character.restore", name=record.name)
            await uow.commit()
            return CharacterView.of(record)

    @staticmethod
    async def _owner_or_gm(
        uow: UnitOfWork, game: Game, record: CharacterRecord, actor: str
    ) -> None:
        if record.owner == actor or await is_gm(uow, game, actor):
            return
        raise Forbidden(f"Only {record.name}'s player or a GM can do that.")
