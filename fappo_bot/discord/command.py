"""`fappo-bot run`: the Discord bot. discord.py and SQLAlchemy are imported inside `run`."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `fappo-bot run`."""
    parser.add_argument(
        "--config", type=Path, default=None, help="settings file (TOML); default: config.toml"
    )


def run(args: argparse.Namespace) -> int:
    """Run the bot until it is stopped (SIGTERM or SIGINT: 0). What keeps it from starting
    (settings, token, intents, Discord or the database out of reach) is a `CannotStart`, which
    `fappo-bot` says in one sentence with exit status 2."""
    import asyncio
    import logging

    from fappo_bot.discord.startup import run_bot
    from fappo_bot.settings import load_settings

    settings = load_settings(args.config)
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        asyncio.run(run_bot(settings))
    except KeyboardInterrupt:  # a second Ctrl-C while stopping
        return 130
    return 0
