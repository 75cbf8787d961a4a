"""Call time (F30): deadlines, reminders, extend, pause, close, reopen, and what is due.

"The GM can call time on players after giving them a reasonable amount of time to post" [F:L481].
The bot only reminds and, at the deadline the GM set, calls time (closes the turn for posts); the
GM then reviews and resolves. Unattended PCs take no action (F30 Amb-3). A deadline that finds
NPCs without orders and nothing sealed waits for the GM instead (`_wait_for_npc_orders`): calling
time would seal them as doing nothing, for good.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from fappo_bot.service import notices
from fappo_bot.service.base import (
    Outgoing,
    UseCases,
    audit,
    check_gm,
    gm_ids,
    load_game_at_play,
    queue,
    some_turn,
)
from fappo_bot.service.bounds import MAX_DEADLINE, check_deadline
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.grace import AwayCheck, grant_grace
from fappo_bot.service.pace import away_now, queue_reminders
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import Game, TurnRecord, TurnStatus
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.scene import orders_in_force
from fappo_bot.service.timetext import duration_text
from fappo_bot.service.timing import arm, reminder_times
from fappo_bot.service.turnflow import away_shown, missing_now, seal_turn, turn_status
from fappo_bot.service.views import Alarm, TurnSummary


class CallTimeService(UseCases):
    """The GM's clock commands and the scheduler's queries."""

    @retried
    async def set_deadline(
        self,
        game_id: str,
        actor: str,
        *,
        at: datetime | None = None,
        after: timedelta | None = None,
    ) -> TurnSummary:
        """A GM sets (or clears, with neither argument) the open turn's deadline."""
        async with self.uow() as uow:
            game, latest = await _gm_game(uow, game_id, actor)
            if at is not None and after is not None:
                raise InvalidInput("Give the deadline as a time or as a duration, not both.")
            now = self.now()
            if after is not None:
                check_deadline(after)
            if at is not None:
                check_deadline(at - now)
            deadline = at if at is not None else (now + after if after is not None else None)
            if deadline is not None and deadline <= now:
                raise InvalidInput(
                    "The deadline must be in the future; to end the turn now, close it instead."
                )
            turn = await _locked(uow, latest, TurnStatus.OPEN)
            return await self._change(uow, game, turn, actor, "turn.deadline",
                                      deadline=deadline)

    @retried
    async def extend(self, game_id: str, actor: str, by: timedelta) -> TurnSummary:
        """A GM pushes the deadline back (from the current deadline, or from now)."""
        async with self.uow() as uow:
            game, latest = await _gm_game(uow, game_id, actor)
            if by <= timedelta(0):
                raise InvalidInput("Extend by a positive duration.")
            turn = await uow.lock_turn(some_turn(latest).id)
            now = self.now()
            base = turn.deadline or now
            # the new deadline is the input's: refused for its size before the turn's state
            check_deadline(base + min(by, MAX_DEADLINE * 2) - now, "The deadline")
            turn = _in_status(turn, TurnStatus.OPEN)
            return await self._change(uow, game, turn, actor, "turn.extend",
                                      deadline=base + by)

    @retried
    async def pause(self, game_id: str, actor: str) -> TurnSummary:
        """Stop the clock: no reminders, no call time, until resumed with the time left."""
        async with self.uow() as uow:
            game, turn = await _gm_turn(uow, game_id, actor, TurnStatus.OPEN)
            return await self._change(uow, game, turn, actor, "turn.pause", paused=True)

    @retried
    async def resume(self, game_id: str, actor: str) -> TurnSummary:
        async with self.uow() as uow:
            game, turn = await _gm_turn(uow, game_id, actor, TurnStatus.OPEN)
            return await self._change(uow, game, turn, actor, "turn.resume", paused=False)

    @retried
    async def close(self, game_id: str, actor: str) -> TurnSummary:
        """A GM calls time now: posts are refused from here on (F7 step 1 LOCK)."""
        async with self.uow() as uow:
            game, turn = await _gm_turn(uow, game_id, actor, TurnStatus.OPEN)
            out = Outgoing(self.deps, game)
            turn = await close_turn(uow, self, game, turn, out, by=actor)
            await out.queue(uow)
            await audit(uow, self.deps, game.id, actor, "turn.close", turn=turn.number)
            await uow.commit()
            return TurnSummary.of(turn)

    @retried
    async def reopen(self, game_id: str, actor: str) -> TurnSummary:
        """A GM takes back a call time: the closed turn takes posts again (no deadline)."""
        async with self.uow() as uow:
            game, turn = await _gm_turn(uow, game_id, actor, TurnStatus.CLOSED)
            turn = turn.model_copy(update={"status": TurnStatus.OPEN, "closed_at": None,
                                           "deadline": None, "alarm_at": None,
                                           "version": turn.version + 1})
            await uow.turns.update(turn)
            await audit(uow, self.deps, game.id, actor, "turn.reopen", turn=turn.number)
            await uow.commit()
            return TurnSummary.of(turn)

    async def due(self, now: datetime | None = None) -> list[Alarm]:
        """What is due now over every game (a read: `fire_due` acts on it)."""
        now = now or self.now()
        async with self.uow() as uow:
            alarms: list[Alarm] = []
            for turn in await uow.turns.due(now):
                game = await uow.games.get(turn.game_id)
                if game is not None:
                    alarms.append(await _alarm(uow, self, game, turn, now))
            return alarms

    @retried
    async def fire_due(self, now: datetime | None = None,
                       ready: Callable[[str], bool] | None = None,
                       away: AwayCheck = away_now) -> list[Alarm]:
        """Send due reminders and call time on turns past their deadline (or, with NPCs still
        without orders, tell the GMs and wait: kind "waiting"; or, with late players who have
        grace left, move the deadline once: kind "grace", `service/grace.py`, where `away`
        says who is away and spends none). Each turn is handled in its own
        transaction under its lock, so several schedulers never double a message.
        `ready(game_id)` False holds a game's call time (and its reminders) back: an adapter
        still catching up on posts made while it was away must hand them in first."""
        now = now or self.now()
        async with self.uow() as uow:
            due = [(t.id, t.game_id) for t in await uow.turns.due(now)
                   if ready is None or ready(t.game_id)]
        fired: list[Alarm] = []
        for turn_id, game_id in due:
            async with self.uow() as uow:
                turn = await uow.lock_turn(turn_id)
                game = await uow.games.get(game_id)
                if (game is None or turn.status is not TurnStatus.OPEN or turn.paused
                        or turn.alarm_at is None or turn.alarm_at > now):
                    continue  # another scheduler got there first, or the GM changed it
                alarm = await _alarm(uow, self, game, turn, now)
                graced = None
                if alarm.kind == "deadline":
                    late = await turn_status(uow, self.ruleset(game), game, turn)
                    graced = await grant_grace(uow, self, game, turn, late, now, away)
                if graced is not None:
                    # the late are reminded their own way (the room has the grace notice),
                    # the last reminders replaced: the same status, its turn moved, the away
                    # shown as away (the grace moved no post)
                    assert turn.deadline is not None
                    status = await away_shown(uow, late.model_copy(
                        update={"turn": TurnSummary.of(graced)}), now)
                    await queue_reminders(uow, self.deps, game, graced, status, now,
                                          room=False)
                    await uow.commit()
                    fired.append(alarm.model_copy(update={"kind": "grace"}))
                    continue
                if alarm.kind == "deadline" and await _wait_for_npc_orders(uow, self, game, turn):
                    await uow.commit()
                    fired.append(alarm.model_copy(update={"kind": "waiting"}))
                    continue
                if alarm.kind == "deadline":
                    out = Outgoing(self.deps, game)
                    await close_turn(uow, self, game, turn, out)
                    await out.queue(uow)
                    await audit(uow, self.deps, game.id, "scheduler", "turn.close",
                                turn=turn.number)
                else:
                    status = await turn_status(uow, self.ruleset(game), game, turn, now)
                    await queue_reminders(uow, self.deps, game, turn, status, turn.alarm_at)
                    assert turn.deadline is not None
                    sent = sum(1 for t in reminder_times(game, turn.deadline) if t <= now)
                    turn = arm(turn.model_copy(update={"reminders_sent": sent,
                                                       "version": turn.version + 1}),
                               game, now, fresh=False)
                    await uow.turns.update(turn)
                await uow.commit()
                fired.append(alarm)
        return fired

    @retried
    async def outage(self, began: datetime, ended: datetime) -> list[TurnSummary]:
        """The bot was down from `began` to `ended` (its heartbeat stopped): every open turn
        whose deadline fell in between moves by the outage's length, in the games whose
        `outage_extends` is on, and its room is told (a deadline of a game that keeps it is
        called after the catch-up, as any). Each turn in its own transaction, under its lock.
        Returns the turns moved."""
        length = ended - began
        if length <= timedelta(0):
            return []
        async with self.uow() as uow:
            due = [(t.id, t.game_id) for t in await uow.turns.due(ended)]
        moved: list[TurnSummary] = []
        for turn_id, game_id in due:
            async with self.uow() as uow:
                turn = await uow.lock_turn(turn_id)
                game = await uow.games.get(game_id)
                if (game is None or not game.settings.outage_extends
                        or turn.status is not TurnStatus.OPEN or turn.paused
                        or turn.deadline is None or not began < turn.deadline <= ended):
                    continue
                deadline = turn.deadline + length
                turn = arm(turn.model_copy(update={"deadline": deadline,
                                                   "version": turn.version + 1}), game, ended)
                await uow.turns.update(turn)
                await queue(uow, self.deps, game, "deadline_moved",
                            notices.deadline_moved(turn.number, deadline, duration_text(length),
                                                   game.settings.timezone),
                            f"outage:{turn.id}:{began.isoformat()}")
                await audit(uow, self.deps, game.id, "scheduler", "turn.outage",
                            turn=turn.number, began=began, ended=ended, deadline=deadline)
                await uow.commit()
                moved.append(TurnSummary.of(turn))
        return moved

    async def _change(
        self,
        uow: UnitOfWork,
        game: Game,
        turn: TurnRecord,
        actor: str,
        action: str,
        *,
        deadline: datetime | None = None,
        paused: bool | None = None,
    ) -> TurnSummary:
        """The open `turn`'s clock changed in the caller's transaction, which it commits: a new
        `deadline` (None: cleared), or `paused` or resumed."""
        now = self.now()
        update: dict[str, object] = {"version": turn.version + 1}
        if paused is None:
            if turn.paused:
                update["paused_remaining"] = deadline - now if deadline else None
            else:
                update["deadline"] = deadline
            update["reminders_sent"] = 0
        elif paused:
            if turn.paused:
                raise Conflict(f"Turn {turn.number} is already paused.")
            update.update(paused=True, deadline=None,
                          paused_remaining=turn.deadline - now if turn.deadline else None)
        else:
            if not turn.paused:
                raise Conflict(f"Turn {turn.number} is not paused.")
            remaining = turn.paused_remaining
            update.update(paused=False, paused_remaining=None,
                          deadline=now + remaining if remaining is not None else None)
        turn = arm(turn.model_copy(update=update), game, now)
        await uow.turns.update(turn)
        await audit(uow, self.deps, game.id, actor, action, turn=turn.number,
                    deadline=turn.deadline, paused=turn.paused)
        await uow.commit()
        return TurnSummary.of(turn)


