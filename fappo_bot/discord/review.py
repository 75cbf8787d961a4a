"""The GM's review as an ephemeral view (R1: every input the turn needs, nothing guessed).

One question at a time: a select when it has a short list of choices, else a button opening a
modal; an optional question shows its default and can be skipped. When no required question is
left, a button resolves the turn. Each answer goes to the service at once, which refuses a bad
one with its own sentence (shown, and the question stays)."""

from __future__ import annotations

from typing import Any

import discord

from fappo_bot.discord.base import FappoBotBase
from fappo_bot.discord.errors import answer_privately, sentence_for
from fappo_bot.discord.ids import custom_id
from fappo_bot.posting.safety import safe
from fappo_bot.service.views import ReviewItem, ReviewView

TIMEOUT = 15 * 60


class ReviewPanel(discord.ui.View):
    """The review of one turn for one GM."""

    def __init__(self, bot: FappoBotBase, game_id: str, gm: str, review: ReviewView) -> None:
        super().__init__(timeout=TIMEOUT)
        self.bot = bot
        self.game_id = game_id
        self.gm = gm
        self.review = review
        self.skipped: set[str] = set()
        self.build()

    def custom_id(self, action: str) -> str:
        return custom_id("review", self.game_id, self.gm, action)

    # ---- what is shown --------------------------------------------------------------------
    @property
    def item(self) -> ReviewItem | None:
        return next((i for i in self.review.items if not i.answered and i.required), None) or \
            next((i for i in self.review.items if not i.answered and i.key not in self.skipped),
                 None)

    def text(self) -> str:
        item = self.item
        head = f"Review of turn {self.review.turn}"
        if self.review.hidden_secret:
            head += f" ({self.review.hidden_secret} secret order(s) appear once sealed)"
        if item is None:
            return f"{head}: every question is answered. Resolve when ready."
        left = sum(1 for i in self.review.items if i.required and not i.answered)
        default = "" if item.required else f" (optional; default: {safe(str(item.answer))})"
        return f"{head}: {left} required question(s) left.\n**{safe(item.question)}**{default}"

    def build(self) -> None:
        self.clear_items()
        item = self.item
        if item is not None and item.choices and len(item.choices) <= 25:
            select: discord.ui.Select[ReviewPanel] = discord.ui.Select(
                custom_id=self.custom_id("choose"), placeholder="Your answer",
                options=[discord.SelectOption(label=c[:100], value=c[:100])
                         for c in item.choices])
            select.callback = self._chosen  # type: ignore[method-assign]
            self.add_item(select)
        elif item is not None:
            button: discord.ui.Button[ReviewPanel] = discord.ui.Button(
                custom_id=self.custom_id("answer"), label="Answer",
                style=discord.ButtonStyle.primary)
            button.callback = self._ask  # type: ignore[method-assign]
            self.add_item(button)
        if item is not None and not item.required:
            skip: discord.ui.Button[ReviewPanel] = discord.ui.Button(
                custom_id=self.custom_id("skip"), label="Keep the default")
            skip.callback = self._skip  # type: ignore[method-assign]
            self.add_item(skip)
        if not self.review.missing:
            resolve: discord.ui.Button[ReviewPanel] = discord.ui.Button(
                custom_id=self.custom_id("resolve"), label="Resolve the turn",
                style=discord.ButtonStyle.danger)
            resolve.callback = self._resolve  # type: ignore[method-assign]
            self.add_item(resolve)

    # ---- the GM's answers -----------------------------------------------------------------
    async def answer(self, interaction: discord.Interaction, value: Any) -> None:
        item = self.item
        assert item is not None
        # the review of a big turn is worked out again with each answer, which may take longer
        # than the 3 s Discord waits: the update is deferred, then the panel edited
        await interaction.response.defer()
        self.review = await self.bot.services.review.answer(self.game_id, self.gm,
                                                            {item.key: value})
        self.build()
        await interaction.edit_original_response(content=self.text(), view=self)

    async def _chosen(self, interaction: discord.Interaction) -> None:
        select = self.children[0]
        assert isinstance(select, discord.ui.Select)
        await self.answer(interaction, select.values[0])

    async def _ask(self, interaction: discord.Interaction) -> None:
        item = self.item
        assert item is not None
        await interaction.response.send_modal(AnswerModal(self, item))

    async def _skip(self, interaction: discord.Interaction) -> None:
        item = self.item
        if item is not None:
            self.skipped.add(item.key)
        self.build()
        await interaction.response.edit_message(content=self.text(), view=self)

    async def _resolve(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        view = await self.bot.services.resolution.resolve(self.game_id, self.gm,
                                                          self.review.turn)
        self.bot.delivery.wake()
        self.stop()
        await interaction.edit_original_response(
            content=f"Turn {view.turn} is resolved; the results go out now.", view=None)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return str(interaction.user.id) == self.gm

    async def on_error(self, interaction: discord.Interaction, error: Exception,
                       item: discord.ui.Item[Any]) -> None:
        await answer_privately(interaction, sentence_for(error, "review"))


class AnswerModal(discord.ui.Modal):
    """A free answer to one review question (a number, a name)."""

    def __init__(self, panel: ReviewPanel, item: ReviewItem) -> None:
        super().__init__(title=f"Turn {panel.review.turn}: your ruling"[:45], timeout=TIMEOUT,
                         custom_id=panel.custom_id("ruling"))
        self.panel = panel
        self.value: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=item.question[:45], placeholder=item.question[:100], max_length=200,
            custom_id=panel.custom_id("value"))
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.panel.answer(interaction, self.value.value.strip())

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction, error: Exception
    ) -> None:
        await answer_privately(interaction, sentence_for(error, "review answer"))


async def open_review(bot: FappoBotBase, interaction: discord.Interaction, game_id: str) -> None:
    """`/gm resolve`: the review panel, ephemeral."""
    # the review of a big turn can take longer than the 3 s Discord waits for an answer: the
    # answer is deferred (private), the panel follows through the webhook
    await interaction.response.defer(ephemeral=True, thinking=True)
    gm = str(interaction.user.id)
    review = await bot.services.review.review(game_id, gm)
    panel = ReviewPanel(bot, game_id, gm, review)
    await interaction.followup.send(panel.text(), view=panel, ephemeral=True)
