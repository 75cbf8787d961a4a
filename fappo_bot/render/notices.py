"""The table notices in words: how each `service.notices.Notice` (an outbox message's kind and
payload) reads, the same for every adapter unless the adapter overrides its kind.

`WORDS` gives each notice's wording; an adapter's renderer passes its own mapping to override a
kind (`discord/rendering.py`, `console/rendering.py`). `part` is what an adapter delivers of one
outbox message: its part of the notice rendered from the payload, cut into Discord's parts exactly
as the service cut the text it stored (`service.base.outbox_messages` stores the same words as
`content`, for the inbox, the GMs' notice of a message given up, and the rows written before
payloads); the stored `content` when there is no payload it can read, or no words for its kind.
The results are cut before they are worded (`results_parts`): each part carries its own
blocks, so that a long turn does not store the whole turn's data in each of its parts.

Mention safety is this module's: a payload keeps what the users wrote as they wrote it (names
are data); every name is written here through `safe` and every part passes `inert`, so nothing
rendered can ping anyone, whatever a payload holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from fappo_bot.posting.safety import DISCORD_LIMIT, inert, safe, split_message
from fappo_bot.render import results as result_words
from fappo_bot.service import notices as n
from fappo_bot.service.records import OutboxMessage
from fappo_bot.words import plural

N = TypeVar("N", bound=n.Notice)
#: a notice's wording, by its type
Words = Mapping[type[n.Notice], Callable[[Any], str]]


def _names(names: Sequence[str]) -> str:
    return ", ".join(safe(name) for name in names)


#: how a renderer writes a moment of a notice (a deadline), given the game's zone: the neutral
#: words write UTC; Discord a timestamp each reader sees in their own zone, the table the
#: game's local time (`with_times`)
When = Callable[[datetime, "str | None"], str]


def utc_when(at: datetime, zone: str | None = None) -> str:
    """A moment in UTC (`2026-12-05 19:00 UTC`), whatever the game's zone."""
    return at.strftime("%Y-%m-%d %H:%M UTC")


def _when(at: datetime | None, zone: str | None = None, when: When = utc_when) -> str:
    return when(at, zone) if at else "no deadline"


def closes(at: datetime | None, zone: str | None, when: When) -> str:
    """When a turn closes, as a reminder says it: `at` its moment (written by `when`), or
    `with no deadline`."""
    return f"at {when(at, zone)}" if at else "with no deadline"


def turn_opened(notice: n.TurnOpened, when: When = utc_when) -> str:
    hits = (f" {plural(notice.pending_hits, 'hit')} of the last turn can still be reduced with a Reduce "
            "line in this turn's posts." if notice.pending_hits else "")
    return f"Turn {notice.turn} is open ({_when(notice.deadline, notice.zone, when)}).{hits}"


def reminder(notice: n.Reminder, when: When = utc_when) -> str:
    who = _names(notice.missing) if notice.missing else "nobody"
    return (f"Reminder: turn {notice.turn} closes {closes(notice.deadline, notice.zone, when)}. "
            f"Still to post: {who}.")


def grace_extended(notice: n.GraceExtended, when: When = utc_when) -> str:
    return (f"Grace: turn {notice.turn}'s deadline moves by {safe(notice.by)}, to "
            f"{when(notice.deadline, notice.zone)}, because {_names(notice.late)} had not posted "
            "yet (one grace extension used for each player). Post (or pass) before then.")


def deadline_moved(notice: n.DeadlineMoved, when: When = utc_when) -> str:
    return (f"The bot was down for {safe(notice.by)} when turn {notice.turn}'s deadline came, "
            f"so the deadline moves by as much, to {when(notice.deadline, notice.zone)}: the "
            "outage costs nobody their turn.")


def due(notice: n.ReminderDm, when: When = utc_when) -> str:
    """What a player's reminder says is due: `turn 1 closes at ..., and Kael has no orders
    yet` (every adapter's reminder DM, and the room's when the DM is refused)."""
    verb = "has" if len(notice.characters) == 1 else "have"
    return (f"turn {notice.turn} closes {closes(notice.deadline, notice.zone, when)}, and "
            f"{_names(notice.characters)} {verb} no orders yet")