async def _alarm(uow: UnitOfWork, cases: UseCases, game: Game, turn: TurnRecord,
                 now: datetime) -> Alarm:
    """What is due on a turn; a deadline already past wins over reminders not yet sent (a
    scheduler that was down does not remind anyone of a deadline that has gone)."""
    status = await turn_status(uow, cases.ruleset(game), game, turn, now)
    at = turn.alarm_at or turn.deadline
    assert at is not None
    past = turn.deadline is not None and (at >= turn.deadline or turn.deadline <= now)
    kind = "deadline" if past else "reminder"
    if past and turn.deadline is not None:
        at = turn.deadline
    return Alarm(game_id=game.id, turn=turn.number, kind=kind, at=at, missing=status.missing)


async def _wait_for_npc_orders(uow: UnitOfWork, cases: UseCases, game: Game, turn: TurnRecord
                               ) -> bool:
    """At the deadline, NPCs without orders and nothing sealed: time is not called (the seal
    would fix them as doing nothing, and a closed turn takes no NPC orders). The GMs are told,
    once, and the alarm is disarmed until the seal re-arms it (`TurnService.seal`: the deadline
    is past, so time is called at the next round) or the GM calls time. True when it waits."""
    idle = (await turn_status(uow, cases.ruleset(game), game, turn)).npcs_to_confirm
    if not idle:
        return False
    text = notices.waiting_for_npc_orders(turn.number, idle)
    out = Outgoing(cases.deps, game)
    for gm in await gm_ids(uow, game):
        out.add("npc_wait", text, f"npc-wait:{turn.id}:{turn.deadline}:{gm}", dm_to=gm)
    await out.queue(uow)
    await uow.turns.update(turn.model_copy(update={"alarm_at": None,
                                                   "version": turn.version + 1}))
    await audit(uow, cases.deps, game.id, "scheduler", "turn.wait_npc_orders",
                turn=turn.number, npcs=list(idle))
    return True


