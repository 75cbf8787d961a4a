"""The bot's reply to a turn post, kept in step with the post: sent as a reply (several messages
when it is over Discord's 2,000 characters), edited in place when the post is edited, deleted with
the post. The reply's message ids are the adapter's keys, stored by the service with the post."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence

import discord

from fappo_bot.posting.safety import split_message

log = logging.getLogger(__name__)

#: how long a post's reply keys wait to be written with the others answered meanwhile (seconds)
REPLY_KEYS_FLUSH_SECONDS = 1.0


def reply_ids(reply_keys: Sequence[str]) -> list[int]:
    """The reply's message ids from the keys stored with a post."""
    return [int(key) for key in reply_keys if key.isdigit()]


def reply_keys(ids: Sequence[int]) -> tuple[str, ...]:
    return tuple(str(i) for i in ids)


class ReplyBook:
    """The replies of this process's recent posts, by (channel id, message id): for posts the
    service did not record (a first version with problems) and for deletions, whose event does
    not carry the reply's ids. Bounded: the oldest are forgotten first."""

    def __init__(self, size: int = 10_000) -> None:
        self._size = size
        self._ids: OrderedDict[tuple[int, int], tuple[list[int], str]] = OrderedDict()

    def get(self, channel_id: int, message_id: int) -> list[int]:
        return list(self._ids.get((channel_id, message_id), ([], ""))[0])

    def shown(self, channel_id: int, message_id: int) -> str | None:
        """The text the reply shows now, when this process wrote it."""
        found = self._ids.get((channel_id, message_id))
        return found[1] if found else None

    def put(self, channel_id: int, message_id: int, ids: Sequence[int], text: str) -> None:
        self._ids[(channel_id, message_id)] = (list(ids), text)
        self._ids.move_to_end((channel_id, message_id))
        while len(self._ids) > self._size:
            self._ids.popitem(last=False)

    def pop(self, channel_id: int, message_id: int) -> list[int]:
        return self._ids.pop((channel_id, message_id), ([], ""))[0]


Store = Callable[[Sequence[tuple[str, Sequence[str]]]], Awaitable[object]]


class ReplyKeyWriter:
    """The reply keys of the posts answered, written to the service together: every post
    answered within `delay` seconds of the first one waiting shares one transaction
    (`turns.set_many_reply_keys`), instead of each post paying a second transaction of its own
    after its reply was sent. The keys serve a later edit or deletion of the post; until they
    are written this process knows them from its `ReplyBook`, and `close` writes what waits
    (the bot's clean stop). A crash loses at most the last `delay` seconds' keys: an edit of
    such a post after the restart is answered by a new reply instead of the old one edited.
    A failed write is logged and tried again `delay` seconds later."""

    def __init__(self, store: Store, delay: float = REPLY_KEYS_FLUSH_SECONDS) -> None:
        self._store = store
        self._delay = delay
        self._pending: dict[str, tuple[str, ...]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._writing: asyncio.Task[None] | None = None

    def put(self, post_id: str, keys: Sequence[str]) -> None:
        """The post's reply keys are these (the last put of a post wins)."""
        self._pending.pop(post_id, None)
        self._pending[post_id] = tuple(keys)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self._delay, self._due)

    def pending(self, post_id: str) -> tuple[str, ...] | None:
        """The keys waiting to be written for this post, if any."""
        return self._pending.get(post_id)

    def _due(self) -> None:
        self._timer = None
        if self._writing is None or self._writing.done():
            self._writing = asyncio.get_running_loop().create_task(
                self.flush(), name="reply-keys")
        else:  # a write is still running: the next round takes what came since
            self._timer = asyncio.get_running_loop().call_later(self._delay, self._due)

    async def flush(self) -> None:
        """Write every key waiting now, in one transaction."""
        items = list(self._pending.items())
        self._pending.clear()
        if not items:
            return
        try:
            await self._store(items)
        except Exception:
            log.warning("could not store the reply keys of %d posts; trying again",
                        len(items), exc_info=True)
            for post_id, keys in items:  # unless a newer put replaced them meanwhile
                self._pending.setdefault(post_id, keys)
            if self._timer is None:
                self._timer = asyncio.get_running_loop().call_later(self._delay, self._due)

    async def close(self) -> None:
        """Write what waits, now (the bot is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._writing is not None and not self._writing.done():
            await self._writing
        await self.flush()
        if self._timer is not None:  # that write failed: nothing will try it again
            self._timer.cancel()
            self._timer = None


async def send_reply(
    channel: discord.abc.Messageable, message_id: int, text: str
) -> list[int]:
    """The reply to message `message_id`: the first part as a Discord reply, the rest after it."""
    return await _send_parts(channel, message_id, _parts(text))


async def _send_parts(channel: discord.abc.Messageable, reply_to: int | None,
                      parts: Sequence[str]) -> list[int]:
    """Send `parts` in order, the first as a reply to message `reply_to` when given. The
    reference does not fail when the post is gone (deleted meanwhile): Discord then sends a
    plain message."""
    ids: list[int] = []
    for index, part in enumerate(parts):
        reference = (
            discord.MessageReference(message_id=reply_to, channel_id=_channel_id(channel),
                                     fail_if_not_exists=False)
            if index == 0 and reply_to is not None else None
        )
        sent = await channel.send(part, reference=reference)  # type: ignore[arg-type]
        ids.append(sent.id)
    return ids


async def update_reply(
    channel: discord.abc.Messageable, message_id: int, old: Sequence[int], text: str
) -> list[int]:
    """Edit the reply `old` to say `text`: the same messages edited in place, more sent when it
    grew, the surplus deleted when it shrank. No reply yet: a new one."""
    if not old:
        return await send_reply(channel, message_id, text)
    parts = _parts(text)
    ids: list[int] = []
    for index, part in enumerate(parts):
        if index < len(old):
            try:
                await _partial(channel, old[index]).edit(content=part)
            except discord.NotFound:
                # 10008 Unknown Message: a moderator deleted this part of the reply; the rest
                # is written afresh, the first part again as a reply to the post
                await delete_messages(channel, old[index:])
                return ids + await _send_parts(channel, message_id if index == 0 else None,
                                               parts[index:])
            ids.append(old[index])
        else:
            sent = await channel.send(part)
            ids.append(sent.id)
    await delete_messages(channel, old[len(parts):])
    return ids


async def delete_messages(channel: discord.abc.Messageable, ids: Sequence[int]) -> None:
    """Delete the bot's own messages; one already gone is no error."""
    for message_id in ids:
        try:
            await _partial(channel, message_id).delete()
        except discord.NotFound:
            pass


def _parts(text: str) -> list[str]:
    """The messages of a reply, each within Discord's 2,000 characters (none for a blank
    reply: Discord sends no empty message)."""
    return [part for part in split_message(text) if part.strip()]


def _channel_id(channel: discord.abc.Messageable) -> int:
    return int(getattr(channel, "id", 0))


def _partial(channel: discord.abc.Messageable, message_id: int) -> discord.PartialMessage:
    return channel.get_partial_message(message_id)  # type: ignore[attr-defined,no-any-return]
