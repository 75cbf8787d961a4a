"""The turn board: one message per game room, pinned where the bot may pin, edited in place as
the turn goes (who has posted, passed, is away, is missing; the deadline as a Discord timestamp
with its countdown; whether the NPC orders are sealed), instead of the room filling with status
messages. `/turn status` shows the same text (`board_text`).

A game's board is marked stale (`touch`) when something of its turn may have changed: a post, a
command in its room, a message of the game delivered (a new turn, a reminder, call time, a
seal, results), an absence. The outbox loop brings the stale boards up to date after each round
(`refresh`; a touch wakes it without having it read the outbox, `Delivery.wake_boards`), each
board at most once a `discord.turn_board_period_seconds` (a room where posts come several a
second is read once a period, not once a post, and edited within Discord's limit on a room's
edits; the loop wakes again when the next stale board is due, `due_in`). The message is edited,
or, when it is gone (deleted by someone: 10008 Unknown Message), posted again and pinned again.
A board whose text did not change is not edited. Its message id is kept across starts
(`FappoBot.kept`, when the bot has it). The bot pins it when it may: without the permission
(403, 50013) or in a room with 50 pins already (400, 30003) the board works unpinned. The
setting `discord.turn_board` (on by default) turns boards off.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from fappo_bot.discord.timestamps import stamp
from fappo_bot.posting.safety import inert, safe
from fappo_bot.service.board_views import BoardView
from fappo_bot.service.errors import ServiceError
from fappo_bot.service.records import TurnStatus

if TYPE_CHECKING:
    from fappo_bot.discord.base import FappoBotBase

log = logging.getLogger(__name__)

#: the kinds of outbox messages that follow a change of the turn a board shows
BOARD_KINDS = frozenset({"turn_opened", "reminder", "time_called", "everyone_in", "sealed",
                         "results", "undone", "npc_wait", "grace", "deadline_moved"})


def deadline_text(board: BoardView) -> str:
    turn = board.turn
    if turn.status is not TurnStatus.OPEN:
        return "time is called."
    if turn.paused:
        return "the clock is paused."
    if turn.deadline is None:
        return "none (the GM calls time)."
    moved = board.deadline_moved
    if moved is None:
        return f"{stamp(turn.deadline)}."
    if moved.why == "grace":
        why = f"grace for {', '.join(safe(n) for n in moved.late)}, who had not posted"
    else:
        why = "the bot was down when it came"
    return f"{stamp(turn.deadline)}, moved by {safe(moved.by)} ({why})."


def board_text(board: BoardView) -> str:
    """The board of a game's current turn, as the room and `/turn status` read it."""
    lines = [f"**{safe(board.name)}: turn {board.turn.number}** ({board.turn.status.value})",
             f"Deadline: {deadline_text(board)}"]
    for label, names in (("Posted", board.posted), ("Passed", board.passed),
                         ("Away", board.away), ("Missing", board.missing)):
        if names or label != "Away":
            lines.append(f"{label}: {', '.join(safe(n) for n in names) or 'nobody'}.")
    if board.has_npc_seal:  # rules without secret NPC orders have no seal to show
        lines.append("NPC orders: sealed." if board.npc_sealed else "NPC orders: not sealed yet.")
    return inert("\n".join(lines))


class Boards:
    """The boards of this process's games: which are stale, and their messages."""

    def __init__(self, bot: FappoBotBase, now: Callable[[], float] | None = None) -> None:
        self.bot = bot
        #: the clock of the periods, in seconds (the event loop's, unless a test hands its own)
        self.now = now or (lambda: asyncio.get_running_loop().time())
        self.stale: set[str] = set()
        #: game id -> when its board was last brought up to date (`now`)
        self.refreshed_at: dict[str, float] = {}
        #: game id -> (room id, message id, the digest of the text shown): what was posted
        self.shown: dict[str, tuple[int, int, str]] = {}

    @property
    def on(self) -> bool:
        return self.bot.settings.discord.turn_board

    def touch(self, game_id: str | None) -> None:
        """The game's board may be out of date: brought up to date at the next round."""
        if game_id is not None and self.on:
            self.stale.add(game_id)
            self.bot.delivery.wake_boards()

    @property
    def period(self) -> float:
        return self.bot.settings.discord.turn_board_period_seconds

    def due_in(self) -> float | None:
        """Seconds until the next stale board may be brought up to date (0: now), None when no
        board is stale."""
        if not self.stale:
            return None
        now, period = self.now(), self.period
        last = min(self.refreshed_at.get(game_id, -period) for game_id in self.stale)
        return max(0.0, last + period - now)

    async def refresh(self) -> None:
        """Bring every stale board that is due up to date (one failing leaves the others be);
        one refreshed less than a period ago stays stale until its period is over."""
        now, period = self.now(), self.period
        due = [game_id for game_id in self.stale
               if now - self.refreshed_at.get(game_id, now - period) >= period]
        for game_id in due:
            self.stale.discard(game_id)
            self.refreshed_at[game_id] = now
            try:
                await self.show(game_id)
            except (discord.HTTPException, ServiceError) as exc:
                log.info("turn board of game %s not shown: %s", game_id, exc)

    async def show(self, game_id: str) -> None:
        # one read of what the board shows alone (not the game's view and the turn's status)
        board = await self.bot.services.turns.board(game_id)
        if board is None or not board.channel_key.isdigit() or (
                board.guild_key and board.guild_key.isdigit()
                and not self.bot.delivery.mine(board.guild_key)):
            return  # no turn, no Discord room, or a room of another process's shards
        text = board_text(board)
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        room = int(board.channel_key)
        shown = self.shown.get(game_id) or await self._kept(game_id, room)
        channel = self.bot.get_channel(room) or await self.bot.fetch_channel(room)
        if shown is not None and shown[0] == room:
            if shown[2] == digest:
                return
            try:
                await channel.get_partial_message(shown[1]).edit(content=text)  # type: ignore[union-attr]
            except discord.NotFound:  # deleted by someone: posted and pinned again
                pass
            else:
                await self._keep(game_id, (room, shown[1], digest))
                return
        message = await channel.send(text)  # type: ignore[union-attr]
        await self._keep(game_id, (room, message.id, digest))
        await self._pin(message)

    async def _keep(self, game_id: str, shown: tuple[int, int, str]) -> None:
        self.shown[game_id] = shown
        kept = getattr(self.bot, "kept", None)
        if kept is not None:
            await kept.put(f"board:{game_id}", "/".join(str(part) for part in shown))

    async def _kept(self, game_id: str, room: int) -> tuple[int, int, str] | None:
        """The board's message as kept across starts: its room, its id, its text's digest."""
        kept = getattr(self.bot, "kept", None)
        if kept is None:
            return None
        parts = (await kept.get(f"board:{game_id}") or "").split("/")
        if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
            return None
        return (int(parts[0]), int(parts[1]), parts[2]) if int(parts[0]) == room else None

    async def _pin(self, message: discord.Message) -> None:
        try:
            await message.pin(reason="the turn board")
        except discord.HTTPException as exc:  # no permission (50013), 50 pins (30003)
            log.info("turn board %s not pinned (%s %s): it works unpinned", message.id,
                     exc.status, exc.code)
