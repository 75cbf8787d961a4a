"""Spending banked CC on Discord (F28): `/char advance` and the GM's Approve and Refuse buttons.

A player's change waits for a GM (`AdvancementService`): the bot answers in the room with the
change, its price and two buttons. The buttons outlive a restart (a `DynamicItem`: discord.py
routes them by their custom_id, which names the game, the request and the answer), and only a
GM of the game at the moment of the press may answer (`access.py`: anyone can press a button
of a message in the room, as on Discord; a player's press is refused privately and changes
nothing). The answer replaces the buttons with what was decided."""

from __future__ import annotations

import re
from typing import Any

import discord

from fappo_bot.discord.access import Access
from fappo_bot.discord.errors import answer_privately, sentence_for
from fappo_bot.discord.ids import custom_id
from fappo_bot.posting.safety import safe
from fappo_bot.service.advance_views import AdvanceView

NO_PINGS = discord.AllowedMentions.none()


def asked_text(view: AdvanceView) -> str:
    """A player's change as a GM is asked to approve it."""
    return (f"<@{view.player}> asks to spend CC for **{safe(view.character)}**: "
            f"{safe(view.change)} ({view.cost} CC of {view.banked} banked). A GM approves or "
            "refuses it.")


def applied_text(view: AdvanceView, gm: str | None = None) -> str:
    """A change made: what it bought, its price, and the CC left."""
    by = f" (approved by <@{gm}>)" if gm else ""
    return (f"**{safe(view.character)}**: {safe(view.change)} for {view.cost} CC{by}; "
            f"{view.left} CC banked.")


def refused_text(view: AdvanceView, gm: str) -> str:
    return (f"**{safe(view.character)}**: {safe(view.change)} was refused by <@{gm}>; nothing "
            "was spent.")


class AdvanceButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"fappo:adv:(?P<game>[^:]+):(?P<request>[^:]+):"
                             r"(?P<answer>approve|refuse)"):
    """Approve or Refuse one waiting change; pressed by a GM of the game only."""

    def __init__(self, game_id: str, request: str, answer: str) -> None:
        approve = answer == "approve"
        super().__init__(discord.ui.Button(
            label="Approve" if approve else "Refuse",
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.secondary,
            custom_id=custom_id("adv", game_id, request, answer)))
        self.game_id = game_id
        self.request = request
        self.answer = answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> AdvanceButton:
        return cls(match["game"], match["request"], match["answer"])

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        bot: Any = interaction.client
        return await Access(bot, None, what="change", gm_of=self.game_id).check(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        gm = str(interaction.user.id)
        cases = bot.services.advancement
        try:
            if self.answer == "approve":
                text = applied_text(await cases.approve(self.game_id, gm, self.request), gm)
            else:
                text = refused_text(await cases.refuse(self.game_id, gm, self.request), gm)
        except Exception as exc:  # every refusal (and an apology) is said privately
            await answer_privately(interaction, sentence_for(exc, "change"))
            return
        await interaction.response.edit_message(content=text, view=None,
                                                allowed_mentions=NO_PINGS)


def approval_view(view: AdvanceView, game_id: str) -> discord.ui.View:
    """The two buttons under a player's change."""
    buttons = discord.ui.View(timeout=None)
    for answer in ("approve", "refuse"):
        buttons.add_item(AdvanceButton(game_id, view.id, answer))
    return buttons


async def answer_advance(interaction: discord.Interaction, game_id: str, view: AdvanceView
                         ) -> None:
    """`/char advance`'s answer in the room: the change made (a GM's), or asked with the
    buttons (a player's). Nobody is pinged."""
    if view.applied:
        await interaction.response.send_message(applied_text(view), allowed_mentions=NO_PINGS)
        return
    await interaction.response.send_message(asked_text(view), view=approval_view(view, game_id),
                                            allowed_mentions=NO_PINGS)
