"""Delivering the outbox: adapters fetch the messages due, deliver them, and mark each sent or
failed.

Messages are committed with the state change they report, so a crash never loses one; an adapter
that crashes after delivering and before `mark_sent` delivers it again on restart (the
`dedupe_key` lets it recognise a message it already posted, e.g. as Discord's nonce).

A delivery that failed for a passing reason (a rate limit, Discord down) is tried again later,
each time after a longer wait up to a cap, with jitter, never sooner than the adapter was told to
wait (`delivery.DeliveryPolicy`), and never given up: the message reports a change already made,
and it survives a restart in the database. It is given up only when the adapter says the refusal
is permanent (the room is gone, the bot may not post there, the user takes no DMs); then it keeps
its reason, is never tried again, and the game's GMs are told privately in the same transaction
(`notices.undelivered`, once per destination until they read it), the turn status lists it
(`given_up`) and it stays readable in the inbox: the addressee's for a DM, the GMs' for all of
the game's (`inbox`). Messages to one destination go out in order: a message waiting for its next
attempt holds back the later messages of its destination (only of its destination) until it is
delivered or given up, so nothing overtakes it and nothing blocks another room.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import timedelta

from fappo_bot.posting.safety import safe
from fappo_bot.service import notices
from fappo_bot.service.base import UseCases, gm_ids, queue
from fappo_bot.service.errors import NotFound
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import DestinationKind, OutboxMessage, Role
from fappo_bot.service.retry import retried

#: the kind of the GMs' notice of a message given up (a notice of its own is never noticed)
UNDELIVERED = "undelivered"

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
        """What the user reads in their inbox, oldest first: the DMs the bot has not delivered
        to them (waiting or given up), and, for a GM, every message of their games given up for
        good (to the room, to a player), so that nothing Discord refused is lost."""
        async with self.uow() as uow:
            found = {m.id: m for m in await uow.outbox.inbox(user_id)}
            for membership in await uow.members.games_of(user_id):
                if membership.role is Role.GM:
                    found.update((m.id, m) for m in await uow.outbox.given_up(membership.game_id))
            return sorted(found.values(), key=lambda m: (m.created_at, m.id))

    async def given_up(self, game_id: str) -> list[OutboxMessage]:
        """The game's messages given up for good and not read since, oldest first (a turn's
        status lists them: where, and why)."""
        async with self.uow() as uow:
            return list(await uow.outbox.given_up(game_id))

    async def given_up_lines(self, game_id: str) -> list[str]:
        """`given_up` as a turn's status says it, a line each: what, where to, why."""
        async with self.uow() as uow:
            return [notices.undelivered_line(await _where(uow, m), m.last_error or "", m.kind)
                    for m in await uow.outbox.given_up(game_id)]

    async def where(self, message: OutboxMessage) -> str:
        """Where a message was going, in words: the game's room, another room, or a player's
        direct messages (by the name the adapters last saw)."""
        async with self.uow() as uow:
            return await _where(uow, message)

    async def messages(self, message_ids: Sequence[str]) -> list[OutboxMessage]:
        """These messages (the ids of no message left out): the reminder a new one replaces,
        for the adapter to take it down."""
        async with self.uow() as uow:
            found = [await uow.outbox.get(i) for i in dict.fromkeys(message_ids)]
            return [m for m in found if m is not None]

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
        self, message_id: str, error: str, *, permanent: bool = False,
        retry_after: timedelta | None = None,
    ) -> OutboxMessage:
        """A delivery attempt failed (`error`: why, as a sentence the GMs read): the message is
        tried again after the policy's wait (never sooner than `retry_after`), however many
        times it takes; or, when `permanent`, given up at once and the game's GMs told
        privately, in this transaction. Returns it as now."""
        async with self.uow() as uow:
            message = await uow.outbox.get(message_id)
            if message is None:
                raise NotFound("There is no such message in the outbox.")
            if message.sent_at is not None or message.gave_up_at is not None:
                return message  # delivered or given up already: a late report changes nothing
            now = self.now()
            attempts = message.attempts + 1
            reason = error[:MAX_ERROR]
            retry_at = (None if permanent
                        else self.deps.delivery.retry_at(attempts, now, retry_after))
            if permanent:
                await self._tell_gms(uow, message, reason)
            await uow.outbox.mark_failed(message_id, reason, retry_at, now)
            await uow.commit()
            return message.model_copy(update={
                "attempts": attempts, "last_error": reason,
                "next_attempt_at": retry_at, "gave_up_at": None if retry_at else now})

    async def _tell_gms(self, uow: UnitOfWork, message: OutboxMessage, reason: str) -> None:
        """Queue the GMs' private notice of `message`, given up now: by DM (a GM whose DMs are
        closed reads it in their inbox), once per destination until the GMs read what is
        waiting there (a player whose DMs are closed would otherwise cost them a notice per
        message)."""
        if message.game_id is None or message.kind == UNDELIVERED:
            return
        game = await uow.games.get(message.game_id)
        if game is None:
            return
        if any(m.dest_kind is message.dest_kind and m.dest_key == message.dest_key
               for m in await uow.outbox.given_up(game.id)):
            return  # told already, and not read since
        text = notices.undelivered(game.name, await _where(uow, message),
                                   message.content.splitlines()[0] if message.content else "",
                                   reason)
        for gm in await gm_ids(uow, game):
            await queue(uow, self.deps, game, UNDELIVERED, text,
                        f"undelivered:{message.id}:{gm}", dm_to=gm)


async def _where(uow: UnitOfWork, message: OutboxMessage) -> str:
    if message.dest_kind is DestinationKind.DM:
        names = await uow.users.names([message.dest_key])
        return f"the direct messages of {safe(names.get(message.dest_key, 'a player'))}"
    game = await uow.games.get(message.game_id) if message.game_id else None
    if game is not None and game.channel_key == message.dest_key:
        return "the game's room"
    return "another room of the game"
