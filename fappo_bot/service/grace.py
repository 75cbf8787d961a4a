"""Grace, as the Diplomacy judges do it: a budget of automatic extensions per player per game.

The game's `grace` (0: none) is how many extensions each player has; `grace_period` how far one
moves the deadline. When a deadline comes and players who have not posted (nor passed) still
have some left, the deadline moves once by the period, however many of them are late, and each
of them spends one (`GameSettings.grace_used`, by user id). The room is told, naming their
characters: that is their reminder. At the moved deadline the same again, while budgets last;
once nobody late has grace left, or none is set, time is called as without it.

A player who is away spends no grace and holds no deadline back (`AwayCheck`, which an
absence feature passes in; by default nobody is away). The GMs' characters never do.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from fappo_bot.service import notices
from fappo_bot.service.base import UseCases, audit, queue
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import Game, TurnRecord
from fappo_bot.service.timetext import duration_text
from fappo_bot.service.timing import arm
from fappo_bot.service.turnflow import missing_by_player
from fappo_bot.service.views import TurnStatusView

#: whether a player (by user id) of a game is away at a moment: away players spend no grace
AwayCheck = Callable[[UnitOfWork, Game, str, datetime], Awaitable[bool]]


async def nobody_away(uow: UnitOfWork, game: Game, user: str, at: datetime) -> bool:
    """The default `AwayCheck`: nobody is away."""
    return False


async def grant_grace(uow: UnitOfWork, cases: UseCases, game: Game, turn: TurnRecord,
                      status: TurnStatusView, now: datetime,
                      away: AwayCheck = nobody_away) -> TurnRecord | None:
    """At `turn`'s deadline, whose `status` (`turnflow.turn_status`, without the away shown:
    `away` says who is) the caller read: move it once by the grace period when a late player
    (not away) has grace left, spend one of each such player's, tell the room; the turn with
    its new deadline, stored with the game's counters (the caller commits). None when no grace
    is given: time is called as without it."""
    settings = game.settings
    period = settings.grace_period
    if settings.grace <= 0 or period <= timedelta(0) or turn.deadline is None:
        return None
    used = dict(settings.grace_used)
    # the players who have not posted (nor passed), each with their characters still to post,
    # in the game's order (the GMs' characters are nobody's lateness)
    late = missing_by_player(status)
    graced = [player for player in late
              if used.get(player, 0) < settings.grace and not await away(uow, game, player, now)]
    if not graced:
        return None
    for player in graced:
        used[player] = used.get(player, 0) + 1
    deadline = turn.deadline + period
    if deadline <= now:  # the scheduler came late (the bot was down): a period from now
        deadline = now + period
    await uow.games.update(game.model_copy(update={
        "settings": settings.model_copy(update={"grace_used": used}),
        "version": game.version + 1}))
    moved = arm(turn.model_copy(update={"deadline": deadline, "version": turn.version + 1}),
                game, now)
    await uow.turns.update(moved)
    names = [name for player in graced for name in late[player]]
    await queue(uow, cases.deps, game, "grace",
                notices.grace_extended(turn.number, deadline, names, duration_text(period),
                                       settings.timezone),
                f"grace:{turn.id}:{turn.deadline.isoformat()}")
    await audit(uow, cases.deps, game.id, "scheduler", "turn.grace", turn=turn.number,
                players=graced, deadline=deadline)
    return moved
