"""What every use case shares: the injected dependencies, permission checks, the audit log and
the outbox. Every helper raises a `ServiceError` before anything is written."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence, Set
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fappo_bot.collector import collector_paused
from fappo_bot.posting.safety import safe, split_message
from fappo_bot.render import notices as words
from fappo_bot.rules import GMInputs, Order, TurnResult, TurnState, resolve_turn
from fappo_bot.service.clock import Clock, IdFactory, SaltFactory, SystemClock, token_salt, uuid_ids
from fappo_bot.service.delivery import DeliveryPolicy
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput, NoOpenTurn, NotFound
from fappo_bot.service.notices import NOTICES, Notice, Results
from fappo_bot.service.ports import GameAtPlay, UnitOfWork, UowFactory
from fappo_bot.service.records import (
    AuditEntry,
    CharacterRecord,
    CharacterStatus,
    DestinationKind,
    Game,
    GameStatus,
    OutboxMessage,
    Role,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.results_report import Block
from fappo_bot.service.rulesets.port import Feature, Ruleset
from fappo_bot.service.text import PostingText, PostText

Resolver = Callable[[TurnState, Sequence[Order], GMInputs | None], TurnResult]
"""`fappo_bot.rules.resolve.resolve_turn` or a stand-in with its signature."""


def rules_resolver(
    state: TurnState, orders: Sequence[Order], gm: GMInputs | None = None
) -> TurnResult:
    """F7: the rules core's `resolve_turn`, with the collector paused: a turn allocates tens of
    thousands of values that all live until it ends, which collections would walk for nothing
    (docs/benchmarks.md, "The collector paused during the turn")."""
    with collector_paused():
        return resolve_turn(state, orders, gm)


@dataclass(frozen=True)
class Deps:
    """Everything a use case needs from outside, built once in the composition root."""

    uow_factory: UowFactory
    #: the rulesets a game may play, by name (`rulesets/known.py`, given by the composition
    #: root: this module knows the port, never its implementations)
    rulesets: Mapping[str, Ruleset]
    clock: Clock = field(default_factory=SystemClock)
    ids: IdFactory = uuid_ids
    salts: SaltFactory = token_salt
    text: PostText = field(default_factory=PostingText)
    resolve: Resolver = rules_resolver
    delivery: DeliveryPolicy = field(default_factory=DeliveryPolicy)


@dataclass(frozen=True)
class Play:
    """A use case at play in one game (`UseCases.in_game`): its transaction, the game as
    loaded, and who asks."""

    uow: UnitOfWork
    game: Game
    actor: str
    deps: Deps

    async def audit(self, action: str, **detail: Any) -> None:
        """`action` by the actor in the game, to the audit log of this transaction."""
        await audit(self.uow, self.deps, self.game.id, self.actor, action, **detail)


class UseCases:
    """Base of the use-case groups: holds the dependencies. Use cases that write are marked
    `@retried` (`service/retry.py`): they run again when they lose an optimistic version race
    or the connection fails. What they return needs no scrubbing: its texts are rendered
    (`posting.safety`), its names are data the adapters render the same way."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def uow(self) -> UnitOfWork:
        return self.deps.uow_factory()

    def now(self) -> datetime:
        return self.deps.clock.now()

    def ruleset(self, game: Game) -> Ruleset:
        """The ruleset `game` plays (Conflict when this bot does not know it)."""
        return ruleset_of(self.deps.rulesets, game)

    def require(self, game: Game, feature: Feature) -> Ruleset:
        """The ruleset of `game`, refused (with the feature's own message) when it has no
        `feature`: nothing of one ruleset's rules runs in a game of another."""
        ruleset = self.ruleset(game)
        if not ruleset.has(feature):
            raise feature.refusal(game)
        return ruleset

    @asynccontextmanager
    async def in_game(self, game_id: str, actor: str, *, gm: bool = False,
                      needs: Feature | None = None, writes: bool = True) -> AsyncIterator[Play]:
        """The use cases' preamble: a transaction with the game `game_id` loaded (NotFound
        when there is none), refused unless its ruleset has `needs`, and then unless `actor`
        is one of its GMs (`gm`); committed when the block ends without an error (an error
        leaves nothing written). A read (`writes=False`) has nothing to commit and ends its
        transaction as a read does, without a COMMIT."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            if needs is not None:
                self.require(game, needs)
            if gm:
                await require_gm(uow, game, actor)
            yield Play(uow, game, actor, self.deps)
            if writes:
                await uow.commit()


# ---- loading with specific errors -------------------------------------------------------------
async def load_game(uow: UnitOfWork, game_id: str) -> Game:
    game = await uow.games.get(game_id)
    if game is None:
        raise NotFound("There is no such game; a GM can start one in its channel.")
    return game


async def load_game_at_play(
    uow: UnitOfWork, game_id: str, user: str, message: tuple[str, str] | None = None
) -> GameAtPlay:
    """`load_game`, with the game's current turn and the user's roles read along (one read;
    `message`: the (channel_key, message_key) the use case will look up, see `at_play`)."""
    found = await uow.games.at_play(game_id, user, message)
    if found is None:
        raise NotFound("There is no such game; a GM can start one in its channel.")
    return found


async def game_in_channel(uow: UnitOfWork, channel_key: str) -> Game:
    game = await uow.games.by_channel(channel_key)
    if game is None:
        raise NotFound("There is no game in this channel; a GM can start one here.")
    return game


def require_running(game: Game) -> None:
    """Play commands need an active game."""
    if game.status is GameStatus.PAUSED:
        raise Conflict(f'The game "{safe(game.name)}" is paused; a GM can resume it.')
    if game.status is GameStatus.ENDED:
        raise Conflict(f'The game "{safe(game.name)}" has ended.')


async def roles_of(uow: UnitOfWork, game: Game, user: str) -> set[Role]:
    return {m.role for m in await uow.members.list(game.id) if m.user_id == user}


async def is_gm(uow: UnitOfWork, game: Game, user: str) -> bool:
    return Role.GM in await roles_of(uow, game, user)


async def require_gm(uow: UnitOfWork, game: Game, user: str) -> None:
    check_gm(game, await roles_of(uow, game, user))


def check_gm(game: Game, roles: Set[Role]) -> None:
    """Refused unless `roles` (the user's roles in `game`) make the user a GM of it."""
    if Role.GM not in roles:
        raise Forbidden(f'Only a GM of "{safe(game.name)}" can do that.')


async def require_member(uow: UnitOfWork, game: Game, user: str) -> set[Role]:
    return check_member(game, await roles_of(uow, game, user))


def check_member(game: Game, roles: set[Role]) -> set[Role]:
    """The user's roles in `game`, refused when there are none."""
    if not roles:
        raise Forbidden(f'You are not in the game "{safe(game.name)}"; ask a GM to add you.')
    return roles


async def load_character(uow: UnitOfWork, game: Game, name: str) -> CharacterRecord:
    character = await uow.characters.by_name(game.id, name.strip())
    if character is None:
        names = [c.name for c in await uow.characters.list(game.id)]
        hint = f" Characters: {', '.join(map(safe, names))}." if names else ""
        raise NotFound(f'There is no character called "{safe(name)}" in this game.{hint}')
    return character


MAX_NAME = 100
"""The longest game or character name (Discord's own channel names stop at 100; the stores keep
200). A longer one is refused with a message, never a database error."""


def check_name(name: str, what: str) -> str:
    """`name` stripped, or a specific refusal when it is empty or too long."""
    name = name.strip()
    if not name:
        raise InvalidInput(f"A {what} needs a name.")
    if len(name) > MAX_NAME:
        raise InvalidInput(f"A {what}'s name can be at most {MAX_NAME} characters; this one has "
                           f"{len(name)}. Choose a shorter name.")
    return name


def require_not_retired(character: CharacterRecord) -> None:
    if character.status is CharacterStatus.RETIRED:
        raise Conflict(f"{safe(character.name)} is retired.")


async def current_turn(uow: UnitOfWork, game: Game) -> TurnRecord:
    return some_turn(await uow.turns.latest(game.id))


def some_turn(turn: TurnRecord | None) -> TurnRecord:
    """The game's current turn, refused when no turn was opened yet."""
    if turn is None:
        raise NoOpenTurn("No turn has been opened yet; a GM opens the first one.")
    return turn


async def live_turn(uow: UnitOfWork, game: Game) -> TurnRecord:
    """The turn that is open or closed (awaiting resolution)."""
    return some_live_turn(await uow.turns.latest(game.id))


def some_live_turn(turn: TurnRecord | None) -> TurnRecord:
    """The game's current turn, refused unless it is open or closed (awaiting resolution)."""
    turn = some_turn(turn)
    if turn.status is TurnStatus.RESOLVED:
        raise NoOpenTurn(f"Turn {turn.number} is resolved and no turn is open; a GM opens the "
                         "next.")
    return turn


# ---- writing ----------------------------------------------------------------------------------
async def audit(
    uow: UnitOfWork,
    deps: Deps,
    game_id: str | None,
    actor: str,
    action: str,
    **detail: Any,
) -> None:
    """Everything a user does goes to the audit log (who, what, when)."""
    await uow.audit.add(
        AuditEntry(
            id=deps.ids(),
            game_id=game_id,
            actor=actor,
            action=action,
            detail=_jsonable(detail),
            at=deps.clock.now(),
        )
    )


#: the types `_jsonable` gives back as they are, looked up first: an audit entry's details are
#: mostly these (exactly these types: a subclass, an enum's member say, takes the checks below)
_AS_IS = frozenset({str, int, bool, float, type(None)})


def _jsonable(value: Any) -> Any:
    if type(value) in _AS_IS:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


#: the words of a turn's result blocks, block by block (`render.results.Worded`)
Lines = Callable[[Block], list[str]]

Content = str | Sequence[str] | Notice
"""What a use case queues: a text, several that go out in that order, or a notice (its text,
and its fields as the messages' payload)."""


async def queue(
    uow: UnitOfWork,
    deps: Deps,
    game: Game,
    kind: str,
    content: Content,
    dedupe_key: str,
    dm_to: str | None = None,
) -> int:
    """Queue a message in the same transaction as the change it reports (the outbox): the
    messages of `outbox_messages`, in one `add_many`. Returns how many messages were queued."""
    messages = outbox_messages(deps, game, kind, content, dedupe_key, dm_to)
    await uow.outbox.add_many(messages)
    return len(messages)


def outbox_messages(
    deps: Deps,
    game: Game,
    kind: str,
    content: Content,
    dedupe_key: str,
    dm_to: str | None = None,
    lines_of: Lines | None = None,
) -> list[OutboxMessage]:
    """The outbox messages of one text to the game's channel or to `dm_to`.

    `content` is one text, several that go out as separate messages in that order, or a
    `notices.Notice`: its fields are the payload of every part, and the adapters render the
    message from its kind and payload (`fappo_bot.render.notices.part`); its neutral words
    (`render.notices.text`) are stored too, as the content of its parts: the inbox lists them,
    the GMs' notice of a message given up quotes them, and they fix the parts and their dedupe
    keys when it is queued (an adapter delivers its rendering of the same part); a turn's
    results are cut into parts of whole blocks first, each part's payload its own blocks. A text longer than Discord takes is queued
    as several messages of at most 2,000 characters (`split_message`), numbered `part` of
    `parts`. They keep their order in the outbox (created_at, id): they share one time, and the
    parts after the first take the first's id plus `part002`, `part003`... (ids that sort right
    after it, under any collation); their dedupe keys add `#2`, `#3`... Texts come
    rendered (`posting.safety`: every user value in them made inert as it was written), so
    nothing here scrubs them. `lines_of`: the words of a turn's result
    blocks, when the caller words them too (`render.results.Worded`: each block worded once).
    """
    payloads: list[dict[str, Any] | None]
    if isinstance(content, Notice) and NOTICES.get(kind) is not type(content):
        raise ValueError(f"a {type(content).__name__} is no {kind} message")
    if isinstance(content, Results):  # each part its own blocks (`render.notices.results_parts`)
        cut = words.results_parts(content, lines_of=lines_of)
        parts = [text for _, text in cut]
        payloads = [None if piece is None else piece.payload() for piece, _ in cut]
    else:
        payload = content.payload() if isinstance(content, Notice) else None
        texts = ([words.text(content)] if isinstance(content, Notice)
                 else [content] if isinstance(content, str) else list(content))
        parts = [part for text in texts for part in split_message(text)]
        payloads = [payload] * len(parts)
    at = deps.clock.now()
    first = deps.ids()
    return [
        OutboxMessage(
            id=first if number == 1 else f"{first}part{number:03d}",
            game_id=game.id,
            dest_kind=DestinationKind.DM if dm_to else DestinationKind.CHANNEL,
            dest_key=dm_to or game.channel_key,
            kind=kind,
            content=part,
            payload=payloads[number - 1],
            part=number,
            parts=len(parts),
            dedupe_key=dedupe_key if number == 1 else f"{dedupe_key}#{number}",
            created_at=at,
        )
        for number, part in enumerate(parts, start=1)
    ]


@dataclass
class Outgoing:
    """The messages a use case queues, gathered to go to the outbox in one `add_many` (one
    statement) before it commits. Their ids and times are given as each is added, so the
    outbox order (created_at, id) is the order they were added in."""

    deps: Deps
    game: Game
    messages: list[OutboxMessage] = field(default_factory=list)

    def add(
        self,
        kind: str,
        content: Content,
        dedupe_key: str,
        dm_to: str | None = None,
        lines_of: Lines | None = None,
    ) -> int:
        """As `queue`: how many messages the text makes."""
        messages = outbox_messages(self.deps, self.game, kind, content, dedupe_key, dm_to,
                                   lines_of)
        self.messages.extend(messages)
        return len(messages)

    async def queue(self, uow: UnitOfWork) -> None:
        """Everything added so far, to the outbox of `uow`'s transaction."""
        if self.messages:
            await uow.outbox.add_many(self.messages)
            self.messages = []


async def gm_ids(uow: UnitOfWork, game: Game) -> Sequence[str]:
    return [m.user_id for m in await uow.members.list(game.id) if m.role is Role.GM]


def ruleset_of(rulesets: Mapping[str, Ruleset], game: Game) -> Ruleset:
    """The ruleset `game` plays, refused when this bot does not know it."""
    found = rulesets.get(game.ruleset)
    if found is None:
        raise Conflict(f'"{safe(game.name)}" plays the {safe(game.ruleset)} rules, which this bot does not '
                       "know.")
    return found
