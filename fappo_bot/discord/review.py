"""The GM's review as an ephemeral view (R1: every input the turn needs, nothing guessed).

One question at a time: selects when it has a list of choices, else a button opening a modal;
an optional question shows its default and can be skipped. When no required question is left,
a button resolves the turn. Each answer goes to the service at once, which refuses a bad one
with its own sentence (shown, and the question stays).

Within Discord's limits (`limits.py`): a select holds 25 options and a message 5 rows, so a
list of choices (the creatures of a 600-combatant scene) is shown as up to four selects of 25 a
page, with buttons to turn the pages and one to type the answer instead; the creatures inside
an area are picked across selects and pages, then sent with "Done". A label over 100
characters ends in "…"; an option's value is its place in the list, so a clipped label still
answers with the whole name.

Only the GM it was opened for may answer it, and only while a GM of the game (`access.py`); the
Resolve button first asks about NPCs left without orders (`npc_seal.py`)."""

from __future__ import annotations

import math
from typing import Any

import discord

from fappo_bot.discord.access import Access, GuardedModal, GuardedView
from fappo_bot.discord.base import FappoBotBase
from fappo_bot.discord.errors import answer_privately, sentence_for
from fappo_bot.discord.ids import custom_id
from fappo_bot.discord.limits import (
    CONTENT,
    INPUT_LABEL,
    INPUT_PLACEHOLDER,
    INPUT_VALUE,
    MODAL_TITLE,
    OPTION_TEXT,
    OPTIONS,
    PLACEHOLDER,
    ROWS,
)
from fappo_bot.posting.safety import clip, safe
from fappo_bot.service.views import ReviewItem, ReviewView
from fappo_bot.words import plural

TIMEOUT = 15 * 60
#: the most characters of a question shown (the rest of the message is the panel's own)
QUESTION = 1200
#: buttons in an action row
ROW_BUTTONS = 5
#: review questions answered with several of their choices (F19: the creatures in an area)
MANY = frozenset({"targets"})


