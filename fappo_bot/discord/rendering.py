"""The outbox as Discord shows it: each message rendered from its kind and payload.

The service queues a message's kind and data (`service.notices`: the notice of its kind); the
words are `fappo_bot.render.notices`' (`WORDS`, which this may override per kind: `_WORDS`),
and a message without a payload it reads is its stored text. This adds what only Discord says:
the bot's slash command that checks a reveal (from the turn in its payload, after its last
part) and where the GMs read a message given up. The neutral words name no adapter's command.
What this writes passes `inert` last, so nothing rendered can ping anyone, whatever a payload
holds.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from fappo_bot.discord.timestamps import stamp
from fappo_bot.posting.safety import inert, safe
from fappo_bot.render import notices as words
from fappo_bot.service import notices
from fappo_bot.service.outbox import UNDELIVERED
from fappo_bot.service.records import OutboxMessage
from fappo_bot.service.views import GameView

#: where a Discord channel, thread or forum post is (the client opens it from a DM)
CHANNEL_LINK = "https://discord.com/channels/{guild}/{channel}"


def channel_link(guild: str | None, room: str) -> str | None:
    """The link that opens a room, None when its guild is not known (a room key that is no
    Discord id: the local table's)."""
    if not (guild and guild.isdigit() and room.isdigit()):
        return None
    return CHANNEL_LINK.format(guild=guild, channel=room)


def room_link(game: GameView) -> str | None:
    """The link to the game's room (`channel_link`)."""
    return channel_link(game.guild_key, game.channel_key)


def from_game(game: GameView) -> str:
    """The line that heads a DM or an inbox item: which game it is of, and its room's link, so
    a player of two games knows whose turn 1 this is."""
    link = room_link(game)
    return f'From "{safe(game.name)}"' + (f" ({link})" if link else "") + ":"


def _reveal(notice: notices.Notice) -> str:
    assert isinstance(notice, notices.Revealed)
    return f"\nHere: `/reveal turn:{notice.turn}` shows it and checks it."


def _reminder_dm(notice: notices.ReminderDm) -> str:
    """A player's reminder DM: the line above it names the game and links its room
    (`delivery.headed`), so the reminder says only what is due."""
    return f"Reminder: {words.due(notice, _stamped)}."


def room_reminder(notice: notices.ReminderDm) -> str:
    """A reminder DM the player does not take, as the room reads it (a ping of them follows)."""
    return inert(f"Reminder: {words.due(notice, _stamped)} (your direct messages are closed to "
                 "the bot, so it reminds you here).")


def _digest_game(game: notices.DigestGame) -> str:
    closing = words.closes(game.deadline, game.zone, _stamped)
    names = ", ".join(safe(n) for n in game.characters)
    link = channel_link(game.guild, game.room)
    return (f"- **{safe(game.game)}**: turn {game.turn}, closes {closing}; {names} to post."
            + (f" {link}" if link else ""))


def _digest(notice: notices.Digest) -> str:
    lines = [_digest_game(g) for g in notice.games]
    return "Your daily digest: the turns waiting for your orders.\n" + "\n".join(lines)


def _stamped(at: datetime, zone: str | None = None) -> str:
    """A notice's moment as a Discord timestamp: each reader sees it in their own zone."""
    return stamp(at)


#: how Discord words each notice: the neutral words, with every moment a timestamp and the rooms
#: as links in a player's own reminders and digest
_WORDS: words.Words = {**words.with_times(_stamped), notices.ReminderDm: _reminder_dm,
                       notices.Digest: _digest}

def _check_later(notice: notices.Notice) -> str:
    assert isinstance(notice, notices.Sealed)
    return f"\nOnce it is resolved, `/reveal turn:{notice.turn}` checks them."


#: what Discord adds after the last part of a message, by the notice it carries
_ADDED: dict[type[notices.Notice], Callable[[notices.Notice], str]] = {
    notices.Revealed: _reveal,
    notices.Sealed: _check_later,
}
#: what Discord adds after the last part of a message of a kind, whatever its payload (the
#: GMs' notices of a message given up, written before payloads too)
_ADDED_TO_KIND: dict[str, str] = {
    UNDELIVERED: "\nHere: `/inbox` shows it, and `/turn status` lists it.",
}


def worded(message: OutboxMessage) -> str:
    """An outbox message's part in Discord's words (its moments timestamps), without what the
    bot adds after it: as the inbox shows a message it could not deliver."""
    return inert(words.part(message, _WORDS))


def rendered(message: OutboxMessage) -> str:
    """What the bot posts of an outbox message: its part rendered from its payload (else its
    stored text), and after its last part what Discord adds to its kind. Cut into Discord's
    messages by `split_message`, as any text."""
    text = words.part(message, _WORDS)
    if message.part == message.parts:
        text += _ADDED_TO_KIND.get(message.kind, "")
        notice = notices.read(message.kind, message.payload)
        if notice is not None and (add := _ADDED.get(type(notice))) is not None:
            text += add(notice)
    return inert(text)
