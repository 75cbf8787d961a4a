"""Typed settings, read once in the composition root (never at import time).

Sources, lowest priority first: built-in defaults, a TOML file (`--config`, else
`$FAPPO_CONFIG`, else `./config.toml` when present), then environment variables prefixed
`FAPPO_` (nested with `__`, e.g. `FAPPO_DISCORD__TOKEN`).

`load_settings` refuses what would otherwise be dropped in silence or shown as pydantic's dump: a
config file that is missing, a directory or not TOML, a key of the file or a `FAPPO_` variable
that names no setting (with the nearest one that does), a value of the wrong type. Each is a
`ConfigError`, one sentence a problem.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic import BaseModel, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)
from pydantic_settings import SettingsError as SourceError

from fappo_bot.spelling import nearest


class CannotStart(Exception):
    """A command cannot start with what the operator gave it; `str()` is one sentence a line,
    each saying what is wrong and what to do. `fappo-bot` prints each line and exits 2."""


class ConfigError(CannotStart):
    """The settings (config file or `FAPPO_` environment) cannot be used."""


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
    #: the turn board: one message per game room, pinned where the bot may pin, edited in
    #: place as the turn goes (docs/discord.md)
    turn_board: bool = True
    #: the least time between two refreshes of one room's board, in seconds: a busy room's
    #: posts (several a second) come to one read of its turn and at most one edit a period,
    #: within Discord's limit on a room's message edits (5 in 5 s); a board shows a post within
    #: it, and the first change after a quiet period at once
    turn_board_period_seconds: float = Field(default=2.0, ge=0)


class TurnSettings(BaseModel):
    """Defaults for new games' turn handling."""

    #: reminders before a call-time deadline, in minutes: a new game's (a GM changes a game's
    #: with `/game set name:reminders`)
    reminders_minutes: list[int] = Field(default_factory=lambda: [60 * 12, 60])
    #: how often the deadline scheduler wakes, in seconds
    scheduler_interval_seconds: float = 30.0


class WebSettings(BaseModel):
    """The campaign page (`fappo_bot/web/`, docs/discord.md "The campaign page"): off unless a
    port is set; served by the bot's process, or alone by `fappo-bot web`."""

    #: the port to listen on; None: no campaign page
    port: int | None = Field(default=None, ge=1, le=65535)
    #: the address to listen on (a reverse proxy in front for anything but this machine)
    host: str = "127.0.0.1"
    #: the address the links start with, as readers reach it (e.g. https://fappo.example.org);
    #: unset: http://host:port
    public_url: str | None = None

    def base_url(self) -> str:
        """What a link starts with (no trailing slash); with no port set (the local table's
        links, for a `fappo-bot web` still to start), 8080's."""
        if self.public_url:
            return self.public_url.rstrip("/")
        return f"http://{self.host}:{self.port or 8080}"


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

ENV_PREFIX = "FAPPO_"
#: variables with the prefix that are no setting: read elsewhere in the program, or by the
#: tests and benchmarks of a checkout (a developer's shell may carry them)
OTHER_VARIABLES = frozenset({
    "FAPPO_CONFIG", "FAPPO_MIGRATIONS_DIR", "FAPPO_SHARED", "FAPPO_TEST_PG_URL",
    "FAPPO_BENCH_PG_URL", "FAPPO_UPDATE_GOLDEN", "FAPPO_CRASH_AT", "FAPPO_CRASH_SEED",
    "FAPPO_HOLD_AT",
})


class Settings(BaseSettings):
    """All settings of one bot process."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="ignore"
    )

    data_dir: Path = Path("data")
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    turns: TurnSettings = Field(default_factory=TurnSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    log_level: str = "INFO"

    @field_validator("log_level")
    @classmethod
    def _a_logging_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"it must be one of {', '.join(LOG_LEVELS[:-1])} or "
                             f"{LOG_LEVELS[-1]}")
        return level

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
    return default if default.is_file() else None


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Build the settings once, from `config_file` (if given, else `$FAPPO_CONFIG`, else
    `./config.toml` when there), the environment and defaults; `ConfigError` when they cannot
    be used."""
    path: Path | None = None
    given_by = ""
    if config_file is not None:
        path, given_by = config_file, "--config"
    elif os.environ.get("FAPPO_CONFIG"):
        path, given_by = Path(os.environ["FAPPO_CONFIG"]), "FAPPO_CONFIG"
    elif Path("config.toml").is_file():
        path = Path("config.toml")
    problems: list[str] = []
    if path is not None:
        problems += _file_problems(path, given_by)
    problems += _environment_problems(os.environ)
    if problems:
        raise ConfigError("\n".join(problems))
    if path is not None:
        _CONFIG_OVERRIDE.append(path)
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise ConfigError("\n".join(_type_problems(exc, path, os.environ))) from None
    except SourceError as exc:
        raise ConfigError(f"A FAPPO_ environment variable could not be read ({exc}): lists are "
                          f"written as JSON, e.g. FAPPO_DISCORD__DEV_GUILDS='[1, 2]'.") from None
    finally:
        if path is not None:
            _CONFIG_OVERRIDE.pop()


