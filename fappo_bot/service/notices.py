"""Short table notices queued in the outbox (turn opened, reminders, call time, seals, undo).

Game text (post replies, turn results) comes from `fappo_bot.posting.render`; these are the few
one-line announcements of the turn cycle. Every name a user wrote goes through
`render.safe`/`render.no_mentions`, so nothing in a notice can ping anyone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from fappo_bot.posting.render import DISCORD_LIMIT, safe


def _names(names: Sequence[str]) -> str:
    return ", ".join(safe(n) for n in names)


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC") if at else "no deadline"


def turn_opened(number: int, deadline: datetime | None, pending_hits: int) -> str:
    hits = (
        f" {pending_hits} hit(s) of the last turn can still be reduced in this turn's posts (F13)."
        if pending_hits
        else ""
    )
    return f"Turn {number} is open ({_when(deadline)}).{hits}"


def reminder(number: int, deadline: datetime | None, missing: Sequence[str]) -> str:
    who = _names(missing) if missing else "nobody"
    return f"Reminder: turn {number} closes at {_when(deadline)}. Still to post: {who}."


def time_called(number: int, missing: Sequence[str]) -> str:
    absent = (
        f" No orders from {_names(missing)}: no action this turn (F30)." if missing else ""
    )
    return f"Time is called on turn {number}; the GM reviews and resolves it.{absent}"


def everyone_in(number: int) -> str:
    return f"Everyone is in for turn {number}, and the NPC orders are sealed."


def secret_orders_arrived(number: int) -> str:
    return (f"Sealed orders arrived for turn {number}. They stay secret until the turn is "
            "resolved.")


def sealed(number: int, digest: str) -> str:
    return (
        f"The GM's NPC orders for turn {number} are sealed. SHA-256 commitment: {digest}. "
        "They are revealed with the results."
    )


def revealed(number: int, digest: str, salt: str, orders: Sequence[str]) -> str:
    """The sealed NPC orders of a resolved turn in the canonical form of a post reply
    (`posting.render.render_order`, already made inert), with the commitment, the salt and how
    anyone checks them (F29: "verifiable after resolution"). The canonical JSON itself
    is not published with them: the `reveal` use case and the export give it."""
    shown = "\n".join(orders) if orders else "(no NPC orders this turn)"
    return (
        f"NPC orders of turn {number}, as sealed before the players' orders were revealed:\n"
        f"{shown}\n"
        f"Commitment (SHA-256): {digest}\n"
        f"Salt: {salt}\n"
        f"How to check: ask the bot to reveal the canonical JSON of turn {number}'s NPC orders "
        "(it is also in the game's export); "
        'sha256(salt + "\\n" + canonical JSON) equals the commitment.'
    )


_HOW_TO_CHECK = re.compile(r"How to check: ask the bot to reveal the canonical JSON of turn (\d+)'s")


def revealed_turn(content: str) -> int | None:
    """The turn whose reveal (`revealed`) says how to check in `content` (the reveal's last
    part, when it was split), for an adapter to add its own command for it; else None."""
    found = _HOW_TO_CHECK.search(content)
    return int(found.group(1)) if found else None


#: room left for the part's heading and the code fence of a canonical JSON message
_BLOCK_FRAME = 120


def canonical_blocks(number: int, canonical: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """The canonical JSON of the NPC orders exactly as hashed, in code blocks of at most `limit`
    characters each, for whoever asks to check a commitment. It holds no mention and no backtick
    (`scene.canonical_orders` escapes them), so it cannot ping anyone nor break out of its
    block; a long text is cut into parts that are joined back with nothing between them."""
    size = max(1, limit - _BLOCK_FRAME)
    pieces = [canonical[i:i + size] for i in range(0, len(canonical), size)] or [""]
    count = len(pieces)
    return [
        f"Canonical JSON of the NPC orders of turn {number} (part {i} of {count}; hashed exactly "
        f"as written):\n```json\n{piece}\n```"
        for i, piece in enumerate(pieces, start=1)
    ]


def undone(number: int, actor: str, withdrawn: Sequence[str] = (), npc_sealed: bool = False) -> str:
    """The undo notice; `withdrawn`: the characters whose orders for the next turn the undo
    took back with that turn (and `npc_sealed`: its sealed NPC orders), so nobody believes
    their orders still stand."""
    text = f"The GM ({safe(actor)}) rolled back the resolution of turn {number}; it will be resolved again."
    gone = [*(safe(n) for n in withdrawn), *(["the sealed NPC orders"] if npc_sealed else [])]
    if gone:
        text += (f" The orders already given for turn {number + 1} ({', '.join(gone)}) are "
                 f"withdrawn with it: give them again when turn {number + 1} opens.")
    return text


def inactive(names: Sequence[str], threshold: int) -> str:
    return (
        f"{_names(names)} missed {threshold} or more turns in a row (F30). The GM may mark "
        "them inactive, run them as NPCs or pass them to another player."
    )


def scene_ended(points: str) -> str:
    return f"The scene ends; Success Points are restored ({points}, F27)."


def adventure_ended(awards: Sequence[str]) -> str:
    listed = "; ".join(safe(a) for a in awards) if awards else "no awards"
    return f"The adventure ends (F28): {listed}. Every Success Point is restored (F27)."


def time_advanced(elapsed: str, healed: Sequence[str]) -> str:
    """The GM's "advance time" (F7 Amb-7, F14): who healed from what to what, and how long
    until each one's next level. Each line's name is already `safe` (the caller's job: the
    level arrows must stay readable)."""
    listed = "\n".join(healed) if healed else "Nobody is wounded."
    return f"{elapsed} pass (F14).\n{listed}"


#: the most characters of an undelivered message quoted in the GMs' notice
_QUOTED = 80


def undelivered(game: str, where: str, first_line: str, why: str) -> str:
    """The GMs' private notice of a message given up for good: which one (its first words),
    where it was going and why it cannot go; it is kept, for the inbox. `where` is already
    safe (the caller names a player through `safe`)."""
    quoted = first_line.strip()
    if len(quoted) > _QUOTED:
        quoted = quoted[:_QUOTED - 1].rstrip() + "…"
    return (f'A message of the game "{safe(game)}" could not be delivered to {where}, and the '
            f'bot has stopped trying: {why}. It began: "{safe(quoted)}". It is kept: the '
            "game's GMs and the player it was for can read it in their inbox.")


def undelivered_line(where: str, why: str, kind: str) -> str:
    """One line of a turn's status for a message given up: where, what kind and why."""
    return f"{kind.replace('_', ' ')} to {where}: {why}"


def waiting_for_npc_orders(number: int, names: Sequence[str]) -> str:
    """To the GMs, at a deadline while NPCs have no orders and nothing is sealed: time is not
    called (it would seal them as doing nothing, for good) until the GM chooses."""
    return (f"Turn {number}'s deadline has passed, but {_names(names)} have no NPC orders and "
            "nothing is sealed, so time is not called yet and the turn stays open. Give their "
            "orders (sealed at once; time is then called by itself), or call time yourself to "
            "seal them as doing nothing.")
