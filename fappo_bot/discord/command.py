"""`fappo-bot run`: the Discord bot. discord.py and SQLAlchemy are imported inside `run`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `fappo-bot run`."""
    parser.add_argument(
        "--config", type=Path, default=None, help="settings file (TOML); default: config.toml"
    )


def run(args: argparse.Namespace) -> int:
    """Run the bot until it is stopped; 2 when it cannot start (token, intents, settings)."""
    import asyncio
    import logging

    from fappo_bot.discord.startup import StartupError, run_bot
    from fappo_bot.settings import load_settings

    try:
        settings = load_settings(args.config)
    except (FileNotFoundError, ValueError) as exc:
        print(f"fappo-bot run: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        asyncio.run(run_bot(settings))
    except StartupError as exc:
        print(f"fappo-bot run: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
