"""Delivering the outbox: adapters fetch pending messages, deliver them, and mark them sent.

Messages are committed with the state change they report, so a crash never loses one; an adapter
that crashes after delivering and before `mark_sent` delivers it again on restart (the
`dedupe_key` lets it recognise a message it already posted, e.g. by storing it on the message).
"""

from __future__ import annotations

from fappo_bot.service.base import UseCases
from fappo_bot.service.errors import NotFound
from fappo_bot.service.records import OutboxMessage
from fappo_bot.service.retry import retried


class OutboxService(UseCases):
    """The adapters' side of the outbox."""

    async def pending(self, limit: int = 100) -> list[OutboxMessage]:
        """Unsent messages, oldest first."""
        async with self.uow() as uow:
            return list(await uow.outbox.pending(limit))

    async def for_game(self, game_id: str) -> list[OutboxMessage]:
        """Every message of a game, sent or not, oldest first."""
        async with self.uow() as uow:
            return list(await uow.outbox.for_game(game_id))

    @retried
    async def mark_sent(self, message_id: str) -> None:
        """The message was delivered (idempotent)."""
        async with self.uow() as uow:
            message = await uow.outbox.get(message_id)
            if message is None:
                raise NotFound("There is no such message in the outbox.")
            if message.sent_at is None:
                await uow.outbox.mark_sent(message_id, self.now())
                await uow.commit()

    @retried
    async def mark_failed(self, message_id: str, error: str) -> None:
        """A delivery attempt failed; the message stays pending."""
        async with self.uow() as uow:
            if await uow.outbox.get(message_id) is None:
                raise NotFound("There is no such message in the outbox.")
            await uow.outbox.mark_failed(message_id, error[:500])
            await uow.commit()
