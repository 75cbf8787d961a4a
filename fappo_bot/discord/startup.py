"""The composition root of the bot, in the shape of discord.py's `examples/advanced_startup.py`:
settings -> storage (upgraded) -> `Services` -> `FappoBot` -> `async with bot: await
bot.start(token)`. Nothing here runs at import time."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from fappo_bot.service.delivery import DeliveryPolicy
from fappo_bot.settings import CannotStart, Settings

if TYPE_CHECKING:
    import discord

    from fappo_bot.discord.bot import FappoBot

log = logging.getLogger("fappo_bot.discord")

#: the bot permissions of docs/discord.md, step 2 (discord.Permissions' names), which the invite
#: URL of the ready line asks for
INVITE_PERMISSIONS = ("view_channel", "send_messages", "send_messages_in_threads",
                      "read_message_history", "embed_links")
#: the OAuth2 scopes of the invite: the bot itself and its slash commands
INVITE_SCOPES = ("bot", "applications.commands")
#: the signals that stop the bot cleanly (SIGTERM: `docker stop`, systemd; SIGINT: Ctrl-C)
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

NO_TOKEN = (
    "No Discord bot token: set FAPPO_DISCORD__TOKEN (or token under [discord] in the config "
    "file); docs/discord.md says where to find it."
)
TOKEN_REJECTED = (
    "Discord rejected the bot token: copy it again from the Developer Portal (your application "
    "> Bot > Reset Token) into FAPPO_DISCORD__TOKEN."
)
NO_INTENT = (
    "Discord refused the message content intent: turn on \"Message Content Intent\" under "
    "Bot > Privileged Gateway Intents in the Developer Portal, then start the bot again."
)


class StartupError(CannotStart):
    """The bot cannot start; `str()` is one sentence saying what to do."""


def unreachable(settings: Settings, exc: BaseException) -> str:
    """The sentence for a Discord the bot cannot reach at its first request."""
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return (f"Cannot reach Discord at {settings.discord.api_base} ({reason}): check this "
            f"machine's network and DNS, or discord.api_base (FAPPO_DISCORD__API_BASE) when "
            f"the bot runs behind a proxy.")


def invite_url(application_id: int) -> str:
    """The URL that invites the bot to a server with the permissions of docs/discord.md."""
    import discord

    permissions = discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS, True))
    return discord.utils.oauth_url(application_id, permissions=permissions,
                                   scopes=INVITE_SCOPES)


def ready_line(bot: discord.Client) -> str:
    """The one line that says the bot is up: as whom, in which guilds, its commands, and the
    invite URL."""
    guilds = sorted(bot.guilds, key=lambda g: g.name.casefold())
    names = ", ".join(g.name for g in guilds[:5]) + (
        f" and {len(guilds) - 5} more" if len(guilds) > 5 else "")
    count = getattr(bot, "command_count", 0)
    published = "published" if getattr(bot, "commands_published", True) else "unchanged"
    user = f"{bot.user} ({bot.user.id})" if bot.user else "the bot"
    return (f"Ready as {user} in {len(guilds)} guild{'s' if len(guilds) != 1 else ''}"
            f"{': ' + names if names else ''}; {count} slash commands ({published}); invite: "
            f"{invite_url(bot.application_id or 0)}")


def quiet_start() -> None:
    """A normal start shows the lines an operator needs: alembic's per-migration notes and
    discord.py's warnings about voice (the bot has none) are left out (DEBUG shows alembic's)."""
    from discord import VoiceClient

    VoiceClient.warn_nacl = False
    VoiceClient.warn_dave = False
    if not logging.getLogger().isEnabledFor(logging.DEBUG):
        logging.getLogger("alembic").setLevel(logging.WARNING)


def token_of(settings: Settings) -> str:
    """The bot token from the settings, or `StartupError`."""
    token = settings.discord.token.get_secret_value().strip() if settings.discord.token else ""
    if not token:
        raise StartupError(NO_TOKEN)
    return token


def check_shards(settings: Settings) -> None:
    """`StartupError` when `shard_ids` and `shard_count` do not fit together."""
    ids, count = settings.discord.shard_ids, settings.discord.shard_count
    if count is not None and count < 1:
        raise StartupError(f"shard_count is {count}: it must be 1 or more.")
    if ids is None:
        return
    if count is None:
        raise StartupError("shard_ids is set but shard_count is not: set shard_count (under "
                           "[discord], or FAPPO_DISCORD__SHARD_COUNT) to the total number of "
                           "shards all the processes run.")
    wrong = sorted({i for i in ids if not 0 <= i < count})
    if wrong or not ids:
        raise StartupError(f"shard_ids {ids} must be some of 0 to {count - 1} (shard_count "
                           f"is {count}).")


def delivery_policy(settings: Settings) -> DeliveryPolicy:
    """How the outbox retries a delivery that failed for a passing reason: the configured cap
    and jitter (never given up)."""
    longest = timedelta(seconds=settings.discord.outbox_longest_wait_seconds)
    return DeliveryPolicy(first_wait=min(DeliveryPolicy.first_wait, longest),
                          longest_wait=longest, jitter=settings.discord.outbox_jitter)


def tune_collector() -> None:
    """Once the bot is connected: collect, then freeze what start-up left alive (the modules,
    discord.py's caches, the compiled statements...) out of the cyclic collector's sight
    (`gc.freeze`). A full collection otherwise walks all of it again in one pause of the event
    loop, which made the bot's slowest posts (docs/benchmarks.md, "The bot through a fake
    Discord"). What is made later is collected as before; what was frozen and dies later is
    freed by its reference count, or never when it dies in a cycle (start-up's objects live as
    long as the bot).

    Then every full collection freezes its survivors too (`freeze_survivors`): what outlived
    one (discord.py's message cache, the storage's remembered records, the replies' book) is
    as long-lived, and walking it again in the next one paused the loop as start-up's heap did.
    The full collections that follow walk only what was made since the last."""
    gc.collect()
    gc.freeze()
    if freeze_survivors not in gc.callbacks:
        gc.callbacks.append(freeze_survivors)


class SurvivorFreezer:
    """A collector callback: after a full collection, freeze what it left alive; but after
    every `thaw_every`-th, thaw everything instead, so that the next full collection walks the
    whole heap once and frees what died in a cycle while frozen (an evicted message and its
    reactions refer to each other). Freezing for ever would leak those cycles for as long as
    the bot runs; one whole walk in `thaw_every` full collections bounds that leak."""

    def __init__(self, thaw_every: int = 32) -> None:
        self.thaw_every = thaw_every
        self.full = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        self.full += 1
        if self.full % self.thaw_every == 0:
            gc.unfreeze()
        else:
            gc.freeze()


freeze_survivors = SurvivorFreezer()


async def when_ready(bot: discord.Client, then: Callable[[], None]) -> None:
    """`then()` once the bot is first ready (its guilds and commands loaded)."""
    await bot.wait_until_ready()
    then()


def announce(bot: discord.Client) -> None:
    """Log the ready line."""
    log.info("%s", ready_line(bot))


async def run_bot(settings: Settings, *, ready: Callable[[], None] = tune_collector,
                  stop: asyncio.Event | None = None) -> None:
    """Run the bot until it is stopped; `ready()` once it is first ready (`tune_collector`).
    SIGTERM and SIGINT (or `stop`, set) stop it cleanly (`FappoBot.shut_down`), and it returns.
    `StartupError` when the token is missing or rejected, Discord cannot be reached, or the
    message content intent is not enabled for the application; `StorageUnavailable` when the
    database cannot be opened."""
    import discord

    from fappo_bot.discord.bot import FappoBot
    from fappo_bot.service.facade import Services
    from fappo_bot.storage.engine import DatabaseUrlError, checked_url
    from fappo_bot.storage.opening import open_storage
    from fappo_bot.web.server import campaign_page

    token = token_of(settings)
    check_shards(settings)
    try:
        checked_url(settings.database_url)
    except DatabaseUrlError as exc:
        raise StartupError(str(exc)) from None
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    handled = _on_signals(loop, stop.set)
    try:
        quiet_start()
        async with open_storage(settings) as storage:
            log.info("games are kept in the %s", storage.location)
            services = Services(storage.uow_factory, delivery=delivery_policy(settings))
            async with campaign_page(services, storage.links, settings.web) as web, \
                    FappoBot(services, settings, kept=storage.kept) as bot:
                bot.web = web
                await _run_until_stopped(bot, token, stop, ready, settings)
    except discord.LoginFailure:
        raise StartupError(TOKEN_REJECTED) from None
    except discord.PrivilegedIntentsRequired:
        raise StartupError(NO_INTENT) from None
    finally:
        for number in handled:
            loop.remove_signal_handler(number)


def _on_signals(loop: asyncio.AbstractEventLoop, then: Callable[[], None]) -> list[signal.Signals]:
    """`then()` at SIGTERM or SIGINT; the signals handled. None off the main thread (a loop
    there cannot take signals: whoever runs it stops the bot by its `stop` event)."""
    handled = []
    for number in STOP_SIGNALS:
        try:
            loop.add_signal_handler(number, then)
        except (ValueError, RuntimeError, NotImplementedError):
            break
        handled.append(number)
    return handled


async def _run_until_stopped(bot: FappoBot, token: str, stop: asyncio.Event,
                             ready: Callable[[], None], settings: Settings) -> None:
    """`bot.start(token)` until it ends or `stop` is set. An error before the bot was first
    ready goes up (the caller says it in one sentence); once it has been ready, discord.py
    reconnects by itself, and what still escapes is raised as it is."""
    def on_ready() -> None:
        announce(bot)
        ready()

    import aiohttp

    if stop.is_set():  # stopped while the database was opened: never log in
        return
    tuning = asyncio.create_task(when_ready(bot, on_ready))
    running = asyncio.create_task(bot.start(token))
    stopping = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping.done() and not running.done():
            log.info("stopping: no new events; waiting for those in flight")
            await bot.shut_down()
            try:  # stopped while logging in, the login's request fails on the closed session
                await running
            except Exception:
                log.debug("the start ended by the stop", exc_info=True)
            log.info("stopped")
            return
        try:
            await running
        except (OSError, aiohttp.ClientError) as exc:
            if tuning.done():
                raise
            raise StartupError(unreachable(settings, exc)) from None
    finally:
        tuning.cancel()
        stopping.cancel()
