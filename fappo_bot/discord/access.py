"""Who may act on a button, a select or a form of the bot: the one check every view and modal
runs before its callback (`Guarded.interaction_check`).

A custom_id is no proof of anything: discord.py routes a modal's submission by its custom_id
alone, and anyone can send an interaction with any id (the ids are stable, so they can be
guessed). So each view and modal knows the user it was opened for and, when only a GM may
answer it, the game: an answer from anyone else, or from a GM removed from the game since
(asked of the service at the moment of the answer), is refused with one private sentence and
changes nothing. Never silence: Discord would tell the user "This interaction failed"."""

from __future__ import annotations

from typing import Any

import discord

from fappo_bot.discord.errors import answer_privately, sentence_for
from fappo_bot.service.errors import ServiceError


def not_yours(what: str) -> str:
    return (f"This {what} was opened for someone else: only they can use it (run the command "
            "yourself for your own).")


class Access:
    """Who may answer: the user a view or modal was opened for (`owner`; None: anyone who sees
    it, a button of a message in the room), and with `game_id`, only while they are a GM of that
    game."""

    def __init__(self, bot: Any, owner: object | None, *, what: str,
                 gm_of: str | None = None) -> None:
        self.bot = bot
        self.owner = None if owner is None else str(owner)
        self.what = what
        self.gm_of = gm_of

    async def refusal(self, interaction: discord.Interaction) -> str | None:
        """Why this user may not answer now (None: they may)."""
        user = str(interaction.user.id)
        if self.owner is not None and user != self.owner:
            return not_yours(self.what)
        if self.gm_of is not None:
            try:
                await self.bot.services.games.require_gm(self.gm_of, user)
            except ServiceError as exc:
                return sentence_for(exc, self.what)
        return None

    async def check(self, interaction: discord.Interaction) -> bool:
        refusal = await self.refusal(interaction)
        if refusal is None:
            return True
        await answer_privately(interaction, refusal)
        return False


class GuardedView(discord.ui.View):
    """A view whose every component is checked against `access` before its callback."""

    def __init__(self, access: Access, *, timeout: float | None) -> None:
        super().__init__(timeout=timeout)
        self.access = access

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await self.access.check(interaction)


class GuardedModal(discord.ui.Modal):
    """A modal whose submission is checked against `access` before `on_submit`."""

    def __init__(self, access: Access, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.access = access

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await self.access.check(interaction)
