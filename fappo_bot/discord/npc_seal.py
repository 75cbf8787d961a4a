"""The question before calling time or resolving while NPCs have no orders and nothing is sealed
(F29): the seal would fix those NPCs as doing nothing, with no way back (a closed turn takes no
NPC orders), so the GM chooses first, as at the local table: seal them as written, or give their
orders now (the NPC orders form; once they are sealed, what was asked goes on). Who is asked
about which NPCs is the service's (`TurnStatusView.npcs_to_confirm`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from fappo_bot.discord.access import Access, GuardedView
from fappo_bot.discord.errors import answer_privately, sentence_for
from fappo_bot.discord.ids import custom_id
from fappo_bot.discord.limits import CONTENT
from fappo_bot.posting.safety import clip, safe
from fappo_bot.service.errors import Conflict
from fappo_bot.service.records import TurnStatus

if TYPE_CHECKING:
    from fappo_bot.discord.base import FappoBotBase

#: what goes on once the NPC orders are sealed: call time, or the review
Then = Callable[[discord.Interaction], Awaitable[None]]
TIMEOUT = 15 * 60


def question(names: tuple[str, ...], doing: str) -> str:
    return clip(f"No NPC orders this turn for {', '.join(safe(n) for n in names)}: {doing} now "
                "seals them as doing nothing, and no NPC orders can be given this turn after "
                "that. Seal them as written, or give their orders now?", CONTENT)


async def idle_npcs(bot: FappoBotBase, game_id: str, user: str) -> tuple[str, ...]:
    """The NPCs to ask `user` about: none unless the turn is open, nothing is sealed and the
    user is a GM (a player is refused by the use case itself, and learns no NPC's name)."""
    status = await bot.services.turns.status(game_id)
    if status.turn.status is not TurnStatus.OPEN or not status.npcs_to_confirm:
        return ()
    if not await bot.services.games.gm_of(game_id, user):
        return ()
    return status.npcs_to_confirm


async def ask_before_sealing(bot: FappoBotBase, interaction: discord.Interaction, game_id: str,
                             doing: str, then: Then) -> bool:
    """Ask the GM (privately) when NPCs have no orders and nothing is sealed; True when asked
    (`then` runs on their choice), False when there is nothing to ask."""
    gm = str(interaction.user.id)
    names = await idle_npcs(bot, game_id, gm)
    if not names:
        return False
    view = SealQuestion(bot, game_id, gm, then)
    if interaction.response.is_done():
        await interaction.followup.send(question(names, doing), view=view, ephemeral=True)
    else:
        await interaction.response.send_message(question(names, doing), view=view,
                                                ephemeral=True)
    return True


class SealQuestion(GuardedView):
    """Seal the NPC orders as written, or give them now; then what was asked goes on."""

    def __init__(self, bot: FappoBotBase, game_id: str, gm: str, then: Then) -> None:
        super().__init__(Access(bot, gm, what="question", gm_of=game_id), timeout=TIMEOUT)
        self.bot = bot
        self.game_id = game_id
        self.gm = gm
        self.then = then
        for label, style, action, callback in (
                ("Seal as written", discord.ButtonStyle.danger, "written", self._written),
                ("Give NPC orders now", discord.ButtonStyle.primary, "orders", self._orders)):
            button: discord.ui.Button[SealQuestion] = discord.ui.Button(
                label=label, style=style, custom_id=custom_id("seal", game_id, gm, action))
            button.callback = callback  # type: ignore[method-assign]
            self.add_item(button)

    async def _written(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        try:
            await self.bot.services.turns.seal(self.game_id, self.gm)
        except Conflict:
            # sealed meanwhile (orders given, or another GM): what was asked goes on the same
            if not (await self.bot.services.turns.status(self.game_id)).npc_sealed:
                raise
        self.bot.delivery.wake()
        self.stop()
        await interaction.edit_original_response(content="The NPC orders are sealed as written.",
                                                 view=None)
        await self.then(interaction)

    async def _orders(self, interaction: discord.Interaction) -> None:
        from fappo_bot.discord.modals import OrdersModal

        await interaction.response.send_modal(
            OrdersModal(self.bot, self.game_id, int(self.gm), npc=True, then=self.then))

    async def on_error(self, interaction: discord.Interaction, error: Exception,
                       item: discord.ui.Item[SealQuestion]) -> None:
        await answer_privately(interaction, sentence_for(error, "NPC seal question"))
