"""`fappo-bot play`: the local table (a whole FAPPO game in the terminal, no Discord needed).

Heavy imports (SQLAlchemy, rich) happen inside `run`, so building the CLI stays cheap.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fappo_bot.console.example import EXAMPLES


def add_database_arguments(parser: argparse.ArgumentParser) -> None:
    """`--config`, `--data-dir`, `--database-url` (shared by play, export and import)."""
    parser.add_argument(
        "--config", type=Path, default=None, help="settings file (TOML); default: config.toml"
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where the SQLite database lives (default: the settings' data_dir, ./data)",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="a database URL instead of the SQLite file, e.g. postgresql+asyncpg://user@host/db",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `fappo-bot play`."""
    parser.add_argument(
        "--script",
        type=Path,
        default=None,
        metavar="FILE",
        help="replay a transcript non-interactively, showing what each seat sees; "
        "exit 1 when an ?expect assertion fails",
    )
    parser.add_argument(
        "-i",
        "--interactive",
        action="store_true",
        help="after --script, go on playing the same game interactively",
    )
    parser.add_argument(
        "--example",
        nargs="?",
        const="adventure",
        default=None,
        choices=sorted(EXAMPLES),
        metavar="NAME",
        help="replay an example adventure and go on interactively: adventure (FAPPO, the "
        "default) or xp-adventure (the Xp dice pools)",
    )
    parser.add_argument(
        "--game", default=None, help="sit down at an existing game (its id, channel or name)"
    )
    parser.add_argument("--seat", default="gm", help="the seat to start in (default: gm)")
    parser.add_argument(
        "--width", type=int, default=None, help="screen width for the layout (default: terminal)"
    )
    parser.add_argument("--no-color", action="store_true", help="plain text, no colour")
    add_database_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Play at the local table; returns the exit code (1: a failed assertion or step)."""
    import asyncio

    from fappo_bot.console.app import play

    try:
        return asyncio.run(play(args))
    except KeyboardInterrupt:
        return 130
