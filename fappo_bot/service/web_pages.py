"""What a campaign page shows (`fappo_bot/web/`), read for one `Reader` of a link: data only,
rendered by the web adapter's templates.

Nothing private reaches the wrong reader, decided here and nowhere else:
- the party: the players' characters with their sheets (`views.SheetView`, or the Xp sheet);
  the GM's characters (NPCs, enemies, groups) only as the room knows them: their name and the
  level the results name, never a sheet;
- a turn's posts: those posted in the game's room (everyone there read them), each as it stood
  when time was called (the last revision before the turn closed), and a reader's own secret
  posts; never another's secret orders nor the GM's NPC orders (those show as the reveal);
- the results as the room got them (the outbox's `results` parts, as stored), a player's own
  private results (`results_private` sent to them), never another's;
- the NPC commitment, and once the turn is resolved its salt and the canonical JSON as hashed;
- an Xp turn's rolls (the audit's `xp.turn` entry: every die) with their exact odds.
"""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from fappo_bot.posting.safety import safe
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.odds import odds
from fappo_bot.rules_xp.roll import target_label
from fappo_bot.service.base import Deps, UseCases
from fappo_bot.service.errors import NotFound
from fappo_bot.service.notices import Revealed, read
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterKind,
    CharacterRecord,
    DestinationKind,
    Game,
    OutboxMessage,
    Post,
    PostRevision,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.users import names_of
from fappo_bot.service.views import CharacterView
from fappo_bot.service.web_links import Reader
from fappo_bot.service.xp_flags import XpFlags

_FROZEN = ConfigDict(frozen=True)


class PartyMember(BaseModel):
    """A player's character, shown whole."""

    model_config = _FROZEN

    view: CharacterView
    player: str | None


class Known(BaseModel):
    """A GM's character as the room knows it: its name, its kind and its level."""

    model_config = _FROZEN

    name: str
    kind: CharacterKind
    level: str | None
    count: int | None


class TurnLine(BaseModel):
    model_config = _FROZEN

    number: int
    status: TurnStatus


class PostShown(BaseModel):
    model_config = _FROZEN

    #: the characters it gives orders for (or its author's name for table talk)
    who: str
    #: its author's display name, when one is known
    author: str | None
    text: str
    secret: bool
    #: it was edited before time was called
    edited: bool


class Commitment(BaseModel):
    """The sealed NPC orders: the SHA-256 published at the seal; once the turn is resolved, the
    salt and the canonical JSON as hashed (SHA-256 of salt, a newline, the JSON)."""

    model_config = _FROZEN

    digest: str
    salt: str | None = None
    canonical: str | None = None


class Chance(BaseModel):
    """An exact probability, as a fraction and a percentage."""

    model_config = _FROZEN

    fraction: str
    percent: str

    @classmethod
    def of(cls, value: Fraction) -> Chance:
        return cls(fraction=f"{value.numerator}/{value.denominator}",
                   percent=f"{float(value) * 100:.2f}%")


class RollShown(BaseModel):
    """One Xp roll of a turn: every die and the exact odds of its pool."""

    model_config = _FROZEN

    name: str
    what: str
    dice: tuple[int, ...]
    bonus: tuple[int, ...]
    pool: int | None
    level: str | None
    need: int | None
    successes: int | None
    outcome: str | None
    success: Chance | None
    fumble: Chance | None


class TurnPage(BaseModel):
    model_config = _FROZEN

    number: int
    status: TurnStatus
    posts: tuple[PostShown, ...]
    revealed: tuple[str, ...] = ()
    results: str | None = None
    private: tuple[str, ...] = ()
    commitment: Commitment | None = None
    rolls: tuple[RollShown, ...] = ()
    previous: int | None = None
    next: int | None = None
    #: the game's name, and the player who reads it (None for the game's link)
    game: str = ""
    reader: str | None = None


class CampaignPage(BaseModel):
    """A game's page: its name, the party, the enemies as known, and its turns."""

    model_config = _FROZEN

    name: str
    ruleset: str
    #: its rules as a reader names them (`FAPPO`, `Xp`)
    label: str
    status: str
    #: the player who reads it (their display name), None for the game's link
    reader: str | None
    party: tuple[PartyMember, ...]
    known: tuple[Known, ...]
    turns: tuple[TurnLine, ...]


class StoryPage(BaseModel):
    model_config = _FROZEN

    campaign: CampaignPage
    turns: tuple[TurnPage, ...]


