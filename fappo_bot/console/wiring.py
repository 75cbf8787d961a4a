"""The table's composition root for storage: settings from the options, then the database opened
by `fappo_bot.storage.opening` (`play`, `export` and `import` share it, as does the bot)."""

from __future__ import annotations

import argparse

from fappo_bot.settings import DatabaseSettings, Settings, load_settings
from fappo_bot.storage.opening import Storage, open_storage

__all__ = ["Storage", "open_storage", "table_settings"]


def table_settings(args: argparse.Namespace) -> Settings:
    """The settings, with `--data-dir` and `--database-url` applied (they win over the file).
    A database URL the bot cannot use is a `ValueError` saying so in one sentence."""
    from fappo_bot.storage.engine import URL_SETTING, checked_url

    settings = load_settings(getattr(args, "config", None))
    updates: dict[str, object] = {}
    if getattr(args, "data_dir", None) is not None:
        updates["data_dir"] = args.data_dir
    if getattr(args, "database_url", None):
        updates["database"] = DatabaseSettings(url=args.database_url, echo=settings.database.echo)
    settings = settings.model_copy(update=updates) if updates else settings
    checked_url(settings.database_url, "--database-url" if "database" in updates else URL_SETTING)
    return settings