def reminder_dm(notice: n.ReminderDm, when: When = utc_when) -> str:
    return f"Reminder from {safe(notice.game)}: {due(notice, when)}. Post in the game's room."


def digest_game(game: n.DigestGame, room: str = "", when: When = utc_when) -> str:
    """One game of a digest: its name, its turn, its deadline, who is missing, where."""
    where = f" {room}" if room else ""
    return (f"- {safe(game.game)}: turn {game.turn}, {_when(game.deadline, game.zone, when)}; "
            f"{_names(game.characters)} to post.{where}")


def digest(notice: n.Digest, when: When = utc_when) -> str:
    games = "\n".join(digest_game(g, when=when) for g in notice.games)
    return f"Your daily digest: the turns waiting for your orders.\n{games}"


def time_called(notice: n.TimeCalled) -> str:
    absent = (f" No orders from {_names(notice.missing)}: no action this turn."
              if notice.missing else "")
    return f"Time is called on turn {notice.turn}; the GM reviews and resolves it.{absent}"


def everyone_in(notice: n.EveryoneIn) -> str:
    return f"Everyone is in for turn {notice.turn}, and the NPC orders are sealed."


def secret_orders(notice: n.SecretOrders) -> str:
    so_far = (f" ({plural(notice.count, 'set', 'sets')} of them so far)" if notice.count > 1
              else "")
    return (f"Sealed orders arrived for turn {notice.turn}{so_far}. They stay secret until the "
            "turn is resolved.")


#: how many hex digits of a commitment a notice shows: enough to tell it from any other, the
#: whole of it is in the reveal (and its check)
SHORT_HASH = 12


def sealed(notice: n.Sealed) -> str:
    return (f"The GM's NPC orders for turn {notice.turn} are sealed (commitment "
            f"{notice.commitment[:SHORT_HASH]}…). They are revealed with the results, with "
            "the whole commitment and how to check it.")


def revealed(notice: n.Revealed) -> str:
    """The orders are lines of a post reply (`posting.render.render_order`, already inert)."""
    shown = "\n".join(notice.orders) if notice.orders else "(no NPC orders this turn)"
    return (
        f"NPC orders of turn {notice.turn}, as sealed before the players' orders were "
        f"revealed:\n{shown}\n"
        f"Commitment (SHA-256): {notice.commitment}\n"
        f"Salt: {notice.salt}\n"
        f"How to check: ask the bot to reveal the canonical JSON of turn {notice.turn}'s NPC "
        "orders (it is also in the game's export); "
        'sha256(salt + "\\n" + canonical JSON) equals the commitment.'
    )


def undone(notice: n.Undone) -> str:
    number = notice.turn
    text = (f"The GM ({safe(notice.actor)}) rolled back the resolution of turn {number}; it "
            "will be resolved again.")
    gone = [*(safe(name) for name in notice.withdrawn),
            *(["the sealed NPC orders"] if notice.npc_sealed else [])]
    if gone:
        text += (f" The orders already given for turn {number + 1} ({', '.join(gone)}) are "
                 f"withdrawn with it: give them again when turn {number + 1} opens.")
    return text


def inactive(notice: n.Inactive) -> str:
    return (
        f"{_names(notice.names)} missed {notice.threshold} or more turns in a row. The GM "
        "may mark them inactive, run them as NPCs or pass them to another player."
    )


def scene_ended(notice: n.SceneEnded) -> str:
    return f"The scene ends; Success Points are restored ({notice.points})."


def adventure_ended(notice: n.AdventureEnded) -> str:
    listed = "; ".join(safe(a) for a in notice.awards) if notice.awards else "no awards"
    return f"The adventure ends: {listed}. Every Success Point is restored."


def time_advanced(notice: n.TimeAdvanced) -> str:
    """Each healed line's name is already `safe` (the service's: the level arrows must stay
    readable)."""
    listed = "\n".join(notice.healed) if notice.healed else "Nobody is wounded."
    return f"{notice.elapsed} pass.\n{listed}"


#: the most characters of an undelivered message quoted in the GMs' notice
_QUOTED = 80


