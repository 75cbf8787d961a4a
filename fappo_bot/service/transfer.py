"""Export a game to JSON and import it back, for every adapter (the CLI, the local table, the
Discord bot): a game moves between databases whole.

The document holds every record of one game exactly as the service stores it (the frozen values
of `fappo_bot.service.records`, rules values inside), so an import restores the game field for
field. It goes through the unit of work's repositories only; nothing here knows SQL.

Export is a GM's command. An export made while a turn is open or awaiting resolution holds no
secret of that turn: the players' secret orders, the GM's NPC orders and the seal's
salt and canonical orders are left out (`GameExport.withheld` says so; the published commitment
stays), unless the GM asks for them (`secrets=True`). The operator of the database (the
`fappo-bot export` command) exports as a GM would.

The members' own pace choices as they bear on the game go along (`PaceExport`: how each is
reminded in it, when they are away, how their DMs show results); an import gives them to a
user the database does not know yet, and to one it knows only their reminder for this game
(their own choices there stand). An export made before these were carried imports as before.

Import refuses a game whose id or channel is already in the database (nothing is written) unless
asked for a copy: `copied` gives every record a new id and the game a new channel key, and
every post outside the game's channel (a DM, the GM's NPC orders) a new message key, so the same
export can be imported next to its original.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fappo_bot.posting.safety import safe
from fappo_bot.service.base import UseCases, gm_ids, require_gm
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.layout import ResultsLayout
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    AuditEntry,
    CharacterRecord,
    Game,
    LedgerEntry,
    Membership,
    OutboxMessage,
    PlayerPace,
    Post,
    PostRevision,
    RemindBy,
    Resolution,
    Role,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.retry import retried

FORMAT = "fappo-bot/game"
VERSION = 1


class PostExport(BaseModel):
    """A post with every revision."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    post: Post
    revisions: tuple[PostRevision, ...]


class PaceExport(BaseModel):
    """A member's own pace choices as they bear on the game (`PlayerPace`): how they are
    reminded in it (`remind`: their choice for this game; `remind_all`: for the games they
    chose nothing for), when they are away, how their DMs show results. Their daily digest
    spans every game of theirs and stays with them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    user_id: str
    remind: RemindBy | None = None
    remind_all: RemindBy | None = None
    away_from: datetime | None = None
    away_to: datetime | None = None
    layout: ResultsLayout | None = None

    @classmethod
    def of(cls, pace: PlayerPace, game_id: str) -> PaceExport:
        return cls(user_id=pace.user_id, remind=pace.remind.get(game_id),
                   remind_all=pace.remind.get(PlayerPace.ALL_GAMES), away_from=pace.away_from,
                   away_to=pace.away_to, layout=pace.layout)

    def new_pace(self, game_id: str, at: datetime) -> PlayerPace:
        """The pace of a user the database does not know yet."""
        remind = {key: how for key, how in ((game_id, self.remind),
                                            (PlayerPace.ALL_GAMES, self.remind_all))
                  if how is not None}
        return PlayerPace(user_id=self.user_id, remind=remind, away_from=self.away_from,
                          away_to=self.away_to, layout=self.layout, updated_at=at)


class GameExport(BaseModel):
    """One game and everything that belongs to it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: str = FORMAT
    version: int = VERSION
    exported_at: datetime
    game: Game
    members: tuple[Membership, ...] = ()
    characters: tuple[CharacterRecord, ...] = ()
    turns: tuple[TurnRecord, ...] = ()
    posts: tuple[PostExport, ...] = ()
    resolutions: tuple[Resolution, ...] = ()
    outbox: tuple[OutboxMessage, ...] = ()
    audit: tuple[AuditEntry, ...] = ()
    ledger: tuple[LedgerEntry, ...] = Field(default=())
    #: the members' pace choices (an export made before they were carried has none)
    paces: tuple[PaceExport, ...] = ()
    #: what was left out of an export made before the turn resolved (empty: nothing)
    withheld: tuple[str, ...] = ()


