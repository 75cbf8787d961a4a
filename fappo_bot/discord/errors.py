"""The adapter's one error boundary (STYLE practice 5).

A `ServiceError` is a sentence for the user: shown as it is (ephemeral for a slash command, a
reply for a post). Anything else is a bug: logged with a short id, and the user sees an apology
naming that id, so a GM's report finds the traceback.
"""

from __future__ import annotations

import logging
import uuid

import discord
from discord import app_commands
from discord.ext import commands

from fappo_bot.discord.limits import answer
from fappo_bot.service.errors import ServiceError

log = logging.getLogger(__name__)

GUILD_ONLY = "This command works in a server's channel or thread, not in direct messages."


class AdapterError(Exception):
    """A request the adapter itself refuses (a missing attachment, a bad time): `str()` is the
    sentence shown."""


def apology(ref: str) -> str:
    return (f"Sorry, something went wrong on the bot's side (error {ref}); nothing was changed "
            "by it. Tell the bot's host this id.")


def sentence_for(error: BaseException, where: str) -> str:
    """The text the user sees for `error`: its own sentence when known, else an apology with an
    id under which the traceback is logged."""
    if isinstance(error, app_commands.CommandInvokeError | commands.CommandInvokeError):
        error = error.original
    if isinstance(error, ServiceError | AdapterError):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return GUILD_ONLY
    if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
        return str(error)
    ref = uuid.uuid4().hex[:8]
    log.error("error %s in %s", ref, where, exc_info=error)
    return apology(ref)


async def answer_privately(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already (in several
    messages when it is over Discord's 2,000 characters)."""
    await answer(interaction, text, private=True)


def install_error_boundary(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """Every slash command's, button's and modal's failure goes through `sentence_for`."""

    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "interaction"
        await answer_privately(interaction, sentence_for(error, f"/{name}"))

    bot.tree.on_error = on_error  # type: ignore[method-assign]
