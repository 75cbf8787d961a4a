"""Games: create one in a channel or thread, its GMs and players, its rules flags (R2) and
settings, its status. Every change is audited."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from fappo_bot.posting.safety import safe
from fappo_bot.rules import RulesConfig
from fappo_bot.service.base import (
    Play,
    UseCases,
    audit,
    check_name,
    game_in_channel,
    is_gm,
    load_game,
)
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    AuditEntry,
    Game,
    GameSettings,
    GameStatus,
    Membership,
    Role,
)
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature, Ruleset
from fappo_bot.service.settings_text import (
    SettingView,
    describe,
    game_settings,
    kind_of,
    parse_value,
)
from fappo_bot.service.users import names_of
from fappo_bot.service.views import GameView
from fappo_bot.service.xp_flags import XP_FLAGS, XpFlags

NO_FLAGS_IN_XP = ("FAPPO's rules flags (R2) are not played in an Xp game; its flags are "
                  f"{', '.join(XP_FLAGS)}.")
NO_XP_FLAGS_IN_FAPPO = ("The xp_* flags (R2) are the Xp dice pools'; a FAPPO game plays FAPPO's "
                        "rules flags (the list of settings names them).")


_T = TypeVar("_T")


def _changed(
    schema: TypeAdapter[_T], base: _T, changes: Mapping[str, Any] | None, what: str
) -> _T:
    """`base` with `changes` applied and validated by `schema`, or InvalidInput naming every
    bad `what`."""
    if not changes:
        return base
    try:
        return schema.validate_python({**schema.dump_python(base), **dict(changes)})
    except ValidationError as exc:
        raise InvalidInput.of(f"Some {what} are wrong:", exc) from None


#: the input schemas of what a GM changes (the rules' flags are a plain dataclass)
_RULES: TypeAdapter[RulesConfig] = TypeAdapter(RulesConfig)
_XP_FLAGS: TypeAdapter[XpFlags] = TypeAdapter(XpFlags)
_SETTINGS: TypeAdapter[GameSettings] = TypeAdapter(GameSettings)


def build_rules(base: RulesConfig, changes: Mapping[str, Any] | None) -> RulesConfig:
    """The R2 flags with `changes` applied, or InvalidInput naming every bad flag."""
    return _changed(_RULES, base, changes, "rules flags")


def build_xp_flags(base: XpFlags, changes: Mapping[str, Any] | None) -> XpFlags:
    """An Xp game's flags with `changes` applied, or InvalidInput naming every bad flag."""
    return _changed(_XP_FLAGS, base, changes, "Xp flags")


def build_settings(base: GameSettings, changes: Mapping[str, Any] | None) -> GameSettings:
    """The table settings with `changes` applied, or InvalidInput naming every bad setting."""
    return _changed(_SETTINGS, base, changes, "settings")


async def game_view(uow: UnitOfWork, game: Game,
                    rulesets: Mapping[str, Ruleset]) -> GameView:
    """`game` as its readers see it, its rules' words from its ruleset (`rulesets`, by name)."""
    members = await uow.members.list(game.id)
    gms = tuple(m.user_id for m in members if m.role is Role.GM)
    players = tuple(m.user_id for m in members if m.role is Role.PLAYER)
    ruleset = rulesets.get(game.ruleset)
    rules = {} if ruleset is None else {
        "label": ruleset.label, "tag": ruleset.tag,
        "has_npc_seal": ruleset.has(Feature.NPC_SEAL),
        "dice_pools": ruleset.has(Feature.DICE_POOLS), "flags": ruleset.flags}
    return GameView.of(game, gms, players, await uow.turns.latest(game.id),
                       await names_of(uow, [*gms, *players]), **rules)


