"""Call-time arithmetic (F30 Amb-2): the reminders before a deadline and the next alarm.

The GM sets a deadline; the game's settings say how long before it to remind the players. A turn's
`alarm_at` is the next of those moments still to come (or the deadline itself), so the storage
layer can index it and a scheduler only asks `turns.due(now)`.
"""

from __future__ import annotations

from datetime import datetime

from fappo_bot.service.records import Game, TurnRecord, TurnStatus


def reminder_times(game: Game, deadline: datetime) -> list[datetime]:
    """The reminder moments before `deadline`, earliest first (duplicates merged)."""
    return sorted({deadline - before for before in game.settings.reminders if before.total_seconds() > 0})


def arm(turn: TurnRecord, game: Game, now: datetime, *, fresh: bool = True) -> TurnRecord:
    """The turn with `alarm_at` set to its next reminder or its deadline.

    With `fresh` (a new or moved deadline), reminders whose moment has already passed count as
    sent: a player is not reminded of a deadline set an hour away that "12 hours are left".
    """
    if turn.status is not TurnStatus.OPEN or turn.paused or turn.deadline is None:
        return turn.model_copy(update={"alarm_at": None})
    times = reminder_times(game, turn.deadline)
    sent = turn.reminders_sent
    if fresh:
        sent = sum(1 for t in times if t <= now)
    alarm = times[sent] if sent < len(times) else turn.deadline
    return turn.model_copy(update={"alarm_at": alarm, "reminders_sent": sent})