class _Messages:
    """The game's outbox as a reader sees it, by turn number."""

    def __init__(self, messages: Iterable[OutboxMessage], reader: Reader) -> None:
        self.results: dict[int, list[OutboxMessage]] = defaultdict(list)
        self.private: dict[int, list[OutboxMessage]] = defaultdict(list)
        self.revealed: dict[int, tuple[str, ...]] = {}
        for message in messages:
            kind = message.kind
            if kind == "results" and message.dest_kind is DestinationKind.CHANNEL:
                self._keep(self.results, message)
            elif (kind == "results_private" and message.dest_kind is DestinationKind.DM
                  and reader.user_id is not None and message.dest_key == reader.user_id):
                self._keep(self.private, message)
            elif kind == "revealed" and message.dest_kind is DestinationKind.CHANNEL:
                notice = read(kind, message.payload)
                if isinstance(notice, Revealed):
                    self.revealed[notice.turn] = notice.orders

    @staticmethod
    def _keep(into: dict[int, list[OutboxMessage]], message: OutboxMessage) -> None:
        payload = message.payload or {}
        turn = payload.get("turn")
        if isinstance(turn, int):
            into[turn].append(message)

    @staticmethod
    def texts(messages: Sequence[OutboxMessage]) -> list[str]:
        """The messages' texts, each whole (its parts joined), the latest resolution's only (an
        undone turn resolved again was reported twice)."""
        if not messages:
            return []
        latest = max(messages, key=lambda m: (m.created_at, m.id))
        resolution = (latest.payload or {}).get("resolution_id")
        by_dedupe: dict[str, list[OutboxMessage]] = defaultdict(list)
        for message in messages:
            if (message.payload or {}).get("resolution_id") == resolution:
                by_dedupe[message.dedupe_key.split("#", 1)[0]].append(message)
        return ["".join(m.content for m in sorted(parts, key=lambda m: m.part))
                for parts in by_dedupe.values()]


def _at_call_time(revisions: Sequence[PostRevision], closed: datetime | None) -> PostRevision:
    kept = [r for r in revisions if closed is None or r.created_at <= closed] or list(revisions)
    return max(kept, key=lambda r: r.number)


def _post_shown(post: Post, revisions: Sequence[PostRevision], turn: TurnRecord,
                runs: Mapping[str, list[str]], names: Mapping[str, str]) -> PostShown:
    revision = _at_call_time(revisions, turn.closed_at)
    actors = list(dict.fromkeys(order.actor for order in revision.orders))
    author = names.get(post.author)
    return PostShown(who=", ".join(actors or runs.get(post.author, []) or [author or "a player"]),
                     author=author, text=revision.text, secret=post.secret,
                     edited=revision.number > 1)


def _rolls(entries: Sequence[dict[str, Any]], heroes: set[str], flags: XpFlags
           ) -> tuple[RollShown, ...]:
    config = flags.config()
    shown: list[RollShown] = []
    for entry in entries:
        pool, sl, need = entry.get("pool"), entry.get("sl"), entry.get("need")
        success = fumble = None
        if isinstance(pool, int) and pool > 0 and (sl is None or isinstance(sl, int)):
            heroic = str(entry.get("name", "")).casefold() in heroes
            try:
                made = odds(pool, sl if sl is not None else 0, heroic=heroic,
                            need=need if isinstance(need, int) else 1, config=config)
                success, fumble = Chance.of(made.success), Chance.of(made.fumble)
            except XpError:  # a roll the odds do not cover (X18): its dice still show
                success = fumble = None
        shown.append(RollShown(
            name=str(entry.get("name", "")), what=str(entry.get("what", "")),
            dice=tuple(entry.get("base") or entry.get("dice") or ()),
            bonus=tuple(entry.get("bonus") or ()), pool=pool if isinstance(pool, int) else None,
            level=target_label(sl) if isinstance(sl, int) or (sl is None and pool) else None,
            need=need if isinstance(need, int) else None,
            successes=entry.get("s") if isinstance(entry.get("s"), int) else None,
            outcome=entry.get("outcome"), success=success, fumble=fumble))
    return tuple(shown)