class GameService(UseCases):
    """Create, show and administer games."""

    @retried
    async def create(
        self,
        *,
        channel_key: str,
        name: str,
        creator: str,
        gms: Sequence[str] = (),
        guild_key: str | None = None,
        ruleset: str | None = None,
        rules: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> GameView:
        """A new game in a channel or thread; the creator and `gms` are its GMs (F30, R2).
        `ruleset`: the name of one of `Deps.rulesets` (None: the first, the default)."""
        name = check_name(name, "game")
        known = self.deps.rulesets
        if ruleset is None:
            ruleset = next(iter(known))  # the registry's first, the default of a new game
        if ruleset not in known:
            raise InvalidInput(
                f'There is no ruleset "{safe(ruleset)}". Rulesets: {", ".join(known)}.'
            )
        if rules and not known[ruleset].has(Feature.RULES_FLAGS):
            raise InvalidInput(NO_FLAGS_IN_XP)
        config = build_rules(RulesConfig(), rules)
        table = build_settings(GameSettings(), settings)
        async with self.uow() as uow:
            if await uow.games.by_channel(channel_key) is not None:
                raise Conflict("There is already a game in this channel.")
            game = Game(
                id=self.deps.ids(),
                channel_key=channel_key,
                guild_key=guild_key,
                name=name.strip(),
                ruleset=ruleset,
                rules=config,
                settings=table,
                created_at=self.now(),
            )
            await uow.games.add(game)
            for user in dict.fromkeys([creator, *gms]):
                await uow.members.add(Membership(game_id=game.id, user_id=user, role=Role.GM))
            await audit(uow, self.deps, game.id, creator, "game.create", name=game.name,
                        channel=channel_key, gms=[creator, *gms], ruleset=ruleset)
            view = await game_view(uow, game, self.deps.rulesets)
            await uow.commit()
            return view

    async def find(self, channel_key: str) -> GameView:
        """The game of a channel or thread."""
        async with self.uow() as uow:
            return await game_view(uow, await game_in_channel(uow, channel_key),
                                   self.deps.rulesets)

    async def show(self, game_id: str) -> GameView:
        async with self.uow() as uow:
            return await game_view(uow, await load_game(uow, game_id), self.deps.rulesets)

    async def require_gm(self, game_id: str, user: str) -> None:
        """Refused (`Forbidden`, the service's sentence) unless `user` is a GM of the game now:
        for an adapter to check an answer to something a GM opened earlier (a GM removed
        since is refused)."""
        async with self.in_game(game_id, user, gm=True, writes=False):
            pass

    async def gm_of(self, game_id: str, user: str) -> bool:
        """Whether `user` is a GM of the game now (what an adapter may offer them)."""
        async with self.uow() as uow:
            return await is_gm(uow, await load_game(uow, game_id), user)

    async def listing(self, channel_prefix: str = "") -> list[Game]:
        """Every game whose channel key starts with `channel_prefix` (all of them by default),
        oldest first: the local table's games (`table:`), or a guild's, for an adapter to list."""
        async with self.uow() as uow:
            games = await uow.games.list()
        return [g for g in games if g.channel_key.startswith(channel_prefix)]

    async def games_of(self, user: str) -> list[GameView]:
        """Every game a user is in (to route a DM to its game)."""
        async with self.uow() as uow:
            views: list[GameView] = []
            for game_id in dict.fromkeys(m.game_id for m in await uow.members.games_of(user)):
                game = await uow.games.get(game_id)
                if game is not None:
                    views.append(await game_view(uow, game, self.deps.rulesets))
            return views

    @retried
    async def add_member(self, game_id: str, actor: str, user: str, role: Role) -> GameView:
        """A GM adds a GM or a player."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            await uow.members.add(Membership(game_id=game.id, user_id=user, role=role))
            await play.audit("member.add", user=user, role=role.value)
            view = await game_view(uow, game, self.deps.rulesets)
            return view

    @retried
    async def remove_member(self, game_id: str, actor: str, user: str, role: Role) -> GameView:
        """A GM removes a GM or a player; the last GM cannot be removed."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            members = await uow.members.list(game.id)
            if not any(m.user_id == user and m.role is role for m in members):
                raise Conflict(f"That user is not a {role.value} of this game.")
            if role is Role.GM and sum(m.role is Role.GM for m in members) == 1:
                raise Conflict("A game needs at least one GM; add another GM first.")
            await uow.members.remove(game.id, user, role)
            await play.audit("member.remove", user=user,
                             role=role.value)
            view = await game_view(uow, game, self.deps.rulesets)
            return view

    @retried
    async def configure(
        self,
        game_id: str,
        actor: str,
        *,
        rules: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
        xp: Mapping[str, Any] | None = None,
    ) -> GameView:
        """A GM changes R2 flags (FAPPO's `rules`, an Xp game's `xp`) and table settings; every
        bad value is named at once."""
        async with self.in_game(game_id, actor, gm=True) as play:
            return (await self._configure(play, rules, settings, xp))[1]

    async def _configure(
        self, play: Play, rules: Mapping[str, Any] | None,
        settings: Mapping[str, Any] | None, xp: Mapping[str, Any] | None,
    ) -> tuple[Game, GameView]:
        """`configure` in the GM's transaction `play`: the game as changed, and its view."""
        uow, game = play.uow, play.game
        if rules and not self.ruleset(game).has(Feature.RULES_FLAGS):
            raise InvalidInput(NO_FLAGS_IN_XP)
        if xp and not self.ruleset(game).has(Feature.XP_FLAGS):
            raise InvalidInput(NO_XP_FLAGS_IN_FAPPO)
        problems: list[str] = []
        new_rules, new_settings = game.rules, game.settings
        try:
            new_rules = build_rules(game.rules, rules)
        except InvalidInput as exc:
            problems.extend(exc.problems)
        try:
            new_settings = build_settings(game.settings, settings)
        except InvalidInput as exc:
            problems.extend(exc.problems)
        try:
            new_settings = new_settings.model_copy(
                update={"xp": build_xp_flags(new_settings.xp, xp)})
        except InvalidInput as exc:
            problems.extend(exc.problems)
        if problems:
            raise InvalidInput("Nothing was changed:", tuple(problems))
        game = game.model_copy(
            update={"rules": new_rules, "settings": new_settings, "version": game.version + 1}
        )
        await uow.games.update(game)
        await play.audit("game.configure",
                         rules=dict(rules or {}), settings=dict(settings or {}),
                         **({"xp": dict(xp)} if xp else {}))
        return game, await game_view(uow, game, self.deps.rulesets)

    async def settings(self, game_id: str) -> list[SettingView]:
        """The game's table settings and R2 flags (a FAPPO game's), each with its value as
        text."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
        return game_settings(game.settings, game.rules, self.ruleset(game).flags)

    @retried
    async def set_setting(self, game_id: str, actor: str, name: str, value: str
                          ) -> SettingView:
        """A GM changes one setting or R2 flag, written as text (`settings_text`): the value
        read by the setting's type, then changed as `configure` changes it. A player is told
        only that GMs do this, before the name or value is read."""
        async with self.in_game(game_id, actor, gm=True) as play:
            key = name.strip().casefold()
            change = {key: parse_value(key, value)}
            if kind_of(key) == "settings":
                game, _ = await self._configure(play, None, change, None)
                return describe(key, getattr(game.settings, key))
            if key in XP_FLAGS:
                game, _ = await self._configure(play, None, None, change)
                return describe(key, getattr(game.settings.xp, key))
            game, _ = await self._configure(play, change, None, None)
            return describe(key, getattr(game.rules, key))

    @retried
    async def set_status(self, game_id: str, actor: str, status: GameStatus) -> GameView:
        """A GM pauses, resumes or ends the game. An ended game stays stored forever."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            if game.status is GameStatus.ENDED and status is not GameStatus.ENDED:
                raise Conflict(f'The game "{safe(game.name)}" has ended and cannot be restarted.')
            if game.status is status:
                raise Conflict(f'The game "{safe(game.name)}" is already {status.value}.')
            game = game.model_copy(update={"status": status, "version": game.version + 1})
            await uow.games.update(game)
            await play.audit("game.status", status=status.value)
            view = await game_view(uow, game, self.deps.rulesets)
            return view

    async def audit_log(
        self, game_id: str, actor: str, limit: int | None = 50
    ) -> list[AuditEntry]:
        """The game's audit log (GMs only), oldest first."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            return list(await play.uow.audit.list(play.game.id, limit))