async def close_turn(
    uow: UnitOfWork, cases: UseCases, game: Game, turn: TurnRecord, out: Outgoing,
    by: str | None = None,
) -> TurnRecord:
    """Call time: the turn takes no more posts; the channel and the GMs are told (in `out`),
    but for the GM `by` who called it (they read the room's notice as they call it: a DM of it
    would say it twice).

    The NPC orders in force are sealed now if the GM did not seal them (F29): from call time on
    the review may show the players' secret orders, so the NPC orders must be fixed first, and
    a closed turn takes no NPC post that could seal them later (a turn closed
    unsealed could never be resolved)."""
    ruleset = cases.ruleset(game)
    now = cases.now()
    if ruleset.has(Feature.NPC_SEAL):
        # the characters and the orders in force read once, for who is missing and the seal
        records = list(await uow.characters.list(game.id))
        in_force = await orders_in_force(uow, turn)
        missing = await missing_now(uow, records, in_force, now)
        if turn.npc_commitment is None:
            turn, _ = await seal_turn(uow, cases, game, turn, records, in_force, out)
    else:
        missing = (await turn_status(uow, ruleset, game, turn, now)).missing
    turn = turn.model_copy(update={"status": TurnStatus.CLOSED, "closed_at": now,
                                   "alarm_at": None, "version": turn.version + 1})
    await uow.turns.update(turn)
    text = notices.time_called(turn.number, missing)
    key = f"time-called:{turn.id}:{now.isoformat()}"
    out.add("time_called", text, key)
    for gm in await gm_ids(uow, game):
        if gm != by:
            out.add("time_called", text, f"{key}:{gm}", dm_to=gm)
    return turn


async def _gm_turn(
    uow: UnitOfWork, game_id: str, actor: str, status: TurnStatus
) -> tuple[Game, TurnRecord]:
    """The game and its current turn, locked, for a GM's call-time command on a turn in `status`."""
    game, latest = await _gm_game(uow, game_id, actor)
    return game, await _locked(uow, latest, status)


async def _gm_game(uow: UnitOfWork, game_id: str, actor: str) -> tuple[Game, TurnRecord | None]:
    """The game and its latest turn (not locked) in one read, refused unless `actor` is a GM of
    it: what a call-time command checks before its input."""
    at_play = await load_game_at_play(uow, game_id, actor)
    check_gm(at_play.game, at_play.roles)
    return at_play.game, at_play.turn


async def _locked(uow: UnitOfWork, latest: TurnRecord | None, status: TurnStatus) -> TurnRecord:
    """The game's current turn, locked, refused unless it is in `status`."""
    return _in_status(await uow.lock_turn(some_turn(latest).id), status)


def _in_status(turn: TurnRecord, status: TurnStatus) -> TurnRecord:
    if turn.status is not status:
        raise Conflict(f"Turn {turn.number} is not {status.value}.")
    return turn