class PageService(UseCases):
    """The campaign pages' data for a reader (`web_links.LinkService.reader`). Its values are
    read by a web page only, where the templates escape every text and nothing can ping
    anyone; the stored texts (results, reveals) were rendered inert.

    A resolved turn's record is kept once made, per reader (`_resolved`): its posts, results
    and seal no longer change, and any change of the turn (an undo) changes its version, hence
    the key. What it names by display name stays as first read until then."""

    #: the most resolved turn pages kept (a few readers of a few long campaigns)
    KEPT = 4096

    def __init__(self, deps: Deps) -> None:
        super().__init__(deps)
        self._resolved: OrderedDict[tuple[str, int, str | None], TurnPage] = OrderedDict()

    def _kept(self, turn: TurnRecord, reader: Reader) -> TurnPage | None:
        key = (turn.id, turn.version, reader.user_id)
        page = self._resolved.get(key)
        if page is not None:
            self._resolved.move_to_end(key)
        return page

    def _keep(self, turn: TurnRecord, reader: Reader, page: TurnPage) -> TurnPage:
        if turn.status is TurnStatus.RESOLVED:
            self._resolved[turn.id, turn.version, reader.user_id] = page
            while len(self._resolved) > self.KEPT:
                self._resolved.popitem(last=False)
        return page

    async def campaign(self, reader: Reader) -> CampaignPage:
        async with self.uow() as uow:
            game = await self._game(uow, reader)
            return await self._campaign(uow, game, reader, self._label(game))

    async def turn(self, reader: Reader, number: int) -> TurnPage:
        async with self.uow() as uow:
            game = await self._game(uow, reader)
            turn = await uow.turns.by_number(game.id, number)
            if turn is None or turn.status is TurnStatus.VOID:
                raise NotFound(f'"{safe(game.name)}" has no turn {number}.')
            context = await _Context.load(uow, game, reader, self._dice_pools(game))
            page = self._kept(turn, reader)
            if page is None:
                messages: list[OutboxMessage] = []
                resolution = (await uow.resolutions.id_for_turn(turn.id)
                              or context.xp_resolutions.get(turn.number))
                if resolution is not None:  # its messages only, found by their dedupe keys
                    for prefix in (f"results:{resolution}", f"revealed:{resolution}"):
                        messages += await uow.outbox.by_key_prefix(game.id, prefix)
                page = self._keep(turn, reader,
                                  await context.turn(uow, turn, _Messages(messages, reader)))
            latest = await uow.turns.latest(game.id)
            return page.model_copy(update={
                "previous": number - 1 if number > 1 else None,
                "next": number + 1 if latest is not None and latest.number > number else None,
                "game": game.name, "reader": context.reader_name})

    async def story(self, reader: Reader) -> StoryPage:
        async with self.uow() as uow:
            game = await self._game(uow, reader)
            campaign = await self._campaign(uow, game, reader, self._label(game))
            turns = [t for t in await uow.turns.list(game.id) if t.status is not TurnStatus.VOID]
            kept = [self._kept(t, reader) for t in turns]
            if all(page is not None for page in kept):
                return StoryPage(campaign=campaign, turns=tuple(p for p in kept if p))
            context = await _Context.load(uow, game, reader, self._dice_pools(game))
            # the results (the room's and the parties') and the reveals: nothing else is read
            found = [*await uow.outbox.by_key_prefix(game.id, "results:"),
                     *await uow.outbox.by_key_prefix(game.id, "revealed:")]
            messages = _Messages(found, reader)
            pages = [page or self._keep(t, reader, await context.turn(uow, t, messages))
                     for t, page in zip(turns, kept, strict=True)]
            return StoryPage(campaign=campaign, turns=tuple(pages))

    async def game(self, reader: Reader) -> Game:
        async with self.uow() as uow:
            return await self._game(uow, reader)

    @staticmethod
    async def _game(uow: UnitOfWork, reader: Reader) -> Game:
        game = await uow.games.get(reader.game_id)
        if game is None:
            raise NotFound("This game is no longer here.")
        return game

    def _label(self, game: Game) -> str:
        """The rules `game` plays as a reader names them (as stored, if this bot lacks them)."""
        ruleset = self.deps.rulesets.get(game.ruleset)
        return game.ruleset if ruleset is None else ruleset.label

    def _dice_pools(self, game: Game) -> bool:
        """Whether `game`'s turns are rolled in dice pools (their rolls in the audit log)."""
        ruleset = self.deps.rulesets.get(game.ruleset)
        return ruleset is not None and ruleset.has(Feature.DICE_POOLS)

    @staticmethod
    async def _campaign(uow: UnitOfWork, game: Game, reader: Reader,
                        label: str) -> CampaignPage:
        records = await uow.characters.list(game.id)
        owners = {r.owner for r in records if r.owner}
        names = await names_of(uow, owners | ({reader.user_id} if reader.user_id else set()))
        party: list[PartyMember] = []
        known: list[Known] = []
        for record in records:
            if record.kind is CharacterKind.PC:
                party.append(PartyMember(view=CharacterView.of(record, game.rules),
                                    player=names.get(record.owner or "", None)))
            else:
                known.append(_known(record, game))
        turns = await uow.turns.statuses(game.id)
        return CampaignPage(
            name=game.name, ruleset=game.ruleset, label=label, status=game.status.value,
            reader=None if reader.user_id is None else names.get(reader.user_id, "a player"),
            party=tuple(party), known=tuple(known),
            turns=tuple(TurnLine(number=number, status=status) for number, status in turns
                        if status is not TurnStatus.VOID))


