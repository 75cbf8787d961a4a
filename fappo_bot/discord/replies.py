"""The bot's reply to a turn post, kept in step with the post: sent as a reply (several messages
when it is over Discord's 2,000 characters), edited in place when the post is edited, deleted with
the post. The reply's message ids are the adapter's keys, stored by the service with the post."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import discord

from fappo_bot.posting.safety import split_message


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


async def send_reply(
    channel: discord.abc.Messageable, message_id: int, text: str
) -> list[int]:
    """The reply to message `message_id`: the first part as a Discord reply, the rest after it."""
    ids: list[int] = []
    for index, part in enumerate(_parts(text)):
        reference = (
            discord.MessageReference(message_id=message_id, channel_id=_channel_id(channel),
                                     fail_if_not_exists=False)
            if index == 0 else None
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
            await _partial(channel, old[index]).edit(content=part)
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
