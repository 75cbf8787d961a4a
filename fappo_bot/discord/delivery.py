"""The outbox, delivered to Discord; call time fired from the database (F30).

Results, notices and reminders are queued by the service in the same transaction as the change
they report. This cog sends them oldest first, in order per destination (a destination whose
message fails waits for the next round, so nothing overtakes it), each part within Discord's
2,000 characters and carrying a nonce derived from the message, so that a redelivery after a crash
is dropped by Discord (`enforce_nonce`). What it sends of a message is rendered from its kind and
payload by `rendering.rendered`, or for a turn's results laid out as embeds when its reader
chose them (`results_embeds.py`: the game's `results_layout` in its room, the player's own
`/me layout` in their DMs).

A message Discord refuses for good (`PERMANENT`: the room is gone or hidden, the bot may not post
there, the player takes no DMs from the bot, the user is unknown) or refuses as malformed (400,
413: sent again, refused again) is given up at once; the service tells the game's GMs privately
and keeps it for `/inbox` and `/turn status`; a closed DM is also said in the game's room, pinging
only that player. Anything else (a 429, a 5xx, a 403 or 404 with no such code, which is not
Discord's word about the room but a proxy's or an outage's, a lost connection) is tried again,
never given up: after the service's growing, jittered, capped wait (`DeliveryPolicy`), never
sooner than the Retry-After Discord gave, and after a restart too (the wait is in the
database). Both loops are `discord.ext.tasks` loops, and each state change in this process wakes
the outbox at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp
import discord
from discord.ext import commands, tasks

from fappo_bot.discord.board import BOARD_KINDS
from fappo_bot.discord.reminders import (
    can_fall_back,
    channel_of,
    fall_back_to_room,
    pings_of,
    take_down_replaced,
    with_pings,
)
from fappo_bot.discord.rendering import from_game, rendered
from fappo_bot.discord.results_embeds import RESULT_KINDS, results_posts, wants_embeds
from fappo_bot.posting.safety import split_message
from fappo_bot.service import notices
from fappo_bot.service.errors import ServiceError
from fappo_bot.service.records import DestinationKind, OutboxMessage

if TYPE_CHECKING:
    from fappo_bot.discord.base import FappoBotBase

log = logging.getLogger(__name__)

#: Discord's error code for "Cannot send messages to this user"
CANNOT_DM = 50007
#: Discord's refusals that trying again will not change, as the GMs read them
PERMANENT = {
    10003: "the channel is unknown to Discord (deleted, or the bot cannot see it)",
    10013: "the user is unknown to Discord",
    50001: "the bot has no access to the channel",
    50013: "the bot lacks the permission to post there",
    CANNOT_DM: "the player takes no direct messages from the bot",
}
#: statuses that refuse the request itself: the same message is refused again
MALFORMED = frozenset({400, 413})


@dataclass(frozen=True)
class Failure:
    """A failed delivery as the outbox takes it: why (a sentence the GMs may read), whether it
    is for good, and the least wait Discord asked for."""

    reason: str
    permanent: bool = False
    retry_after: timedelta | None = None
    #: a 429: the round stops here
    rate_limited: bool = False


def failure_of(error: Exception) -> Failure:
    """How the outbox takes an error of a delivery (see the module's docstring)."""
    if isinstance(error, discord.RateLimited):  # longer than discord.py waits in a request
        return Failure(f"rate limited by Discord for {error.retry_after:.0f} s",
                       retry_after=timedelta(seconds=error.retry_after), rate_limited=True)
    if not isinstance(error, discord.HTTPException):  # the connection: Discord is unreachable
        return Failure(f"Discord could not be reached ({type(error).__name__})")
    detail = f"Discord {error.status} {error.code}: {error.text}".rstrip(": ")
    if error.code in PERMANENT:
        return Failure(f"{PERMANENT[error.code]} ({detail})", permanent=True)
    if error.status in MALFORMED:
        return Failure(f"Discord refuses the message itself ({detail})", permanent=True)
    if error.status == 429:
        return Failure(f"rate limited by Discord ({detail})",
                       retry_after=retry_after(error.response), rate_limited=True)
    return Failure(f"Discord did not take the message ({detail})")


def retry_after(response: object) -> timedelta | None:
    """The wait a 429 asks for: the larger of its `Retry-After` (whole seconds, also sent for a
    global limit) and `X-RateLimit-Reset-After` (the bucket's, to the millisecond)."""
    headers = getattr(response, "headers", None) or {}
    waits = []
    for name in ("Retry-After", "X-RateLimit-Reset-After"):
        try:
            waits.append(float(headers.get(name, "")))
        except ValueError:
            continue
    return timedelta(seconds=max(waits)) if waits else None


#: the most messages one delivery round reads
BATCH = 500
#: how often a process with some shards reads which room is each game's again (seconds)
GAMES_REREAD_SECONDS = 60.0


def heartbeat_file(data_dir: Path) -> Path:
    return data_dir / "heartbeat"


def nonce(message_id: str, part: int) -> str:
    """The nonce of one part of an outbox message: the same on every redelivery (25 chars max)."""
    return hashlib.blake2b(f"{message_id}:{part}".encode(), digest_size=12).hexdigest()


def cannot_dm_notice(user_id: str) -> str:
    return (f"<@{user_id}>, I cannot send you direct messages (your privacy settings for this "
            "server block them), so your private results wait for you: use /inbox here.")


class Delivery(commands.Cog):
    """The outbox loop and the call-time loop."""

    def __init__(self, bot: FappoBotBase) -> None:
        self.bot = bot
        self.services = bot.services
        self._wake = asyncio.Event()
        #: whether something was queued since the last delivery round (`wake`), and when the
        #: outbox is read again anyway (for the messages whose retry comes due meanwhile)
        self._queued = False
        self._next_round = 0.0
        #: (game, user) whose room was told the user's DMs are closed (once until /inbox)
        self.told: set[tuple[str, str]] = set()
        self._lock = asyncio.Lock()
        self._beat_failed = False
        #: the rooms of the games of every guild (room -> guild), and when they were read
        self._game_rooms: dict[str, str] = {}
        self._game_rooms_at: float | None = None
        self.outbox_loop.change_interval(seconds=0)
        self.calltime_loop.change_interval(seconds=bot.settings.turns.scheduler_interval_seconds)

    async def cog_load(self) -> None:
        self.outbox_loop.start()
        self.calltime_loop.start()

    async def cog_unload(self) -> None:
        self.outbox_loop.cancel()
        self.calltime_loop.cancel()

    def wake(self) -> None:
        """Something was queued: deliver now rather than at the next interval."""
        self._queued = True
        self._wake.set()

    def wake_boards(self) -> None:
        """A turn board is stale: brought up to date now, without reading the outbox (a post
        touches its room's board, and queues nothing most of the time)."""
        self._wake.set()

    @tasks.loop()
    async def outbox_loop(self) -> None:
        interval = self.bot.settings.discord.outbox_interval_seconds
        board_due = self.bot.boards.due_in()  # a stale board waiting for its period
        # a timeout around the wait, not `wait_for`, which (Python 3.11) wraps the wait in a
        # task of its own at every round
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(interval if board_due is None
                                       else min(interval, board_due)):
                await self._wake.wait()
        self._wake.clear()
        try:
            now = asyncio.get_running_loop().time()
            if self._queued or now >= self._next_round:
                self._queued = False
                self._next_round = now + interval
                await self.deliver()
            await self.bot.boards.refresh()
        except Exception:  # a loop that stops delivers nothing again: log, go on next round
            log.exception("outbox delivery failed; trying again at the next round")

    @tasks.loop()
    async def calltime_loop(self) -> None:
        self.beat()
        try:
            if self.bot.is_ready() and not self.bot.is_closed():
                # the outage since the last heartbeat moved its deadlines first (`outage.py`)
                await self.bot.outages.beat()
            # a game's call time waits for the catch-up of its room and its players' DMs
            now = self.bot.clock.now()
            fired = await self.services.calltime.fire_due(now, self.bot.calltime_ready)
            if await self.services.pace.send_digests(now) or fired:
                self.wake()
        except Exception:
            log.exception("call time failed; trying again at the next round")

    @outbox_loop.before_loop
    @calltime_loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    def beat(self) -> None:
        """Touch the heartbeat file while connected: the Docker health check reads its age."""
        if self.bot.is_closed() or not self.bot.is_ready():
            return
        data_dir = self.bot.settings.data_dir
        try:
            # on PostgreSQL nothing else creates the data directory
            data_dir.mkdir(parents=True, exist_ok=True)
            heartbeat_file(data_dir).touch()
        except OSError:
            if not self._beat_failed:  # once, not at every round of the scheduler
                log.warning("cannot write the heartbeat file in %s", data_dir, exc_info=True)
            self._beat_failed = True
        else:
            self._beat_failed = False

    async def deliver(self) -> int:
        """Send every message due that this process delivers; returns how many were sent."""
        async with self._lock:
            delivered = 0
            waiting: set[tuple[DestinationKind, str]] = set()
            for message in await self.due():
                destination = (message.dest_kind, message.dest_key)
                if destination in waiting:
                    continue  # behind a message of its destination that failed just now
                try:
                    ids = await self.send(message)
                except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                        OSError, TimeoutError) as exc:
                    if can_fall_back(message, exc) and await self.fall_back(message):
                        delivered += 1
                        continue
                    failure = failure_of(exc)
                    if not failure.permanent:  # given up at once: nothing to wait behind
                        waiting.add(destination)
                    await self.failed(message, exc, failure)
                    if failure.rate_limited:
                        # rate limited: the rest waits for the next round rather than asking
                        # again at once (a global limit would answer each with a 429, and
                        # Discord bans a bot that keeps hitting its limits)
                        break
                    continue
                await self.services.outbox.mark_sent(message.id, [str(i) for i in ids])
                if message.kind in BOARD_KINDS:
                    self.bot.boards.touch(message.game_id)
                delivered += 1
            return delivered

    async def due(self) -> list[OutboxMessage]:
        """The messages due that are this process's: all of them, unless it runs only some
        shards; then its guilds' rooms, and the DMs when it runs shard 0 (Discord's DMs).
        Each message is one process's, so none is delivered by two."""
        shard_ids = self.bot.settings.discord.shard_ids
        if shard_ids is None:
            found = await self.services.outbox.pending(BATCH)
        else:
            found = await self.services.outbox.pending(BATCH, await self.rooms())
            if 0 in shard_ids:  # asked apart: other shards' messages never crowd them out
                found += await self.services.outbox.pending(BATCH, kind=DestinationKind.DM)
                found.sort(key=lambda m: (m.created_at, m.id))
        # keys that are no Discord ids are the local table's (a database both share)
        return [m for m in found if m.dest_key.isdigit()]

    async def rooms(self) -> set[str]:
        """The rooms this process delivers to: the channels and threads of its guilds that it
        sees, and the rooms of the games of its guilds by Discord's rule (guild id >> 22) %
        shard_count (a thread archived since it was seen is in no cache). The games are read
        again at most once a minute."""
        found = {str(c.id) for g in self.bot.guilds for c in (*g.channels, *g.threads)}
        now = asyncio.get_running_loop().time()
        if self._game_rooms_at is None or now - self._game_rooms_at > GAMES_REREAD_SECONDS:
            self._game_rooms = {g.channel_key: g.guild_key
                                for g in await self.services.games.listing()
                                if g.guild_key and g.guild_key.isdigit()}
            self._game_rooms_at = now
        return found | {room for room, guild in self._game_rooms.items() if self.mine(guild)}

    def mine(self, guild_key: str) -> bool:
        """Whether a guild is on one of this process's shards."""
        shard_ids = self.bot.settings.discord.shard_ids
        count = self.bot.shard_count or 1
        return shard_ids is None or (int(guild_key) >> 22) % count in shard_ids

    async def send(self, message: OutboxMessage) -> list[int]:
        """Post one outbox message (a reminder first takes down the one it replaces; the
        room's pings the players who chose a ping, and only them: `reminders.py`; a DM under the
        line naming its game)."""
        await take_down_replaced(self.bot, message)
        channel = await channel_of(self.bot, message.dest_kind, message.dest_key)
        embedded = await self.embedded(message)
        if embedded is not None:
            return await self.send_embeds(channel, message, embedded)
        text = rendered(message)
        if message.dest_kind is DestinationKind.DM and message.part == 1:
            text = await self.headed(message, text)
        text, allowed = with_pings(text, pings_of(message))
        ids = []
        for index, part in enumerate(split_message(text)):
            if not part.strip():
                continue  # Discord sends no empty message (an outbox message of blanks is done)
            sent = await channel.send(part, nonce=nonce(message.id, index),
                                      allowed_mentions=allowed)
            ids.append(sent.id)
        return ids

    async def embedded(self, message: OutboxMessage
                       ) -> list[tuple[str, list[discord.Embed]]] | None:
        """A results message as its reader chose to get it in embeds (`results_embeds`): each
        Discord message's content line (a DM's first under the line naming its game) and
        embeds; None for the text (the reader's choice, or a part whose payload holds no blocks
        this reads)."""
        if message.kind not in RESULT_KINDS or message.game_id is None:
            return None
        notice = notices.read(message.kind, message.payload)
        if not isinstance(notice, notices.Results):
            return None
        try:
            game = await self.services.games.show(message.game_id)
        except ServiceError:  # the game is gone: its results go out as they were stored
            return None
        dm = message.dest_kind is DestinationKind.DM
        pace = await self.services.pace.pace_of(message.dest_key) if dm else None
        if not wants_embeds(game, pace, dm):
            return None
        heading = from_game(game) if dm and message.part == 1 else ""
        return results_posts(notice, game.name, heading)

    async def send_embeds(self, channel: discord.abc.Messageable, message: OutboxMessage,
                          posts: list[tuple[str, list[discord.Embed]]]) -> list[int]:
        """Post a results message as embeds, a Discord message per group, pinging no one."""
        ids = []
        for index, (content, group) in enumerate(posts):
            sent = await channel.send(content, embeds=group, nonce=nonce(message.id, index),
                                      allowed_mentions=discord.AllowedMentions.none())
            ids.append(sent.id)
        return ids

    async def fall_back(self, message: OutboxMessage) -> bool:
        """A reminder DM the player does not take: a ping in the room instead, delivered as
        the DM (True), or, when the room refuses too, False: it fails as any message."""
        try:
            keys = await fall_back_to_room(self.bot, message)
        except discord.HTTPException as exc:
            log.warning("reminder %s: no DM and no room (%s %s)", message.id, exc.status,
                        exc.code)
            return False
        await self.services.outbox.mark_sent(message.id, keys)
        return True

    async def headed(self, message: OutboxMessage, text: str) -> str:
        """A DM's text under the line naming its game and linking its room (`from_game`); a
        digest spans games and names each one itself."""
        if message.game_id is None or message.kind == "digest":
            return text
        try:
            game = await self.services.games.show(message.game_id)
        except ServiceError:  # the game is gone: the message says what it says
            return text
        return f"{from_game(game)}\n{text}"

    async def failed(self, message: OutboxMessage, error: Exception, failure: Failure) -> None:
        """Tell the outbox: tried again later, or given up at once when Discord's refusal is
        for good (the GMs are told; no DMs from the bot: the room is told too)."""
        if not (isinstance(error, discord.HTTPException) and message.dest_key.isdigit()
                and message.dest_kind is not DestinationKind.DM
                and self.bot.refusals.saw(error, int(message.dest_key), "post results")):
            log.warning("outbox message %s not delivered (%s)%s", message.id, failure.reason,
                        "; given up, the GMs are told" if failure.permanent else "")
        await self.services.outbox.mark_failed(message.id, failure.reason,
                                               permanent=failure.permanent,
                                               retry_after=failure.retry_after)
        code = getattr(error, "code", None)
        if code == CANNOT_DM and message.game_id is not None:
            if (message.game_id, message.dest_key) not in self.told:
                self.told.add((message.game_id, message.dest_key))
                try:
                    await self.tell_room(message.game_id, message.dest_key)
                except discord.HTTPException as exc:  # the message waits in /inbox anyway
                    log.warning("could not tell the room of game %s that user %s takes no "
                                "DMs (%s %s)", message.game_id, message.dest_key, exc.status,
                                exc.code)

    def inbox_read(self, user_id: str) -> None:
        """The user read their inbox: a new undeliverable DM is said in the room again."""
        self.told = {t for t in self.told if t[1] != user_id}

    async def tell_room(self, game_id: str, user_id: str) -> None:
        """Say in the game's room, pinging only that player, that their DMs are closed."""
        game = await self.services.games.show(game_id)
        if not game.channel_key.isdigit():
            return
        channel = self.bot.get_channel(int(game.channel_key)) or await self.bot.fetch_channel(
            int(game.channel_key))
        await channel.send(  # type: ignore[union-attr]
            cannot_dm_notice(user_id),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(user_id))]))