class ReviewPanel(GuardedView):
    """The review of one turn for one GM."""

    def __init__(self, bot: FappoBotBase, game_id: str, gm: str, review: ReviewView) -> None:
        super().__init__(Access(bot, gm, what="review", gm_of=game_id), timeout=TIMEOUT)
        self.bot = bot
        self.game_id = game_id
        self.gm = gm
        self.review = review
        self.skipped: set[str] = set()
        #: the page of the current question's choices shown, and the choices picked so far
        #: (a question of several answers), by their place in the list
        self.page = 0
        self.picked: set[int] = set()
        self._shown: str | None = None
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
            head += (f" ({plural(self.review.hidden_secret, 'secret order')} appear once "
                     "sealed)")
        if item is None:
            return f"{head}: every question is answered. Resolve when ready."
        default = "" if item.required else \
            f" (optional; default: {safe(item.default or 'as the orders say')})"
        # a question quoting a long condition is clipped inside its bold, never across it
        question = clip(safe(item.question), QUESTION)
        text = f"{head}: {self.remaining()}.\n**{question}**{clip(default, 200)}"
        if item.field in MANY and item.choices:
            names = ", ".join(safe(item.choices[i]) for i in sorted(self.picked))
            text += f"\nPicked ({len(self.picked)}): {names or 'none yet'}. Then Done."
        return clip(text, CONTENT)

    def remaining(self) -> str:
        """What is left to answer: the required questions, and the optional ones not yet
        answered nor kept at their default (said apart: only the required hold the turn)."""
        open_ = [i for i in self.review.items if not i.answered]
        required = sum(1 for i in open_ if i.required)
        optional = sum(1 for i in open_ if not i.required and i.key not in self.skipped)
        parts = [f"{plural(required, 'required question')} left" if required
                 else "no required question left"]
        if optional:
            parts.append(f"then {plural(optional, 'optional one')} (each keeps its default "
                         "unless you answer it)")
        return ", ".join(parts)

    def build(self) -> None:
        self.clear_items()
        item = self.item
        if item is None or item.key != self._shown:
            self.page, self.picked = 0, set()
            self._shown = item.key if item is not None else None
        choices = item.choices if item is not None else ()
        buttons: list[discord.ui.Button[ReviewPanel]] = []
        if item is not None and choices and item.field in MANY:
            buttons.append(self._button(f"Done ({len(self.picked)} picked)", self._done,
                                        discord.ButtonStyle.primary, action="done"))
        if item is not None and (not choices or len(choices) > OPTIONS):
            buttons.append(self._button("Type the answer", self._ask, action="answer")
                           if choices else self._button("Answer", self._ask,
                                                        discord.ButtonStyle.primary,
                                                        action="answer"))
        if item is not None and not item.required:
            buttons.append(self._button("Keep the default", self._skip, action="skip"))
        if not self.review.missing:
            buttons.append(self._button("Resolve the turn", self._resolve,
                                        discord.ButtonStyle.danger, action="resolve"))
            # F30: the next turn's NPC orders may be decided before these results go out
            buttons.append(self._button("Seal next turn's NPC orders", self._seal_next,
                                        action="npcnext"))
        per_page = (ROWS - math.ceil(len(buttons) / ROW_BUTTONS)) * OPTIONS
        if len(choices) > per_page:
            turning = [self._button("◀ Previous", self._previous, action="previous"),
                       self._button("Next ▶", self._next, action="next")]
            buttons = [*turning, *buttons]
            per_page = (ROWS - math.ceil(len(buttons) / ROW_BUTTONS)) * OPTIONS
            last = (len(choices) - 1) // per_page
            self.page = min(self.page, last)
            turning[0].disabled = self.page == 0
            turning[1].disabled = self.page == last
        if item is not None and choices:
            first = self.page * per_page
            stop = min(first + per_page, len(choices))
            for row, start in enumerate(range(first, stop, OPTIONS)):
                self.add_item(self._select(item, range(start, min(start + OPTIONS, stop)), row))
        rows = len(self.children)
        for index, button in enumerate(buttons):
            button.row = rows + index // ROW_BUTTONS
            self.add_item(button)

    def _button(self, label: str, callback: Any,
                style: discord.ButtonStyle = discord.ButtonStyle.secondary, *, action: str
                ) -> discord.ui.Button[ReviewPanel]:
        button: discord.ui.Button[ReviewPanel] = discord.ui.Button(
            label=label, style=style, custom_id=self.custom_id(action))
        button.callback = callback  # type: ignore[method-assign]
        return button

    def _select(self, item: ReviewItem, places: range, row: int
                ) -> discord.ui.Select[ReviewPanel]:
        """A select of the choices at `places` (their place in the list is their value)."""
        many = item.field in MANY
        span = (f" ({places.start + 1}-{places.stop} of {len(item.choices)})"
                if len(item.choices) > OPTIONS else "")
        select: discord.ui.Select[ReviewPanel] = discord.ui.Select(
            custom_id=self.custom_id(f"choose{row}"),
            placeholder=clip(("Pick every one inside" if many else "Your answer") + span,
                             PLACEHOLDER),
            min_values=0 if many else 1, max_values=len(places) if many else 1, row=row,
            options=[discord.SelectOption(label=clip(item.choices[i], OPTION_TEXT),
                                          value=str(i), default=many and i in self.picked)
                     for i in places])

        async def chosen(interaction: discord.Interaction) -> None:
            values = [int(v) for v in select.values]
            if not many:
                await self.answer(interaction, item.choices[values[0]])
                return
            self.picked = (self.picked - set(places)) | set(values)
            self.build()
            await interaction.response.edit_message(content=self.text(), view=self)

        select.callback = chosen  # type: ignore[method-assign]
        return select

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

    async def _done(self, interaction: discord.Interaction) -> None:
        item = self.item
        assert item is not None
        await self.answer(interaction, [item.choices[i] for i in sorted(self.picked)])

    async def _previous(self, interaction: discord.Interaction) -> None:
        await self._turn(interaction, -1)

    async def _next(self, interaction: discord.Interaction) -> None:
        await self._turn(interaction, 1)

    async def _turn(self, interaction: discord.Interaction, by: int) -> None:
        self.page = max(0, self.page + by)
        self.build()
        await interaction.response.edit_message(content=self.text(), view=self)

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

    async def _seal_next(self, interaction: discord.Interaction) -> None:
        from fappo_bot.discord.modals import OrdersModal

        await interaction.response.send_modal(OrdersModal(
            self.bot, self.game_id, interaction.user.id, npc=True, next_turn=True))

    async def _resolve(self, interaction: discord.Interaction) -> None:
        from fappo_bot.discord.npc_seal import ask_before_sealing

        await interaction.response.defer()
        # NPCs without orders and nothing sealed (the panel was opened before): the GM is asked
        # first, and the review opened again after the seal (sealed orders may raise questions)
        if await ask_before_sealing(self.bot, interaction, self.game_id, "resolving",
                                    lambda i: open_review(self.bot, i, self.game_id)):
            return
        view = await self.bot.services.resolution.resolve(self.game_id, self.gm,
                                                          self.review.turn)
        self.bot.delivery.wake()
        self.stop()
        over = (" The combat is over: the game is out of combat until a GM sets `in_combat` "
                "on again with /game set." if getattr(view, "combat_ended", False) else "")
        await interaction.edit_original_response(
            content=f"Turn {view.turn} is resolved; the results go out now.{over}", view=None)

    async def on_error(self, interaction: discord.Interaction, error: Exception,
                       item: discord.ui.Item[Any]) -> None:
        await answer_privately(interaction, sentence_for(error, "review"))


class AnswerModal(GuardedModal):
    """A free answer to one review question (a number, a name): answered only as the panel
    is (its GM, still a GM), whatever custom_id a submission carries."""

    def __init__(self, panel: ReviewPanel, item: ReviewItem) -> None:
        super().__init__(panel.access,
                         title=clip(f"Turn {panel.review.turn}: your ruling", MODAL_TITLE),
                         timeout=TIMEOUT, custom_id=panel.custom_id("ruling"))
        self.panel = panel
        many = item.field in MANY
        self.value: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=clip(item.question, INPUT_LABEL),
            placeholder=clip("Names, separated by commas" if many else item.question,
                             INPUT_PLACEHOLDER),
            style=discord.TextStyle.paragraph if many else discord.TextStyle.short,
            max_length=INPUT_VALUE if many else 200, custom_id=panel.custom_id("value"))
        self.add_item(self.value)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.panel.answer(interaction, self.value.value.strip())

    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction, error: Exception
    ) -> None:
        await answer_privately(interaction, sentence_for(error, "review answer"))


async def open_review(bot: FappoBotBase, interaction: discord.Interaction, game_id: str) -> None:
    """`/gm resolve`: the review panel, ephemeral (also once the NPC orders are sealed after
    the question of `npc_seal.py`, the interaction then answered already)."""
    # the review of a big turn can take longer than the 3 s Discord waits for an answer: the
    # answer is deferred (private), the panel follows through the webhook
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    gm = str(interaction.user.id)
    review = await bot.services.review.review(game_id, gm)
    panel = ReviewPanel(bot, game_id, gm, review)
    await interaction.followup.send(panel.text(), view=panel, ephemeral=True)
