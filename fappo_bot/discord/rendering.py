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
from fappo_bot.posting.safety import inert
from fappo_bot.render import notices as words
from fappo_bot.service import notices
from fappo_bot.service.outbox import UNDELIVERED
from fappo_bot.service.records import OutboxMessage


def _reveal(notice: notices.Notice) -> str:
    assert isinstance(notice, notices.Revealed)
    return f"\nHere: `/reveal turn:{notice.turn}` shows it and checks it."


def _stamped(at: datetime, zone: str | None = None) -> str:
    """A notice's moment as a Discord timestamp: each reader sees it in their own zone."""
    return stamp(at)


#: how Discord words each notice: the neutral words, with every moment a timestamp
_WORDS: words.Words = words.with_times(_stamped)

#: what Discord adds after the last part of a message, by the notice it carries
_ADDED: dict[type[notices.Notice], Callable[[notices.Notice], str]] = {
    notices.Revealed: _reveal,
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