def undelivered(notice: n.Undelivered) -> str:
    """`where` is already safe (the service names a player through `safe`)."""
    quoted = notice.began.strip()
    if len(quoted) > _QUOTED:
        quoted = quoted[:_QUOTED - 1].rstrip() + "…"
    return (f'A message of the game "{safe(notice.game)}" could not be delivered to '
            f"{notice.where}, and the bot has stopped trying: {safe(notice.why)}. It began: "
            f'"{safe(quoted)}". It is kept: the game\'s GMs and the player it was for can '
            "read it in their inbox.")


def npc_wait(notice: n.NpcWait) -> str:
    return (f"Turn {notice.turn}'s deadline has passed, but {_names(notice.names)} have no NPC "
            "orders and nothing is sealed, so time is not called yet and the turn stays "
            "open. Give their orders (sealed at once; time is then called by itself), or "
            "call time yourself to seal them as doing nothing.")


def item_bound(notice: n.ItemBound) -> str:
    """F22: who bound it and where it is stay unsaid ([F:L358])."""
    return (f"{safe(notice.owner)}'s legendary item '{safe(notice.item)}' has been bound to "
            "another.")


def results(notice: n.Results) -> str:
    """The results (or a part of them) from their blocks: `render.results`."""
    return result_words.text(notice)


#: every notice's wording
WORDS: Words = {
    n.TurnOpened: turn_opened, n.Reminder: reminder, n.ReminderDm: reminder_dm,
    n.Digest: digest, n.TimeCalled: time_called,
    n.EveryoneIn: everyone_in, n.SecretOrders: secret_orders, n.Sealed: sealed,
    n.Revealed: revealed, n.Undone: undone, n.Inactive: inactive, n.SceneEnded: scene_ended,
    n.AdventureEnded: adventure_ended, n.TimeAdvanced: time_advanced,
    n.Undelivered: undelivered, n.NpcWait: npc_wait, n.GraceExtended: grace_extended,
    n.DeadlineMoved: deadline_moved,
    n.ItemBound: item_bound,
    n.Results: results,
}


def with_times(when: When) -> Words:
    """The words with every moment written by `when` (an adapter's: Discord's timestamps, the
    table's local time); the rest as `WORDS`."""
    return {**WORDS,
            n.TurnOpened: lambda notice: turn_opened(notice, when),
            n.Reminder: lambda notice: reminder(notice, when),
            n.ReminderDm: lambda notice: reminder_dm(notice, when),
            n.Digest: lambda notice: digest(notice, when),
            n.GraceExtended: lambda notice: grace_extended(notice, when),
            n.DeadlineMoved: lambda notice: deadline_moved(notice, when)}


def text(notice: n.Notice, words: Words = WORDS) -> str:
    """`notice` in words (`words`: an adapter's, else these)."""
    return words[type(notice)](notice)


def parts(notice: n.Notice, words: Words = WORDS) -> list[str]:
    """`notice` in words, inert, cut into Discord's parts (2,000 characters at most each)."""
    return split_message(inert(text(notice, words)))


def part(message: OutboxMessage, words: Words = WORDS) -> str:
    """What an adapter delivers of `message` (one part of one message): its part of the notice
    rendered from its kind and payload with `words`, or its stored text when it has no payload
    this version reads, its kind has no words, or the words cut into another number of parts
    than it was stored in. A results message's payload is its own part of the turn
    (`results_parts`): its words are one message. Inert."""
    notice = n.read(message.kind, message.payload)
    if notice is None or type(notice) not in words:
        return inert(message.content)
    cut = parts(notice, words)
    if isinstance(notice, n.Results):
        return cut[0] if len(cut) == 1 else inert(message.content)
    if len(cut) != message.parts:
        return inert(message.content)
    return cut[message.part - 1]


def results_parts(notice: n.Results, limit: int = DISCORD_LIMIT,
                  lines_of: result_words.Lines | None = None
                  ) -> list[tuple[n.Results | None, str]]:
    """The messages of a turn's results: each part's own notice (its blocks) and its neutral
    words; None for the notice of a part whose block alone is too long for one message (its
    words are then delivered as stored). `lines_of`: the blocks' words, when the caller has
    them (`render.results.Worded`)."""
    out: list[tuple[n.Results | None, str]] = []
    for piece, cut in result_words.parts(notice, limit, lines_of):
        out.extend((piece if len(cut) == 1 else None, words) for words in cut)
    return out
