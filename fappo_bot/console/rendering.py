"""The outbox as the table shows it: each message rendered from its kind and payload.

The service queues a message's kind and data (`service.notices`: the notice of its kind); the
words are `fappo_bot.render.notices`' (`WORDS`, which this may override per kind: `_WORDS`),
and a message without a payload it reads is its stored text. The table frames each kind (results, notices) under
a title, and adds what only the table says: its own command that checks a reveal, from the turn
in its payload, after the reveal's last part. What this writes passes `inert` last, so nothing
rendered can ping anyone, whatever a payload holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.console.seats import Kind
from fappo_bot.posting.safety import inert
from fappo_bot.render import notices as words
from fappo_bot.service import notices
from fappo_bot.service.records import OutboxMessage
from fappo_bot.service.timetext import local_text

#: outbox message kinds and how the table frames them
_KINDS: dict[str, Kind] = {
    "results": Kind.RESULTS,
    "results_private": Kind.RESULTS,
    "everyone_in": Kind.NOTICE,
}

#: how the table words each notice: the neutral words, with every moment in the game's zone
#: (`Fri 2026-12-04 20:00 CET`)
_WORDS: words.Words = words.with_times(local_text)

_TITLES: dict[str, str] = {
    "results": "turn results",
    "results_private": "your secret results",
    "turn_opened": "turn opened",
    "sealed": "NPC orders sealed",
    "revealed": "NPC orders revealed",
    "time_called": "time called",
    "npc_wait": "waiting for NPC orders",
    "everyone_in": "everyone is in",
    "secret_orders": "sealed orders arrived",
    "reminder_dm": "your reminder",
    "digest": "your daily digest",
    "grace": "grace",
    "deadline_moved": "deadline moved",
}


@dataclass(frozen=True)
class Rendered:
    """One outbox message as the table shows it: how it is framed, under which title."""

    kind: Kind
    title: str
    text: str


def rendered(message: OutboxMessage) -> Rendered:
    """The table's rendering of an outbox message (its game and audience are the caller's)."""
    text = words.part(message, _WORDS)
    notice = notices.read(message.kind, message.payload)
    if isinstance(notice, notices.Revealed) and message.part == message.parts:
        # the service's texts name no adapter's command: `/reveal N` shows the canonical JSON
        text += f"\nAt this table: /reveal {notice.turn} shows it and checks it."
    return Rendered(_KINDS.get(message.kind, Kind.NOTICE),
                    _TITLES.get(message.kind, message.kind.replace("_", " ")), inert(text))