def _file_problems(path: Path, given_by: str) -> list[str]:
    """What is wrong with the config file: missing, a directory, not TOML, unknown keys."""
    by = f" (given by {given_by})" if given_by else ""
    if path.is_dir():
        return [f"The config file {path}{by} is a directory: name a TOML file such as "
                f"config.toml."]
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [f"The config file {path}{by} does not exist: check the path, or copy "
                f"config.example.toml there."]
    except (OSError, UnicodeDecodeError) as exc:
        return [f"The config file {path}{by} cannot be read: {_reason(exc)}."]
    except tomllib.TOMLDecodeError as exc:
        return [f"The config file {path} is not valid TOML: {exc}."]
    return [f"The config file {path} {problem}" for problem in _unknown_keys(data, Settings, ())]


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _section(annotation: Any) -> type[BaseModel] | None:
    """The model of a field that is a section of its own (`[discord]`), else None."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _unknown_keys(data: Mapping[str, Any], model: type[BaseModel],
                  where: tuple[str, ...]) -> Iterator[str]:
    fields = model.model_fields
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            yield _unknown_key(key, isinstance(value, dict), list(fields), where)
            continue
        section = _section(field.annotation)
        if section is not None and isinstance(value, dict):
            yield from _unknown_keys(value, section, (*where, key))


#: settings an earlier version took, with what replaced them: named as such, not as a typo
RETIRED = {
    "discord.outbox_max_attempts": (
        "is no longer used: a message is now tried until Discord takes it or refuses it for "
        "good; remove it (discord.outbox_longest_wait_seconds caps the wait between tries)"),
}


def _unknown_key(key: str, is_table: bool, known: list[str], where: tuple[str, ...]) -> str:
    retired = RETIRED.get(".".join((*where, key)))
    if retired is not None:
        return f"has the setting {'.'.join((*where, key))}, which {retired}."
    under = f" under [{'.'.join(where)}]" if where else ""
    shown = f"[{'.'.join((*where, key))}]" if is_table else key
    what = "section" if is_table else "setting"
    near = nearest(key, known, 1)
    if near:
        hint = f"did you mean {'[' + '.'.join((*where, near[0])) + ']' if is_table else near[0]}?"
    else:
        hint = f"the settings{under or ' at the top'} are {', '.join(known)}."
    return f"has an unknown {what} {shown}{'' if is_table else under}: {hint}"


def _environment_names(model: type[BaseModel], prefix: str) -> Iterator[tuple[str, Any]]:
    """Each environment variable that sets a field, with the field's annotation."""
    for name, field in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        yield variable, field.annotation
        section = _section(field.annotation)
        if section is not None:
            yield from _environment_names(section, f"{variable}__")


def _environment_problems(environ: Mapping[str, str]) -> list[str]:
    """The `FAPPO_` variables that name no setting, and the lists that are not JSON."""
    known = dict(_environment_names(Settings, ENV_PREFIX))
    problems = []
    for variable in sorted(environ):
        name = variable.upper()
        if not name.startswith(ENV_PREFIX) or name in OTHER_VARIABLES:
            continue
        retired = next((why for key, why in RETIRED.items()
                        if name == ENV_PREFIX + key.upper().replace(".", "__")), None)
        if retired is not None:
            problems.append(f"The environment variable {variable} {retired}.")
        elif name not in known:
            near = nearest(name, [*known, *OTHER_VARIABLES], 1)
            hint = (f"did you mean {near[0]}?" if near
                    else "docs/discord.md lists the settings.")
            problems.append(f"The environment variable {variable} is no setting of FAPPO Bot: "
                            f"{hint}")
        elif _is_list(known[name]):
            try:
                json.loads(environ[variable])
            except ValueError:
                problems.append(f"The environment variable {variable} is "
                                f"{environ[variable]!r}, not a list: write it as JSON, e.g. "
                                f"{variable}='[1, 2]'.")
    return problems


def _is_list(annotation: Any) -> bool:
    """Whether a field takes a list (`list[int]`, `list[int] | None`): the environment gives it
    as JSON."""
    if annotation is list or get_origin(annotation) is list:
        return True
    return any(_is_list(arg) for arg in get_args(annotation))


def _type_problems(exc: ValidationError, path: Path | None,
                   environ: Mapping[str, str]) -> list[str]:
    """One sentence for each value of the wrong type, naming where it was set."""
    variables = {v.upper() for v in environ}
    problems = []
    for error in exc.errors():
        parts = [str(p) for p in error["loc"] if isinstance(p, str)]
        key = ".".join(parts)
        variable = ENV_PREFIX + "__".join(p.upper() for p in parts)
        if variable in variables:
            source = variable
        elif len(parts) > 1 and ENV_PREFIX + parts[0].upper() in variables:
            source = ENV_PREFIX + parts[0].upper()
        else:
            source = str(path) if path is not None else "the defaults"
        message = str(error["msg"]).removeprefix("Value error, ")
        message = message[:1].lower() + message[1:]
        secret = "token" in parts
        value = "" if secret or error["type"] == "missing" else f" is {error['input']!r}"
        problems.append(f"The setting {key} ({source}){value}: {message}.")
    return problems
