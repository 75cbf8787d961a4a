"""Discord timestamps: a moment every reader sees in their own zone, with its countdown."""

from __future__ import annotations

from datetime import UTC, datetime


def stamp(at: datetime) -> str:
    """`<t:N:F> (<t:N:R>)`: the full date and time, and how long from now (N: the UTC epoch
    seconds; a naive `at` is UTC)."""
    moment = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    seconds = int(moment.timestamp())
    return f"<t:{seconds}:F> (<t:{seconds}:R>)"
