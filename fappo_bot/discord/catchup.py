"""No post is lost while the bot is away: after start and after every new gateway session (one
that did not resume: a RESUME replays the missed events itself), the game rooms and the players'
DM channels the bot missed messages in are read back from Discord's history, and what it
missed is handled once.

Which channels, in this order: the rooms of the games with an open turn (on the session's
shard); with shard 0, every member's DM channel whose id the bot stored (read directly); then
the members' DM channels it never had, opened (`POST /users/@me/channels` returns the channel
with its newest message id): a player may have opened one during the outage, and nothing else
tells (docs/discord.md, "What is caught up after the bot was away"). A channel is read only
when its newest message (`last_message_id`, which Discord sends with each room and each opened
DM channel; for a DM channel read directly, the read itself) is past the channel's mark: the
newest message the bot had handled there, every one before it included (`Marks`, kept by the
service). A channel read is read whole from the turn's opening, page after page, so that edits
and deletions of the turn's posts are seen too (an edit or a deletion moves no
`last_message_id`: in a channel where nothing new was posted they are not seen).

What is handled: a member's message of the open turn with no reply from the bot was never
handled: it goes to the service now (as an edit, which records it when it is new; the service
keys posts by message, so nothing counts twice), with the time Discord stamped it, so a post
written before the deadline counts and one written after it is late. A message edited after the
bot's reply was last written had its edit missed: the edit is applied. A message the bot
answered that is gone was deleted while the bot was away: its orders are withdrawn and the bot's
reply deleted.

Channels are read concurrently (discord.py's HTTP client keeps to Discord's rate limits), those
of the nearest deadlines first within each of the three kinds; what a read found is handed over
in a task of its own, whose answers wait in a low lane until every room is read (the posts are
registered with the service meanwhile), so that the rooms are current before Discord's budget
goes to the answers; call time waits for a game until its room and its members' DMs are caught
up (`ready`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

from fappo_bot.discord.base import FappoBotBase
from fappo_bot.service.channels import OpenTurn

#: what a missed message is handed to: (game id, message); None: a DM, whose game the DM's own
#: routing finds
Ingest = Callable[[str | None, discord.Message], Awaitable[None]]
#: what a missed deletion is handed to: (game id or None, channel, deleted message id, the bot's
#: replies)
Gone = Callable[[str | None, discord.abc.Messageable, int, list[int]], Awaitable[None]]

#: a channel read: the channel, its history from the turn's opening, its newest message id
Read = tuple[discord.abc.Messageable, list[discord.Message], int | None]

log = logging.getLogger(__name__)

#: how many channels are read at once (the HTTP client waits on Discord's buckets beyond that)
CONCURRENCY = 8
#: how often the marks are written (seconds); a mark written late costs a channel read, no post
MARKS_FLUSH_SECONDS = 30.0
FAR = datetime.max.replace(tzinfo=UTC)
#: the mark key under which a user's DM channel id is kept (its value: the channel's id)
DM_KEY = "dm:"
#: the order of a round: the rooms, the DM channels known by id, the members' DMs to open
PHASES = {"room": 0, "dm": 1, "open": 2}


class _Lane:
    """What the catch-up's handling of one channel's messages does at Discord: its REST calls
    wait until the round's rooms are read (`CatchUp.rooms_read`); the first one says that the
    posts before it are registered with the service (an answer comes after the post's record)."""

    def __init__(self, registered: Callable[[], None]) -> None:
        self._registered: Callable[[], None] | None = registered

    def registered(self) -> None:
        call, self._registered = self._registered, None
        if call is not None:
            call()


#: set while the catch-up hands a missed message over: its REST calls are of the low lane
LANE: ContextVar[_Lane | None] = ContextVar("catchup_lane", default=None)


class Marks:
    """Per channel, the newest message handled with every one before it (the mark). A channel's
    mark moves with the live messages only once the channel is caught up in this session (a
    message missed before that must not fall behind the mark), and never past a message still
    being handled or held for a proxy's grace. Written to the service from time to time: a mark
    not written yet costs a read of the channel at the next start, never a message."""

    def __init__(self) -> None:
        #: the marks as the service has them (loaded with the first catch-up)
        self.stored: dict[int, int] = {}
        self.loaded = False
        #: the newest message handled per channel caught up in this session
        self._handled: dict[int, int] = {}
        #: per channel, the messages being handled now
        self._busy: dict[int, set[int]] = {}
        #: the channels caught up in this session: their live messages move their marks
        self.current: set[int] = set()
        #: user id -> their DM channel's id, as stored (`DM_KEY`) and as learnt
        self.dm_channels: dict[int, int] = {}
        self._dm_stored: dict[int, int] = {}

    def load(self, stored: Mapping[str, str]) -> None:
        for key, value in stored.items():
            if not value.isdigit():
                continue
            if key.isdigit():
                self.stored[int(key)] = int(value)
            elif key.startswith(DM_KEY) and key[len(DM_KEY):].isdigit():
                user = int(key[len(DM_KEY):])
                self.dm_channels[user] = self._dm_stored[user] = int(value)
        self.loaded = True

    def of(self, channel_id: int) -> int | None:
        found = [m for m in (self.stored.get(channel_id), self._handled.get(channel_id))
                 if m is not None]
        return max(found) if found else None

    def begin(self, channel_id: int, message_id: int) -> None:
        self._busy.setdefault(channel_id, set()).add(message_id)

    def done(self, channel_id: int, message_id: int) -> None:
        busy = self._busy.get(channel_id)
        if busy is not None:
            busy.discard(message_id)
            if not busy:
                del self._busy[channel_id]
        if channel_id in self.current:
            self._handled[channel_id] = max(message_id, self._handled.get(channel_id, 0))

    def caught_up(self, channel_id: int, message_id: int | None) -> None:
        """The channel is read up to `message_id` (None: it has no message)."""
        self.current.add(channel_id)
        if message_id is not None:
            self._handled[channel_id] = max(message_id, self._handled.get(channel_id, 0))

    def stale(self, channels: Iterable[int]) -> None:
        """A new session: these channels may have missed messages until they are caught up."""
        self.current.difference_update(channels)

    def to_write(self, held: Iterable[tuple[int, int]]) -> dict[str, str]:
        """The marks that moved since they were written, each below every message still being
        handled or held."""
        below: dict[int, int] = {}
        for channel_id, message_id in [*held, *((c, m) for c, ids in self._busy.items()
                                                  for m in ids)]:
            below[channel_id] = min(message_id - 1, below.get(channel_id, message_id))
        moved: dict[str, str] = {}
        for channel_id, mark in self._handled.items():
            mark = min(mark, below.get(channel_id, mark))
            if mark > self.stored.get(channel_id, 0):
                moved[str(channel_id)] = str(mark)
        for user, channel_id in self.dm_channels.items():
            if self._dm_stored.get(user) != channel_id:
                moved[f"{DM_KEY}{user}"] = str(channel_id)
        return moved

    def written(self, marks: dict[str, str]) -> None:
        for key, value in marks.items():
            if key.startswith(DM_KEY):
                self._dm_stored[int(key[len(DM_KEY):])] = int(value)
                continue
            self.stored[int(key)] = max(int(value), self.stored.get(int(key), 0))


@dataclass
class Unit:
    """One channel to catch up: a game's room, or a member's DM channel (found by the user)."""

    kind: str  # "room", "dm" (a DM channel known by its id) or "open" (a member's, to open)
    key: int  # the room's id or the user's
    games: list[OpenTurn] = field(default_factory=list)

    @property
    def deadline(self) -> datetime:
        return min((g.deadline or FAR for g in self.games), default=FAR)

    @property
    def opened(self) -> datetime:
        return min(g.opened_at for g in self.games)

    @property
    def order(self) -> tuple[int, datetime, datetime, int]:
        return (PHASES[self.kind], self.deadline, self.opened, self.key)


class CatchUp:
    """Reads back the channels that moved while the bot was away, once per new session."""

    def __init__(self, bot: FappoBotBase, ingest: Ingest, gone: Gone) -> None:
        self.bot = bot
        self.ingest = ingest
        self.gone = gone
        self.marks = Marks()
        self._lock = asyncio.Lock()
        self.rounds = 0
        #: set after each round (tests and the benchmark wait on it)
        self.finished = asyncio.Event()
        #: shards with a new session whose round has not planned yet: every call time waits
        self._unplanned: set[int | None] = {None}
        #: game -> the units it waits on
        self._waiting: dict[str, set[tuple[str, int]]] = {}
        #: how many channels are read at once
        self.concurrency = CONCURRENCY
        #: set once the round's rooms are read: the low lane's REST calls wait for it
        self.rooms_read = asyncio.Event()
        self.rooms_read.set()
        #: when (monotonic) the last round's last room was read and its posts registered
        self.rooms_current_at: float | None = None
        self._reads_left = self._unregistered = 0

    # ---- call time waits for the catch-up ------------------------------------------------------
    def ready(self, game_id: str) -> bool:
        """Whether the game's call time may fire: its room and its members' DMs are caught up
        since the last new session (before the first round: no game is; with several shards,
        not before every shard is connected)."""
        return (self.bot.is_ready() and not self._unplanned
                and game_id not in self._waiting)

    def connected(self, shard_id: int) -> None:
        """A new session of a shard (not a resume): its channels may have missed messages."""
        self._unplanned.add(shard_id)
        self.marks.stale(c for c in self.marks.current if self._on_shard(c, shard_id))

    def _on_shard(self, channel_id: int, shard_id: int | None) -> bool:
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if guild is None:  # a DM channel (or one gone from the cache): shard 0's
            return shard_id in (None, 0)
        return shard_id is None or guild.shard_id == shard_id

    # ---- a round -------------------------------------------------------------------------------
    async def run(self, shard_id: int | None = None) -> int:
        """Catch up the channels of one shard's session (all of this process's, when None);
        returns how many messages were handled. The rooms are read first, then the DM channels
        known by id, then the members' DM channels to open (`PHASES`), each nearest deadline
        first; what a read found is handed over in a task of its own, whose REST calls (the
        answers) wait until every room is read (`_Lane`), so that they hold no read back."""
        self._unplanned.add(shard_id)
        async with self._lock:
            self.finished.clear()
            try:
                units = await self.plan(shard_id)
            finally:
                self._unplanned.discard(shard_id)
                self._unplanned.discard(None)
            self._install_lane()
            order = sorted(units.values(), key=lambda u: u.order)
            self._reads_left = self._unregistered = sum(u.kind == "room" for u in order)
            self.rooms_current_at = None
            self.rooms_read.clear()
            self._room_step(0, 0)
            gate = asyncio.Semaphore(self.concurrency)
            handling: list[asyncio.Task[int]] = []

            async def one(unit: Unit) -> None:
                read = None
                try:
                    async with gate:
                        read = await self.unit(unit)
                finally:
                    if unit.kind == "room":
                        self._room_step(1, 0 if read else 1)
                    if read is None:
                        self._done((unit.kind, unit.key))
                if read is not None:
                    handling.append(asyncio.create_task(self.handle(unit, *read)))
            try:
                await asyncio.gather(*(one(u) for u in order))
                return sum(await asyncio.gather(*handling))
            finally:
                self.rooms_read.set()
                await asyncio.gather(*handling, return_exceptions=True)
                await self.flush()
                self.rounds += 1
                self.finished.set()

    def _room_step(self, read: int, registered: int) -> None:
        """`read` more rooms are read and `registered` more have their posts registered."""
        self._reads_left -= read
        self._unregistered -= registered
        if self._reads_left <= 0:
            self.rooms_read.set()
            if self._unregistered <= 0 and self.rooms_current_at is None:
                self.rooms_current_at = time.monotonic()

    def _install_lane(self) -> None:
        """The low lane on the bot's HTTP client: a REST call made in a `_Lane` waits for the
        rooms to be read."""
        http = getattr(self.bot, "http", None)
        request = getattr(http, "request", None)
        if request is None or getattr(request, "catchup_lane", False):
            return
        rooms_read = self.rooms_read

        async def after_rooms(lane: _Lane, args: Any, kwargs: Any) -> Any:
            lane.registered()
            await rooms_read.wait()
            return await request(*args, **kwargs)

        # a plain function: a call outside the catch-up's handling (every live answer) is
        # discord.py's own coroutine, with no coroutine of the lane's around it
        def request_in_lane(*args: Any, **kwargs: Any) -> Coroutine[Any, Any, Any]:
            lane = LANE.get()
            if lane is None:
                return request(*args, **kwargs)  # type: ignore[no-any-return]
            return after_rooms(lane, args, kwargs)
        request_in_lane.catchup_lane = True  # type: ignore[attr-defined]
        http.request = request_in_lane  # type: ignore[union-attr]

    async def plan(self, shard_id: int | None) -> dict[tuple[str, int], Unit]:
        """The units of a round: the rooms of the shard's games with an open turn and, with
        shard 0, their members' DM channels (read directly when their id is known, else
        opened); each game waits on its units."""
        if not self.marks.loaded:
            self.marks.load(await self.bot.services.channels.marks())
        units: dict[tuple[str, int], Unit] = {}
        dms = shard_id in (None, 0) and self._runs_shard_zero()
        known = self.marks.dm_channels
        for game in await self.bot.services.channels.open_turns():
            if not (game.channel_key.isdigit() and (game.guild_key or "").isdigit()):
                continue  # not a Discord game (the local table's)
            keys: list[tuple[str, int]] = []
            room = int(game.channel_key)
            if self._on_shard(room, shard_id) and self.bot.get_channel(room) is not None:
                keys.append(("room", room))
            if dms:
                keys.extend(("dm" if int(m) in known else "open", int(m))
                            for m in game.members if m.isdigit())
            for key in keys:
                units.setdefault(key, Unit(*key)).games.append(game)
            if keys:
                self._waiting.setdefault(game.game_id, set()).update(keys)
        return units

    def _runs_shard_zero(self) -> bool:
        shard_ids = self.bot.shard_ids
        return shard_ids is None or 0 in shard_ids

    def _done(self, key: tuple[str, int]) -> None:
        for game_id, keys in list(self._waiting.items()):
            keys.discard(key)
            if not keys:
                del self._waiting[game_id]

    async def flush(self) -> None:
        """Write the marks that moved (a failure is logged: the channels are read again)."""
        held = [(m.channel.id, m.id) for m in self.bot.proxies.held()]
        moved = self.marks.to_write(held)
        if not moved:
            return
        try:
            await self.bot.services.channels.set_marks(moved)
        except Exception:
            log.warning("could not store the channel marks", exc_info=True)
        else:
            self.marks.written(moved)

    # ---- one channel ---------------------------------------------------------------------------
    async def unit(self, unit: Unit) -> Read | None:
        """Read a unit's channel: what it missed to hand over, or None (nothing moved)."""
        try:
            if unit.kind == "room":
                room = self.bot.get_channel(unit.key)
                if room is None:
                    return None
                return await self.read(unit, room,  # type: ignore[arg-type]
                                       getattr(room, "last_message_id", None))
            if unit.kind == "dm":
                channel_id = self.marks.dm_channels[unit.key]
                channel = self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(
                    channel_id, type=discord.ChannelType.private)
                try:
                    return await self.read(unit, channel, None,  # type: ignore[arg-type]
                                           direct=True)
                except discord.NotFound:  # the stored channel is gone: open the user's
                    del self.marks.dm_channels[unit.key]
            data: Any = await self.bot.http.start_private_message(unit.key)
            dm = self.bot._connection.add_dm_channel(data)  # what `User.create_dm` does
            self.marks.dm_channels[unit.key] = dm.id
            newest_key = data.get("last_message_id")
            return await self.read(unit, dm, int(newest_key) if newest_key else None)
        except discord.HTTPException as exc:
            if not self.bot.refusals.saw(exc, unit.key, "read the history"):
                log.exception("could not catch up %s %s", unit.kind, unit.key)
            return None

    async def read(self, unit: Unit, channel: discord.abc.Messageable, newest: int | None,
                   *, direct: bool = False) -> Read | None:
        """The channel's history from the turn's opening when its newest message (`newest`;
        `direct`: unknown before the read) is past its mark."""
        channel_id = int(getattr(channel, "id", 0))
        mark = self.marks.of(channel_id)
        if not direct and (newest is None or (mark is not None and newest <= mark)):
            self.marks.caught_up(channel_id, newest)
            return None
        history = [m async for m in channel.history(limit=None, after=unit.opened,
                                                     oldest_first=True)]
        newest = max([newest or 0, *(m.id for m in history)]) or None
        if direct and (newest is None or (mark is not None and newest <= mark)):
            self.marks.caught_up(channel_id, newest)
            return None
        return channel, history, newest

    async def handle(self, unit: Unit, channel: discord.abc.Messageable,
                     history: list[discord.Message], newest: int | None) -> int:
        """Hand over what a read found, in the low lane; then the channel is caught up."""
        lane = _Lane((lambda: self._room_step(0, 1)) if unit.kind == "room" else (lambda: None))
        LANE.set(lane)  # this task's context only
        try:
            handled = await self.missed(unit, channel, history,
                                        discord.utils.time_snowflake(unit.opened))
            self.marks.caught_up(int(getattr(channel, "id", 0)), newest)
            return handled
        finally:
            lane.registered()
            self._done((unit.kind, unit.key))

    async def missed(self, unit: Unit, channel: discord.abc.Messageable,
                     history: list[discord.Message], after: int) -> int:
        """Hand what the bot missed in a channel's history (oldest first) to the cog."""
        game_id = unit.games[0].game_id if unit.kind == "room" else None  # a DM: routed
        me = self.bot.user.id if self.bot.user else 0
        answered: dict[int, datetime] = {}
        replies: dict[int, list[int]] = {}
        for message in history:
            reference = message.reference
            if message.author.id == me and reference is not None and reference.message_id:
                when = message.edited_at or message.created_at
                answered[reference.message_id] = max(when, answered.get(reference.message_id,
                                                                         when))
                replies.setdefault(reference.message_id, []).append(message.id)
        present = {m.id for m in history}
        handled = 0
        for answered_id, ids in replies.items():
            if answered_id not in present and answered_id > after:
                await self.gone(game_id, channel, answered_id, ids)
                handled += 1
        for message in history:
            # a proxy app's webhook post is a post (`proxy.py`); other bots' and webhooks' not
            if (message.author.bot or message.webhook_id is not None) and not (
                    self.bot.proxies.is_proxy(message)):
                continue
            if self.bot.proxies.is_held(message.channel.id, message.id):
                continue  # in its proxy grace: handled (or dropped) when the grace ends
            replied = answered.get(message.id)
            if replied is None or (message.edited_at and message.edited_at > replied):
                handled += 1
                await self.ingest(game_id, message)
        return handled
