"""The composition root of the bot, in the shape of discord.py's `examples/advanced_startup.py`:
settings -> storage (upgraded) -> `Services` -> `FappoBot` -> `async with bot: await
bot.start(token)`. Nothing here runs at import time."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from fappo_bot.service.delivery import DeliveryPolicy
from fappo_bot.settings import Settings

if TYPE_CHECKING:
    import discord

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


class StartupError(Exception):
    """The bot cannot start; `str()` is one sentence saying what to do."""


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


def point_at(settings: Settings) -> None:
    """Aim discord.py's REST routes and gateway at the configured URLs (Discord's by default)."""
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = settings.discord.api_base.rstrip("/")
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord.gateway_url)


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
    long as the bot)."""
    gc.collect()
    gc.freeze()


async def when_ready(bot: discord.Client, then: Callable[[], None]) -> None:
    """`then()` once the bot is first ready (its guilds and commands loaded)."""
    await bot.wait_until_ready()
    then()


async def run_bot(settings: Settings, *, ready: Callable[[], None] = tune_collector) -> None:
    """Run the bot until it is closed; `ready()` once it is first ready (`tune_collector`).
    `StartupError` when the token is missing or rejected, or when the message content intent
    is not enabled for the application."""
    import discord

    from fappo_bot.discord.bot import FappoBot
    from fappo_bot.service.facade import Services
    from fappo_bot.storage.engine import DatabaseUrlError, checked_url
    from fappo_bot.storage.opening import open_storage

    token = token_of(settings)
    check_shards(settings)
    try:
        checked_url(settings.database_url)
    except DatabaseUrlError as exc:
        raise StartupError(str(exc)) from None
    point_at(settings)
    async with open_storage(settings) as storage:
        services = Services(storage.uow_factory, delivery=delivery_policy(settings))
        try:
            async with FappoBot(services, settings) as bot:
                tuning = asyncio.create_task(when_ready(bot, ready))
                try:
                    await bot.start(token)
                finally:
                    tuning.cancel()
        except discord.LoginFailure:
            raise StartupError(TOKEN_REJECTED) from None
        except discord.PrivilegedIntentsRequired:
            raise StartupError(NO_INTENT) from None
