"""The one entry point, `fappo-bot`, and its subcommands.

This is the composition root's front door: nothing is built at import time. Each subcommand lives
in its own module, which exposes `add_arguments(parser)` and `run(args) -> int`; the module is
imported only when its subcommand runs, so `fappo-bot adjudicate` never loads discord.py or
SQLAlchemy.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "adjudicate": ("fappo_bot.adjudication.command", "check adjudication case files"),
    "parse": ("fappo_bot.adjudication.parse_command", "parse a turn post into orders (JSON)"),
    "odds": ("fappo_bot.adjudication.odds_command", "exact odds of an Xp dice-pool roll"),
    "migrate": ("fappo_bot.storage.command", "upgrade the database to the newest schema"),
    "play": ("fappo_bot.console.command", "play a game at the local terminal table"),
    "run": ("fappo_bot.discord.command", "run the Discord bot"),
    "web": ("fappo_bot.web.command", "serve the campaign pages alone (no Discord)"),
    "export": ("fappo_bot.console.transfer_command", "export a game as JSON"),
    "import": ("fappo_bot.console.import_command", "import a game exported as JSON"),
}


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, object]]:
    """The argument parser, with every subcommand whose module is installed. With `only` (a
    subcommand's name), only that subcommand's module is imported and given its arguments; the
    others are listed with their help, their modules left unread (each import is paid at every
    start of every command)."""
    parser = argparse.ArgumentParser(
        prog="fappo-bot", description="FAPPO Bot: play-by-post FAPPO games."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, object] = {}
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text, description=help_text)
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # not built yet in this checkout
            raise
        modules[name] = module
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(sub_parser)
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; returns the process exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser, modules = build_parser(words[0] if words and words[0] in SUBCOMMANDS else None)
    args = parser.parse_args(words)
    if args.command is None:
        parser.print_help()
        return 2
    module = modules[args.command]
    try:
        code: int = module.run(args)  # type: ignore[attr-defined]
    except Exception as exc:
        from fappo_bot.settings import CannotStart

        if not isinstance(exc, CannotStart):
            raise
        say(args.command, exc)
        return 2
    return code


def say(command: str, problem: BaseException) -> None:
    """What stops `command`, on standard error: one sentence a line, each after the command's
    name (never a traceback)."""
    for line in str(problem).splitlines() or [type(problem).__name__]:
        print(f"fappo-bot {command}: {line}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
