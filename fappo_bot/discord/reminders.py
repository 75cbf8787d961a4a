"""Reminders as Discord delivers them: a new reminder takes the one it replaces down (the room's
message, or the player's DM), the room's reminder pings the players who chose a ping (the only
mentions it lets through), and a DM that Discord refuses because the player takes no DMs from
the bot (50007) becomes a ping in the game's room instead: nothing is given up, so the GMs are
not told (they would be, once per player, for any other message)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from fappo_bot.discord.rendering import room_reminder
from fappo_bot.service import notices
from fappo_bot.service.records import DestinationKind, OutboxMessage

if TYPE_CHECKING:
    from fappo_bot.discord.base import FappoBotBase

log = logging.getLogger(__name__)

#: Discord's refusal of a DM to a user who takes none from the bot
CANNOT_DM = 50007


def pings_of(message: OutboxMessage) -> list[str]:
    """The users the room's reminder pings: after its last part, by user id."""
    notice = notices.read(message.kind, message.payload)
    if (not isinstance(notice, notices.Reminder) or message.part != message.parts
            or message.dest_kind is not DestinationKind.CHANNEL):
        return []
    return [u for u in notice.pings if u.isdigit()]


def with_pings(text: str, users: list[str]) -> tuple[str, discord.AllowedMentions]:
    """`text` followed by the mentions of `users`, and the mentions Discord may ping (theirs;
    none without any: the bot's default)."""
    if not users:
        return text, discord.AllowedMentions.none()
    mentions = " ".join(f"<@{u}>" for u in users)
    allowed = discord.AllowedMentions(everyone=False, roles=False,
                                      users=[discord.Object(int(u)) for u in users])
    return f"{text}\n{mentions}", allowed


async def channel_of(bot: FappoBotBase, kind: DestinationKind, key: str
                     ) -> discord.abc.Messageable:
    """The channel of a destination: a room, or a user's DM channel."""
    if kind is DestinationKind.DM:
        user = bot.get_user(int(key)) or await bot.fetch_user(int(key))
        return user.dm_channel or await user.create_dm()
    found = bot.get_channel(int(key)) or await bot.fetch_channel(int(key))
    return found  # type: ignore[return-value]


async def take_down_replaced(bot: FappoBotBase, message: OutboxMessage) -> None:
    """Delete the messages of the reminder `message` replaces (once, before its first part). A
    message gone already (deleted by someone: 10008) or that the bot may no longer delete is
    left as it is: the new reminder goes out anyway."""
    notice = notices.read(message.kind, message.payload)
    if message.part != 1 or not isinstance(notice, notices.Reminder | notices.ReminderDm) \
            or not notice.replaces:
        return
    for old in await bot.services.outbox.messages(notice.replaces):
        for key in old.delivered_keys:
            room, _, message_key = key.rpartition("/")
            try:
                channel = (await channel_of(bot, DestinationKind.CHANNEL, room) if room
                           else await channel_of(bot, old.dest_kind, old.dest_key))
                await channel.get_partial_message(int(message_key)).delete()  # type: ignore[attr-defined]
            except (discord.NotFound, discord.Forbidden) as exc:
                log.info("reminder %s not taken down (%s %s)", old.id, exc.status, exc.code)


def can_fall_back(message: OutboxMessage, error: Exception) -> bool:
    """Whether a failed delivery is a reminder DM to a player who takes no DMs (50007)."""
    return (message.kind == notices.ReminderDm.KIND and getattr(error, "code", None) == CANNOT_DM
            and isinstance(notices.read(message.kind, message.payload), notices.ReminderDm))


async def fall_back_to_room(bot: FappoBotBase, message: OutboxMessage) -> list[str]:
    """A reminder DM the player does not take, said in the game's room with a ping of them.
    Returns its keys, `room/message`, so the next reminder takes it down."""
    notice = notices.read(message.kind, message.payload)
    assert isinstance(notice, notices.ReminderDm)
    channel = await channel_of(bot, DestinationKind.CHANNEL, notice.room)
    content, allowed = with_pings(room_reminder(notice), [message.dest_key])
    sent = await channel.send(content, allowed_mentions=allowed)
    return [f"{notice.room}/{sent.id}"]

