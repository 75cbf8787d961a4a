"""Typed settings, read once in the composition root (never at import time).

Sources, lowest priority first: built-in defaults, a TOML file (`--config`, else
`$FAPPO_CONFIG`, else `./config.toml` when present), then environment variables prefixed
`FAPPO_` (nested with `__`, e.g. `FAPPO_DISCORD__TOKEN`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)


class DatabaseSettings(BaseModel):
    """Where games are kept. No URL: SQLite in the data directory (embedded, nothing to set up)."""

    url: str | None = None
    echo: bool = False


DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"
PLURALKIT_APP = 466378653216014359
TUPPERBOX_APP = 431544605209788416


class DiscordSettings(BaseModel):
    """The Discord adapter's settings."""

    token: SecretStr | None = None
    #: the REST API's base URL and the gateway's URL: Discord's, unless the bot runs behind an
    #: HTTP proxy or against a local fake (the tests do)
    api_base: str = DISCORD_API_BASE
    gateway_url: str = DISCORD_GATEWAY
    #: guild ids to sync slash commands to at once (global sync takes up to an hour)
    dev_guilds: list[int] = Field(default_factory=list)
    #: the shard ids this process runs, and the total; None lets discord.py decide
    shard_ids: list[int] | None = None
    shard_count: int | None = None
    #: how often the outbox is delivered when nothing wakes it, in seconds
    outbox_interval_seconds: float = 5.0
    #: the longest wait between two attempts at an outbox message Discord did not take for
    #: a passing reason (a rate limit, an outage), in seconds: it is tried until it goes
    outbox_longest_wait_seconds: float = Field(default=1800.0, gt=0)
    #: the share of each such wait drawn at random (0: none, 1: anywhere from 0 to all of it),
    #: so that messages held back by one outage do not all come back at once
    outbox_jitter: float = Field(default=0.5, ge=0, le=1)
    #: the application ids of the proxy apps whose webhook posts count in games with proxy
    #: posts on (docs/discord.md): PluralKit and Tupperbox
    proxy_apps: list[int] = Field(default_factory=lambda: [PLURALKIT_APP, TUPPERBOX_APP])
    #: how long a member's post in a proxy game waits before it is handled, in seconds (a proxy
    #: app deletes the original within about a second and posts it again)
    proxy_grace_seconds: float = Field(default=2.0, ge=0)


class TurnSettings(BaseModel):
    """Defaults for new games' turn handling."""

    #: reminders before a call-time deadline, in minutes: a new game's (a GM changes a game's
    #: with `/game set name:reminders`)
    reminders_minutes: list[int] = Field(default_factory=lambda: [60 * 12, 60])
    #: how often the deadline scheduler wakes, in seconds
    scheduler_interval_seconds: float = 30.0


class Settings(BaseSettings):
    """All settings of one bot process."""

    model_config = SettingsConfigDict(
        env_prefix="FAPPO_", env_nested_delimiter="__", extra="ignore"
    )

    data_dir: Path = Path("data")
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    turns: TurnSettings = Field(default_factory=TurnSettings)
    log_level: str = "INFO"

    @property
    def database_url(self) -> str:
        """The SQLAlchemy async URL: the configured one, else the embedded SQLite file."""
        if self.database.url:
            return self.database.url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'fappo.sqlite3').as_posix()}"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml_file = _config_path()
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if toml_file is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_file))
        return tuple(sources)


_CONFIG_OVERRIDE: list[Path] = []


def _config_path() -> Path | None:
    if _CONFIG_OVERRIDE:
        return _CONFIG_OVERRIDE[-1]
    env = os.environ.get("FAPPO_CONFIG")
    if env:
        return Path(env)
    default = Path("config.toml")
    return default if default.exists() else None


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Build the settings once, from `config_file` (if given), the environment and defaults."""
    if config_file is not None:
        if not config_file.exists():
            raise FileNotFoundError(f"config file not found: {config_file}")
        _CONFIG_OVERRIDE.append(config_file)
    try:
        return Settings(**overrides)
    finally:
        if config_file is not None:
            _CONFIG_OVERRIDE.pop()
