"""Delivering the outbox: adapters fetch the messages due, deliver them, and mark each sent or
failed.

Messages are committed with the state change they report, so a crash never loses one; an adapter
that crashes after delivering and before `mark_sent` delivers it again on restart (the
`dedupe_key` lets it recognise a message it already posted, e.g. as Discord's nonce).

A failed delivery is tried again later, each time after a longer wait (`delivery.DeliveryPolicy`), and
given up after `max_attempts` or at once when the adapter says the refusal is permanent (a user
who does not take DMs). A message given up is never tried again and keeps its reason; a DM given
up stays in the user's inbox. Messages to one destination go out in order: a message waiting for
its next attempt holds back the later messages of its destination (only of its destination)
until it is delivered or given up, so nothing waits forever and nothing blocks another room.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from fappo_bot.service.base import UseCases
from fappo_bot.service.errors import NotFound
from fappo_bot.service.records import DestinationKind, OutboxMessage
from fappo_bot.service.retry import retried

MAX_ERROR = 500
"""The longest failure reason kept (the rest is cut)."""


class OutboxService(UseCases):
    """The adapters' side of the outbox."""

    async def pending(
        self, limit: int = 100, destinations: Collection[str] | None = None,
        kind: DestinationKind | None = None,
    ) -> list[OutboxMessage]:
        """The messages to deliver now, oldest first (see the module's docstring for order and
        backoff); with `destinations`, only those to these channel or user keys (a shard's);
        with `kind`, only those of that kind (the DMs, for the process of shard 0)."""
        async with self.uow() as uow:
            return list(await uow.outbox.pending(self.now(), limit, destinations, kind))

    async def inbox(self, user_id: str) -> list[OutboxMessage]:
        """The DMs the bot has not delivered to this user (waiting or given up), oldest first:
        what the user reads in their inbox instead."""
        async with self.uow() as uow:
            return list(await uow.outbox.inbox(user_id))

    async def for_game(self, game_id: str) -> list[OutboxMessage]:
        """Every message of a game, sent or not, oldest first."""
        async with self.uow() as uow:
            return list(await uow.outbox.for_game(game_id))

    @retried
    async def mark_sent(self, message_id: str, delivered_keys: Sequence[str] = ()) -> None:
        """The message was delivered, as the adapter's messages `delivered_keys` (idempotent:
        the first delivery's time and keys stay)."""
        async with self.uow() as uow:
            message = await uow.outbox.get(message_id)
            if message is None:
                raise NotFound("There is no such message in the outbox.")
            if message.sent_at is None:
                await uow.outbox.mark_sent(message_id, self.now(), tuple(delivered_keys))
                await uow.commit()

    @retried
    async def mark_failed(
        self, message_id: str, error: str, *, permanent: bool = False
    ) -> OutboxMessage:
        """A delivery attempt failed: the message is tried again after a wait, or given up
        (after the policy's last attempt, or at once when `permanent`). Returns it as now."""
        async with self.uow() as uow:
            message = await uow.outbox.get(message_id)
            if message is None:
                raise NotFound("There is no such message in the outbox.")
            if message.sent_at is not None or message.gave_up_at is not None:
                return message  # delivered or given up already: a late report changes nothing
            now = self.now()
            attempts = message.attempts + 1
            retry_at = None if permanent else self.deps.delivery.retry_at(attempts, now)
            await uow.outbox.mark_failed(message_id, error[:MAX_ERROR], retry_at, now)
            await uow.commit()
            return message.model_copy(update={
                "attempts": attempts, "last_error": error[:MAX_ERROR],
                "next_attempt_at": retry_at, "gave_up_at": None if retry_at else now})
