"""Modals for text too long or too secret for a slash option: a player's secret orders
(`/turn orders`, for players whose DMs are closed) and the GM's NPC orders (`/gm npc`, or
"Give NPC orders now" when call time or the resolution asks about NPCs without orders). Only
the user a modal was opened for may submit it, and the NPC orders only while a GM
(`access.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from fappo_bot.discord.access import Access, GuardedModal
from fappo_bot.discord.base import FappoBotBase
from fappo_bot.discord.errors import answer_privately, sentence_for
from fappo_bot.discord.ids import custom_id
from fappo_bot.words import plural


class OrdersModal(GuardedModal, title="Secret orders"):
    """Orders that stay secret until resolution (F29): the answer is ephemeral; the room only
    learns from the service's notice that sealed orders arrived ("Sealed orders arrived for
    turn N", naming no one)."""

    orders: discord.ui.TextInput[OrdersModal] = discord.ui.TextInput(
        label="Your orders", style=discord.TextStyle.paragraph, max_length=4000,
        custom_id="fappo:orders:text")

    def __init__(self, bot: FappoBotBase, game_id: str, user_id: int, *, npc: bool = False,
                 next_turn: bool = False,
                 then: Callable[[discord.Interaction], Awaitable[None]] | None = None) -> None:
        title = "NPC orders (sealed at once)" if npc else "Secret orders"
        if next_turn:  # F30: before the results of the turn under review
            title = "Next turn's NPC orders (sealed now)"
        super().__init__(Access(bot, user_id, what="form", gm_of=game_id if npc else None),
                         title=title, custom_id=custom_id(
                             "npcnext" if next_turn else "npc" if npc else "orders", game_id,
                             user_id))
        self.bot = bot
        self.game_id = game_id
        self.npc = npc
        self.next_turn = next_turn
        #: what goes on once NPC orders are accepted and sealed (call time, the review)
        self.then = then

    async def on_submit(self, interaction: discord.Interaction) -> None:
        user = str(interaction.user.id)
        channel = f"dm:{user}"  # the same key the service gets for orders sent by DM
        key = f"modal:{interaction.id}"
        if self.next_turn:
            sealed = await self.bot.services.npc_first.seal_next(
                self.game_id, user, channel_key=channel, message_key=key,
                text=self.orders.value)
            self.bot.delivery.wake()
            await answer_privately(
                interaction, f"Turn {sealed.turn}'s NPC orders are sealed before the results "
                f"of turn {sealed.turn - 1} ({plural(sealed.npc_orders, 'order')}); the commitment "
                "is published, and they are that turn's NPC orders when it opens.")
            return
        if self.npc:
            reply = await self.bot.services.turns.npc_orders(
                self.game_id, user, channel_key=channel, message_key=key,
                text=self.orders.value)
        else:
            reply = await self.bot.services.turns.post(
                self.game_id, user, channel_key=channel, message_key=key,
                text=self.orders.value, secret=True)
        self.bot.delivery.wake()
        await answer_privately(interaction, reply.reply or "Recorded.")
        if reply.ok and self.then is not None:
            await self.then(interaction)

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction, error: Exception
    ) -> None:
        await answer_privately(interaction, sentence_for(error, "orders"))
