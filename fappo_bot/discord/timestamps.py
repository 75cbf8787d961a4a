"""Times as Discord shows them: each reader sees a moment in their own zone and language.

`stamp` writes a moment as Discord's timestamp markup, the full date and time and the
countdown (`<t:N:F> (<t:N:R>)`), which every Discord client renders in its reader's zone. Every
time the bot shows on Discord goes through it (the notices' deadlines in `rendering.py`, the
call-time answers and `/turn status` in `commands/turns.py`).
"""

from __future__ import annotations

from datetime import UTC, datetime


def stamp(at: datetime) -> str:
    """`<t:N:F> (<t:N:R>)`, N the moment's UTC epoch seconds (a naive datetime is UTC)."""
    moment = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    seconds = int(moment.timestamp())
    return f"<t:{seconds}:F> (<t:{seconds}:R>)"
