"""Turn posts: every message in a game's room (a channel, a thread or a forum post) and every DM
to the bot goes to the service's post, edit and delete use cases; the bot answers with the
service's reply and keeps that reply in step with the post (`replies.py`).

What the cog decides is Discord's side only: which events carry a post (not the bot's own
messages, not an edit that left the text as it was), where the reply goes, and which game a DM
is for (a select menu when the player is in several). Everything else is the service's."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from fappo_bot.discord.access import Access, GuardedView
from fappo_bot.discord.catchup import MARKS_FLUSH_SECONDS, CatchUp
from fappo_bot.discord.errors import AdapterError, answer_privately, for_user, sentence_for
from fappo_bot.discord.ids import custom_id
from fappo_bot.discord.limits import OPTION_TEXT, OPTIONS, ROWS
from fappo_bot.discord.proxy import Poster
from fappo_bot.discord.rendering import from_game
from fappo_bot.discord.replies import (
    ReplyBook,
    ReplyKeyWriter,
    delete_messages,
    reply_ids,
    reply_keys,
    update_reply,
)
from fappo_bot.posting.safety import clip
from fappo_bot.service.errors import NotFound, ServiceError
from fappo_bot.service.views import GameView, PostOutcome, PostReply

if TYPE_CHECKING:
    from fappo_bot.discord.base import FappoBotBase

log = logging.getLogger(__name__)

class TurnPosts(commands.Cog):
    """MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE in game rooms and DMs."""

    def __init__(self, bot: FappoBotBase) -> None:
        self.bot = bot
        self.services = bot.services
        self.rooms = bot.rooms
        self.replies = ReplyBook()
        #: the reply keys of the posts answered, written together (`ReplyKeyWriter`)
        self.keys_writer = ReplyKeyWriter(self.services.turns.set_many_reply_keys)
        #: DM message -> the game it was posted to (an edit of it goes to the same game)
        self.dm_games: dict[tuple[int, int], str] = {}
        self.catch_up = CatchUp(bot, self.missed, self.deleted_while_away)
        bot.calltime_ready = self.catch_up.ready
        #: shards whose session is ready (their first catch-up begun)
        self._ready_shards: set[int] = set()
        #: one handler at a time per message: the live event and the catch-up (or an event
        #: Discord replays on RESUME) must not both answer it
        self._busy = KeyedLocks()

    async def cog_load(self) -> None:
        self.marks_loop.start()

    async def cog_unload(self) -> None:
        self.marks_loop.cancel()
        await self.keys_writer.close()
        await self.catch_up.flush()

    @tasks.loop(seconds=MARKS_FLUSH_SECONDS)
    async def marks_loop(self) -> None:
        await self.catch_up.flush()

    # each shard catches up on its own guilds (shard 0 on the DMs too) after each new session:
    # at start, and after a session that could not resume (a RESUME replays what was missed);
    # with several shards in one process, `on_ready` comes only once at start, so a shard's
    # later new session would be missed. `on_shard_connect` comes at the session's READY,
    # before the guilds' events: call time waits from there until the catch-up is done.
    @commands.Cog.listener()
    async def on_shard_connect(self, shard_id: int) -> None:
        self._ready_shards.discard(shard_id)
        self.catch_up.connected(shard_id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        self._ready_shards.add(shard_id)
        # the deadlines an outage ate into are moved before the posts made meanwhile are read
        if await self.bot.outages.started():
            self.bot.delivery.wake()  # the rooms are told their deadline moved
        await self.catch_up.run(shard_id)

    # a guild whose GUILD_CREATE comes after its shard is ready (unavailable at READY, in an
    # outage, or later than the bot's short wait for them: `GUILD_READY_TIMEOUT`) was not in
    # the shard's catch-up; its shard catches up again (the rooms caught up already cost no read)
    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        if guild.shard_id in self._ready_shards:
            await self.catch_up.run(guild.shard_id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.on_guild_available(guild)

    # ---- Discord's events ---------------------------------------------------------------------
    async def heard(self, message: discord.Message) -> None:
        """A new message in a channel the bot sees (MESSAGE_CREATE; `FappoBot.on_message`)."""
        # every message of a channel moves its mark once handled (the bot's own replies too:
        # they are the channel's newest message, and a mark behind it reads the channel again)
        if message.webhook_id is None and message.author.bot:
            # the bot's own messages (Discord sends each one back, its replies too) and other
            # bots': never a post, so nothing is handled and the mark moves at once
            self.catch_up.marks.done(message.channel.id, message.id)
            return
        self.catch_up.marks.begin(message.channel.id, message.id)
        try:
            await self._message(message)
        finally:
            self.catch_up.marks.done(message.channel.id, message.id)

    async def _message(self, message: discord.Message) -> None:
        if message.webhook_id is not None:  # a proxy post (`proxy.py`), or no post at all
            if message.guild is not None and self.bot.proxies.is_proxy(message):
                game_id = await self.rooms.game_id(str(message.channel.id))
                if game_id is not None:
                    await self._guarded(message, self.proxied(game_id, message))
            return
        if message.guild is None:
            await self.bot.names.saw(message.author)
            async with self._busy.hold((message.channel.id, message.id)):
                if self.handled(message):  # a replayed event: the catch-up answered it
                    game = self.dm_games.get((message.channel.id, message.id))
                    await self._guarded(message, self.edit(game, message))
                else:
                    await self._guarded(message, self.dm(message))
            return
        game_id = await self.rooms.game_id(str(message.channel.id))
        if game_id is not None:
            await self.bot.names.saw(message.author)
            if not await self.bot.proxies.hold(game_id, message, self._released(game_id)):
                await self.first_post(game_id, message)

    async def first_post(self, game_id: str, message: discord.Message) -> None:
        """A member's new post, once: an event heard again after the catch-up (or a RESUME's
        replay) answered it is an edit that changes nothing."""
        async with self._busy.hold((message.channel.id, message.id)):
            if self.handled(message):
                await self._guarded(message, self.edit(game_id, message))
            else:
                await self._guarded(message, self.post(game_id, message))

    def handled(self, message: discord.Message) -> bool:
        """Whether this process answered the message already (its reply is known)."""
        return self.replies.shown(message.channel.id, message.id) is not None

    @commands.Cog.listener()
    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        message = payload.message
        proxy = self.bot.proxies.is_proxy(message) and message.guild is not None
        if "content" not in payload.data:
            return
        if (message.author.bot or message.webhook_id is not None) and not proxy:
            return
        cached = payload.cached_message
        if cached is not None and cached.content == message.content:
            return  # an embed unfurled, a pin: Discord's update, not the player's
        if self.bot.proxies.edited(message):
            return  # still held: handled as it reads when its grace ends
        if message.guild is None:  # a DM: the game it went to, else the service finds it
            await self.bot.names.saw(message.author)
            game_id = self.dm_games.get((message.channel.id, message.id))
            async with self._busy.hold((message.channel.id, message.id)):
                await self._guarded(message, self.edit(game_id, message))
            return
        game_id = await self.rooms.game_id(str(message.channel.id))
        if game_id is None:
            return
        if not proxy:
            await self.bot.names.saw(message.author)  # a nick may have changed since the post
        async with self._busy.hold((message.channel.id, message.id)):
            await self._guarded(message, self.proxied(game_id, message, edit=True) if proxy
                                else self.edit(game_id, message))

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        cached = payload.cached_message
        if cached is not None and cached.author.bot and not self.bot.proxies.is_proxy(cached):
            return
        if self.bot.proxies.deleted(payload.channel_id, payload.message_id):
            return  # held, never handled: a proxy app reposted it (or its author took it back)
        game_id: str | None = None
        if payload.guild_id is not None:
            game_id = await self.rooms.game_id(str(payload.channel_id))
            if game_id is None:
                return
        self.dm_games.pop((payload.channel_id, payload.message_id), None)
        replies = self.replies.pop(payload.channel_id, payload.message_id)
        try:
            # a webhook's message: who deleted it is not known (its "author" is the webhook)
            deleted = await self.services.turns.delete(
                game_id, str(cached.author.id) if cached and not cached.webhook_id else None,
                channel_key=str(payload.channel_id), message_key=str(payload.message_id))
        except ServiceError as exc:
            log.info("deletion of %s not applied: %s", payload.message_id, exc)
            deleted = None
        if deleted is not None:
            self.bot.boards.touch(game_id)
            replies = list(dict.fromkeys([*reply_ids(deleted.reply_keys), *replies]))
        if replies:
            channel = self.bot.get_channel(payload.channel_id) or await self.bot.fetch_channel(
                payload.channel_id)
            await delete_messages(channel, replies)  # type: ignore[arg-type]

    async def deleted_while_away(self, game_id: str | None, room: discord.abc.Messageable,
                                 message_id: int, replies: list[int]) -> None:
        """A post deleted while the bot was away: its orders withdrawn, its reply deleted."""
        channel_id = int(getattr(room, "id", 0))
        try:
            deleted = await self.services.turns.delete(
                game_id, None, channel_key=str(channel_id), message_key=str(message_id))
        except ServiceError as exc:
            log.info("deletion of %s not applied: %s", message_id, exc)
            deleted = None
        if deleted is not None:
            self.bot.boards.touch(game_id)
            replies = list(dict.fromkeys([*reply_ids(deleted.reply_keys), *replies]))
        self.replies.pop(channel_id, message_id)
        await delete_messages(room, replies)

    async def missed(self, game_id: str | None, message: discord.Message) -> None:
        """A post or an edit made while the bot was away (`catchup.py`); `game_id` None: a
        DM, to the game it went to, or routed as a new DM is."""
        async with self._busy.hold((message.channel.id, message.id)):
            if game_id is None:
                await self.bot.names.saw(message.author)
                await self._guarded(message, self.missed_dm(message))
                return
            await self._guarded(message, self.proxied(game_id, message, edit=True)
                                if message.webhook_id is not None
                                else self.edit(game_id, message))

    async def missed_dm(self, message: discord.Message) -> None:
        try:
            await self.edit(self.dm_games.get((message.channel.id, message.id)), message)
        except NotFound:  # no recorded post: new secret orders
            await self.dm(message)

    # ---- the use cases ------------------------------------------------------------------------
    async def post(self, game_id: str, message: discord.Message, *, secret: bool = False,
                   poster: Poster | None = None) -> None:
        """A post (`poster`: whom a proxy post counts for; else the message's author)."""
        reply = await self.services.turns.post(
            game_id, poster.user if poster else str(message.author.id),
            channel_key=str(message.channel.id), message_key=str(message.id),
            text=message.content, secret=secret,
            as_character=poster.character if poster else None, posted_at=written_at(message))
        if reply.outcome is not PostOutcome.TABLE_TALK:
            self.bot.boards.touch(game_id)
            await self._answer(message, await self._in_dm(game_id, message, reply.reply), [],
                               reply)

    async def edit(self, game_id: str | None, message: discord.Message,
                   poster: Poster | None = None) -> None:
        """An edited post (`game_id` None: a DM the service finds by its message)."""
        reply = await self.services.turns.edit(
            game_id, poster.user if poster else str(message.author.id),
            channel_key=str(message.channel.id), message_key=str(message.id),
            text=message.content, secret=message.guild is None,
            as_character=poster.character if poster else None, posted_at=written_at(message))
        self.bot.boards.touch(game_id)
        old = reply_ids(self._stored_keys(reply)) or self.replies.get(message.channel.id,
                                                                      message.id)
        text = await self._in_dm(game_id, message, reply.reply)
        if reply.outcome is PostOutcome.UNCHANGED:
            # the orders stand as they were; the reply may still show the problems of an edit
            # in between (which recorded nothing): then it shows the orders again
            shown = self.replies.shown(message.channel.id, message.id)
            if shown is None or shown in (reply.reply, text):
                return
        if reply.outcome is PostOutcome.TABLE_TALK:
            await delete_messages(message.channel, old)
            self.replies.pop(message.channel.id, message.id)
            if reply.post_id and self._stored_keys(reply):
                self.keys_writer.put(reply.post_id, ())
            return
        await self._answer(message, text, old, reply)

    async def _in_dm(self, game_id: str | None, message: discord.Message, text: str) -> str:
        """The answer to a post, headed in a DM by the game it went to and its room's link
        (`rendering.from_game`): a player of two games reads which one took the orders."""
        if message.guild is not None or not text:
            return text
        game_id = game_id or self.dm_games.get((message.channel.id, message.id))
        if game_id is None:
            return text
        return f"{from_game(await self.services.games.show(game_id))}\n{text}"

    async def proxied(self, game_id: str, message: discord.Message, *, edit: bool = False
                      ) -> None:
        """A proxy app's webhook post (or its edit): the post of the character's player when
        its name is a character's of a game that takes proxy posts, else nothing."""
        poster = await self.bot.proxies.poster(game_id, message, new=not edit)
        if poster is not None:
            await (self.edit(game_id, message, poster) if edit
                   else self.post(game_id, message, poster=poster))

    def _released(self, game_id: str) -> Callable[[discord.Message], Awaitable[None]]:
        """What a member's post held for the proxy grace becomes when the grace ends."""
        async def handle(message: discord.Message) -> None:
            await self.first_post(game_id, message)
        return handle

    async def dm(self, message: discord.Message) -> None:
        """Secret orders by DM (F29): to the player's only open game, or the one picked."""
        games = await self.open_games_of(message.author.id)
        if not games:
            raise AdapterError("You are in no game with an open turn, so there is nothing to "
                               "send orders to.")
        if len(games) == 1:
            await self.secret_post(games[0].id, message)
            return
        view = GamePicker(self, message, games)
        view.message = await message.reply(
            "You are in several games with an open turn: which one are these orders for?",
            view=view)

    async def secret_post(self, game_id: str, message: discord.Message) -> None:
        self.dm_games[(message.channel.id, message.id)] = game_id
        await self.post(game_id, message, secret=True)

    async def open_games_of(self, user_id: int) -> list[GameView]:
        games = await self.services.games.games_of(str(user_id))
        return [g for g in games if g.turn is not None and g.turn.status.value == "open"]

    # ---- helpers ------------------------------------------------------------------------------
    async def _answer(self, message: discord.Message, text: str, old: list[int],
                      reply: PostReply | None = None) -> None:
        if old and self.replies.shown(message.channel.id, message.id) == text:
            return  # the reply says this already (an event handled twice)
        ids = await update_reply(message.channel, message.id, old, text)
        self.replies.put(message.channel.id, message.id, ids, text)
        keys = reply_keys(ids)
        if reply is not None and reply.post_id and keys != self._stored_keys(reply):
            self.keys_writer.put(reply.post_id, keys)

    def _stored_keys(self, reply: PostReply) -> tuple[str, ...]:
        """The post's reply keys as stored, or as they wait to be (`ReplyKeyWriter`)."""
        waiting = self.keys_writer.pending(reply.post_id)
        return reply.reply_keys if waiting is None else waiting

    async def _guarded(self, message: discord.Message, work: object) -> None:
        """The error boundary of the listeners: a known refusal becomes the reply."""
        try:
            await work  # type: ignore[misc]
        except discord.HTTPException as exc:
            if self.bot.refusals.saw(exc, message.channel.id, "answer a post"):
                return  # not answered: Discord would refuse the answer too
            await self._apologise(message, exc)
        except Exception as exc:  # the one boundary: every failure is answered
            await self._apologise(message, exc)

    async def _apologise(self, message: discord.Message, exc: Exception) -> None:
        text = await for_user(self.bot, message.author.id, message.channel.id,
                              sentence_for(exc, f"message {message.id}"))
        old = self.replies.get(message.channel.id, message.id)
        try:
            await self._answer(message, text, old)
        except discord.HTTPException as error:
            if not self.bot.refusals.saw(error, message.channel.id, "answer a post"):
                log.exception("could not answer message %s", message.id)


def written_at(message: discord.Message) -> datetime:
    """When a post (or its edit) was written: Discord's time (its id's, or the edit's), not when
    the bot heard of it, which may be long after an outage."""
    return message.edited_at or message.created_at


class KeyedLocks:
    """One holder at a time per key, the others waiting their turn in order; a key is kept only
    while someone holds or waits for it. An uncontended hold (nearly every message) makes no
    lock and no future: the key's queue of waiters is made empty, and dropped on release."""

    def __init__(self) -> None:
        #: key -> the waiters behind its holder (the key is held while it is here)
        self._waiting: dict[object, deque[asyncio.Future[None]]] = {}

    def hold(self, key: object) -> _Hold:
        """`async with locks.hold(key):` the key's turn, held for the block."""
        return _Hold(self, key)

    async def acquire(self, key: object) -> None:
        queue = self._waiting.get(key)
        if queue is None:
            self._waiting[key] = deque()
            return
        turn = asyncio.get_running_loop().create_future()
        queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release(key)  # given the turn as it was cancelled: the next one's now
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(turn)
            raise

    def release(self, key: object) -> None:
        queue = self._waiting[key]
        while queue:
            turn = queue.popleft()
            if not turn.done():  # a waiter cancelled meanwhile is passed over
                turn.set_result(None)
                return
        del self._waiting[key]


class _Hold:
    """`KeyedLocks.hold`: the key's turn for an `async with` block."""

    __slots__ = ("_key", "_locks")

    def __init__(self, locks: KeyedLocks, key: object) -> None:
        self._locks = locks
        self._key = key

    async def __aenter__(self) -> None:
        await self._locks.acquire(self._key)

    async def __aexit__(self, *_exc: object) -> None:
        self._locks.release(self._key)


class GamePicker(GuardedView):
    """The games a DM's orders may be for, 25 a select (Discord's limit) in up to 5 selects;
    the pick posts them as secret orders there (picked only by the orders' author)."""

    def __init__(self, cog: TurnPosts, message: discord.Message, games: list[GameView]) -> None:
        super().__init__(Access(cog.bot, message.author.id, what="choice of game"),
                         timeout=600)
        self.cog = cog
        self.orders = message
        self.message: discord.Message | None = None
        for start in range(0, min(len(games), ROWS * OPTIONS), OPTIONS):
            shown = games[start:start + OPTIONS]
            span = f" ({start + 1}-{start + len(shown)})" if len(games) > OPTIONS else ""
            select: discord.ui.Select[GamePicker] = discord.ui.Select(
                custom_id=custom_id("pick", message.id, start),
                placeholder=f"The game these orders are for{span}",
                options=[discord.SelectOption(label=clip(g.name, OPTION_TEXT), value=g.id)
                         for g in shown])
            select.callback = self._picker(select)  # type: ignore[method-assign]
            self.add_item(select)

    def _picker(self, select: discord.ui.Select[GamePicker]) -> Any:
        async def picked(interaction: discord.Interaction) -> None:
            game_id = select.values[0]
            await interaction.response.edit_message(content="Orders sent to that game.",
                                                    view=None)
            self.stop()
            await self.cog._guarded(self.orders, self.cog.secret_post(game_id, self.orders))
        return picked

    async def on_error(self, interaction: discord.Interaction, error: Exception,
                       item: discord.ui.Item[GamePicker]) -> None:
        await answer_privately(interaction, sentence_for(error, "game picker"))