def dumps(document: GameExport) -> str:
    """The export as indented JSON (stable key order: the models' field order)."""
    return json.dumps(document.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def loads(text: str) -> GameExport:
    """Read an export; `InvalidInput` listing what is wrong with it."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"This is not JSON: {exc}.") from exc
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise InvalidInput(f'This is not a FAPPO game export (its "format" is not "{FORMAT}").')
    if raw.get("version") != VERSION:
        raise InvalidInput(
            f"This export has version {safe(repr(raw.get('version')))}; this bot reads version {VERSION}."
        )
    try:
        return GameExport.model_validate(raw)
    except ValidationError as exc:
        problems = tuple(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()[:20]
        )
        raise InvalidInput("The export is damaged:", problems) from exc


def copied(document: GameExport, new_id: Callable[[], str], channel_key: str) -> GameExport:
    """The same game under new ids and a new channel: every old id string is replaced."""
    ids: dict[str, str] = {}

    def remember(value: str) -> None:
        ids.setdefault(value, new_id())

    remember(document.game.id)
    for group in (document.characters, document.turns, document.resolutions, document.outbox,
                  document.audit, document.ledger):
        for record in group:
            remember(record.id)
    for exported in document.posts:
        remember(exported.post.id)
    old_channel = document.game.channel_key

    def swap(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, str):
            if value == old_channel:
                return channel_key
            return ids.get(value, value)
        return value

    data = swap(document.model_dump(mode="json"))
    suffix = f"#copy:{data['game']['id']}"
    # outbox dedupe keys embed ids: keep them unique next to the original
    for message in data["outbox"]:
        message["dedupe_key"] = f"{message['dedupe_key']}{suffix}"
    # a post is one per (channel, message): a DM's or the GM's NPC orders' channel is no game
    # channel, so the copy's post would clash with the original's
    for exported in data["posts"]:
        post = exported["post"]
        if post["channel_key"] != channel_key:
            post["message_key"] = f"{post['message_key']}{suffix}"
    return GameExport.model_validate(data)




class TransferService(UseCases):
    """Export and import of whole games, and finding a game by id, channel or name."""

    async def export(self, key: str, actor: str, *, secrets: bool = False) -> GameExport:
        """A GM's export of a game (found by id, channel or name); refused to anyone else.
        Before its turn resolves, the open turn's secrets stay out unless `secrets`."""
        async with self.uow() as uow:
            game = await find_game(uow, key)
            await require_gm(uow, game, actor)
            return await self._export(uow, game, secrets)

    async def export_as_operator(self, key: str, *, secrets: bool = False) -> GameExport:
        """The database operator's export (`fappo-bot export`): as a GM's."""
        async with self.uow() as uow:
            return await self._export(uow, await find_game(uow, key), secrets)

    @retried
    async def import_game(self, document: GameExport, actor: str | None = None) -> Game:
        """Store an exported game whole, or nothing (`Conflict` when its id or channel is taken).
        With an `actor` (an adapter's user), only a GM of the exported game may import it; the
        operator (`fappo-bot import`) passes none."""
        if actor is not None and not any(
            m.user_id == actor and m.role is Role.GM for m in document.members
        ):
            raise Forbidden(f'Only a GM of "{safe(document.game.name)}" can import it.')
        async with self.uow() as uow:
            game = await _store(uow, document)
            await _restore_paces(uow, document, self.now())
            await uow.commit()
            return game

    async def find(self, key: str) -> Game:
        """A game by its id, its channel key, or its name (the newest game of that name)."""
        async with self.uow() as uow:
            return await find_game(uow, key)

    async def _export(self, uow: UnitOfWork, game: Game, secrets: bool) -> GameExport:
        members = tuple(await uow.members.list(game.id))
        turns = list(await uow.turns.list(game.id))
        gms = set(await gm_ids(uow, game))
        withheld: list[str] = []
        posts: list[PostExport] = []
        resolutions: list[Resolution] = []
        for index, turn in enumerate(turns):
            live = turn.status in (TurnStatus.OPEN, TurnStatus.CLOSED) and not secrets
            for post in await uow.posts.list(turn.id, include_deleted=True):
                if live and (post.secret or post.author in gms):
                    withheld.append(f"turn {turn.number}: the orders of post {post.id}")
                    continue
                posts.append(PostExport(post=post,
                                        revisions=tuple(await uow.posts.revisions(post.id))))
            if live and turn.npc_salt is not None:
                withheld.append(f"turn {turn.number}: the NPC seal's salt and orders")
                turns[index] = turn.model_copy(update={"npc_salt": None, "npc_canonical": None})
            resolution = await uow.resolutions.for_turn(turn.id)
            if resolution is not None:
                resolutions.append(resolution)
        ledger: dict[str, LedgerEntry] = {}
        for member in members:
            for entry in await uow.ledger.for_player(member.user_id):
                if entry.game_id == game.id:
                    ledger[entry.id] = entry
        users = list(dict.fromkeys(m.user_id for m in members))
        paces = await uow.pace.many(users)
        return GameExport(
            exported_at=self.now(),
            game=game,
            members=members,
            characters=tuple(await uow.characters.list(game.id)),
            turns=tuple(turns),
            posts=tuple(posts),
            resolutions=tuple(resolutions),
            outbox=tuple(await uow.outbox.for_game(game.id)),
            audit=tuple(await uow.audit.list(game.id)),
            ledger=tuple(sorted(ledger.values(), key=lambda e: (e.at, e.id))),
            withheld=tuple(withheld),
            paces=tuple(e for e in (PaceExport.of(paces[u], game.id) for u in users if u in paces)
                        if e.model_dump(exclude_defaults=True).keys() != {"user_id"}),
        )


async def find_game(uow: UnitOfWork, key: str) -> Game:
    """A game by its id, its channel key, or its name (the newest game of that name)."""
    game = await uow.games.get(key) or await uow.games.by_channel(key)
    if game is not None:
        return game
    games = [g for g in await uow.games.list() if g.name.casefold() == key.strip().casefold()]
    if games:
        return games[-1]
    known = ", ".join(f'"{safe(g.name)}" ({g.id})' for g in await uow.games.list())
    raise NotFound(
        f'There is no game "{safe(key)}" here. ' + (f"Games: {known}." if known else "No games yet.")
    )


async def _store(uow: UnitOfWork, document: GameExport) -> Game:
    game = document.game
    if await uow.games.get(game.id) is not None:
        raise Conflict(
            f'The game "{safe(game.name)}" ({game.id}) is already in this database; '
            "import it as a copy to have both."
        )
    if await uow.games.by_channel(game.channel_key) is not None:
        raise Conflict(
            f'Another game already plays in the channel "{safe(game.channel_key)}"; '
            "import it as a copy in a channel of its own."
        )
    await uow.games.add(game)
    for member in document.members:
        await uow.members.add(member)
    for character in document.characters:
        await uow.characters.add(character)
    for turn in document.turns:
        await uow.turns.add(turn)
    for exported in document.posts:
        first, *rest = exported.revisions
        await uow.posts.add(exported.post, first)
        for revision in rest:
            await uow.posts.add_revision(revision)
    for resolution in document.resolutions:
        await uow.resolutions.add(resolution)
    for message in document.outbox:
        await uow.outbox.add(message)
    for entry in document.audit:
        await uow.audit.add(entry)
    for ledger_entry in document.ledger:
        await uow.ledger.add(ledger_entry)
    return game


async def _restore_paces(uow: UnitOfWork, document: GameExport, at: datetime) -> None:
    """The members' pace choices: whole for a user the database does not know yet; for one it
    knows, only how they are reminded in this game, when they chose that and the database has
    no choice of theirs for it (what they chose here stands)."""
    game_id = document.game.id
    found = await uow.pace.many([p.user_id for p in document.paces])
    for exported in document.paces:
        known = found.get(exported.user_id)
        if known is None:
            await uow.pace.put(exported.new_pace(game_id, at))
        elif exported.remind is not None and game_id not in known.remind:
            await uow.pace.put(known.model_copy(update={
                "remind": {**known.remind, game_id: exported.remind}, "updated_at": at}))