def _known(record: CharacterRecord, game: Game) -> Known:
    shown = CharacterView.of(record, game.rules).shown
    return Known(name=record.name, kind=record.kind,
                 level=shown.level if shown is not None else None,
                 count=shown.count if shown is not None and shown.fodder else None)


class _Context:
    """What every turn page of one game reads once: its turns, characters, names, outbox."""

    def __init__(self, game: Game, reader: Reader, records: Sequence[CharacterRecord],
                 names: Mapping[str, str], rolls: Mapping[int, list[dict[str, Any]]]) -> None:
        self.game, self.reader = game, reader
        self.names, self.rolls = names, rolls
        self.reader_name = None if reader.user_id is None else names.get(reader.user_id,
                                                                          "a player")
        self.runs: dict[str, list[str]] = defaultdict(list)
        for record in records:
            if (runner := record.runner()) is not None:
                self.runs[runner].append(record.name)
        self.heroes = {r.name.casefold() for r in records if not r.run_by_gm}
        #: an Xp game's resolution ids by turn number (no `Resolution` record is kept for them)
        self.xp_resolutions: dict[int, str] = {}

    @classmethod
    async def load(cls, uow: UnitOfWork, game: Game, reader: Reader,
                   dice_pools: bool) -> _Context:
        """`dice_pools`: the game's turns are rolled in dice pools, each turn's rolls and its
        resolution's id kept in its audit entry (no `Resolution` record)."""
        records = await uow.characters.list(game.id)
        members = await uow.members.list(game.id)
        names = await names_of(uow, {m.user_id for m in members})
        rolls: dict[int, list[dict[str, Any]]] = {}
        resolutions: dict[int, str] = {}
        if dice_pools:
            for entry in await uow.audit.list(game.id):
                if entry.action == "xp.turn" and isinstance(entry.detail.get("turn"), int):
                    rolls[entry.detail["turn"]] = list(entry.detail.get("rolls") or ())
                    resolutions[entry.detail["turn"]] = str(entry.detail.get("resolution"))
        context = cls(game, reader, records, names, rolls)
        context.xp_resolutions = resolutions
        return context

    async def turn(self, uow: UnitOfWork, turn: TurnRecord, messages: _Messages) -> TurnPage:
        game, reader = self.game, self.reader
        posts: list[PostShown] = []
        newest = sorted(await uow.posts.latest_revisions(turn.id),
                        key=lambda pair: (pair[0].created_at, pair[0].id))
        for post, revision in newest:
            public = post.channel_key == game.channel_key and not post.secret
            if not public and (reader.user_id is None or post.author != reader.user_id):
                continue
            revisions: Sequence[PostRevision] = [revision]
            if turn.closed_at is not None and revision.created_at > turn.closed_at:
                revisions = await uow.posts.revisions(post.id)  # edited after time was called
            posts.append(_post_shown(post, revisions, turn, self.runs, self.names))
        resolved = turn.status is TurnStatus.RESOLVED
        commitment = None
        if turn.npc_commitment:
            commitment = Commitment(digest=turn.npc_commitment,
                                    salt=turn.npc_salt if resolved else None,
                                    canonical=turn.npc_canonical if resolved else None)
        results = _Messages.texts(messages.results.get(turn.number, [])) if resolved else []
        private = _Messages.texts(messages.private.get(turn.number, [])) if resolved else []
        rolls = self.rolls.get(turn.number, []) if resolved else []
        return TurnPage(
            number=turn.number, status=turn.status, posts=tuple(posts),
            revealed=messages.revealed.get(turn.number, ()) if resolved else (),
            results="\n".join(results) or None, private=tuple(private), commitment=commitment,
            rolls=_rolls(rolls, self.heroes, game.settings.xp))
