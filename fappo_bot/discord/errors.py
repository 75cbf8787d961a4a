"""The adapter's one error boundary (STYLE practice 5).

A `ServiceError` is a sentence for the user: shown as it is (ephemeral for a slash command, a
reply for a post). Anything else is a bug: logged with a short id, and the user sees an apology
naming that id, so a GM's report finds the traceback.

A refusal's rule codes ("(F12)") and the rulebook's line tags are a GM's reference: a private
answer keeps them for a GM of the game of the interaction's room and drops them for anyone else
(the words around them say the rule), as the table does (`Table.for_seat`). Who is a GM is
asked of the service; the adapter decides nothing of the rules.
"""

from __future__ import annotations

import logging
import uuid

import discord
from discord import app_commands
from discord.ext import commands

from fappo_bot.discord.limits import answer
from fappo_bot.posting.safety import no_rule_codes
from fappo_bot.service.errors import NoOpenTurn, ServiceError

log = logging.getLogger(__name__)

GUILD_ONLY = "This command works in a server's channel or thread, not in direct messages."
#: the command that opens a turn, for the service's "no turn is open" (it names no command)
OPEN_COMMAND = "/turn open"


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
    if isinstance(error, NoOpenTurn):  # the service names no adapter's command
        return error.with_command(OPEN_COMMAND)
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
    messages when it is over Discord's 2,000 characters), with its rule codes for a GM only
    (`for_reader`)."""
    await answer(interaction, await for_reader(interaction, text), private=True)


async def for_reader(interaction: discord.Interaction, text: str) -> str:
    """`text` as the user of `interaction` reads it: with its rule codes for a GM
    (`reads_rule_codes_in`), without them for anyone else. A text without codes asks nothing."""
    return await for_user(interaction.client, interaction.user.id, interaction.channel_id, text)


async def for_user(bot: object, user_id: int, room: int | None, text: str) -> str:
    """`text` as the user `user_id` reads it in the room `room` (a channel's or a thread's id;
    None: none): with its rule codes for a GM of the room's game, without them for anyone
    else (`for_reader` of an interaction, the reply to a turn post)."""
    plain = no_rule_codes(text)
    if plain == text or await reads_rule_codes_in(bot, user_id, room):
        return text
    return plain


async def reads_rule_codes_in(bot: object, user_id: int, room: int | None) -> bool:
    """Whether the user is a GM of the game of the room; where the room holds no game (a
    direct message, another channel), of one of the games they are in. Asked of the service;
    when it cannot say, the user reads what a player reads."""
    services, rooms = getattr(bot, "services", None), getattr(bot, "rooms", None)
    if services is None or rooms is None:
        return False
    user = str(user_id)
    try:
        game_id = None if room is None else await rooms.game_id(str(room))
        if game_id is not None:
            return bool(await services.games.gm_of(game_id, user))
        return any(user in game.gms for game in await services.games.games_of(user))
    except Exception:  # a refusal is said whatever this look-up meets
        log.warning("could not tell whether user %s is a GM", user, exc_info=True)
        return False


#: Discord's refusals of a room: the bot may not see it (Missing Access) or not do that there
#: (Missing Permissions)
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
PERMISSIONS_NEEDED = ("View Channel, Send Messages, Send Messages in Threads, Read Message "
                      "History and Embed Links")


class RoomRefusals:
    """Rooms where Discord refused the bot (403): said once per room and code as one clear
    warning, never as a traceback, and never answered in the room (which would be refused
    again)."""

    def __init__(self) -> None:
        self._said: set[tuple[int, int]] = set()

    def saw(self, error: discord.HTTPException, channel_id: int, doing: str) -> bool:
        """Whether `error` is such a refusal (then logged, once per room and code)."""
        if error.status != 403 or error.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
            return False
        if (channel_id, error.code) not in self._said:
            self._said.add((channel_id, error.code))
            what = "Missing Access" if error.code == MISSING_ACCESS else "Missing Permissions"
            log.warning("Discord refused to let the bot %s in channel %s (%s, %s): give the "
                        "bot's role %s there; until then the bot does nothing in it.",
                        doing, channel_id, error.code, what, PERMISSIONS_NEEDED)
        return True


def install_error_boundary(bot: commands.Bot | commands.AutoShardedBot) -> None:
    """Every slash command's, button's and modal's failure goes through `sentence_for`."""

    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command.qualified_name if interaction.command else "interaction"
        await answer_privately(interaction, sentence_for(error, f"/{name}"))

    bot.tree.on_error = on_error  # type: ignore[method-assign]
