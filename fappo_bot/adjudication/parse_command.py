"""`fappo-bot parse --sheet FILE POSTFILE [--poster NAME|gm]`: a post as orders (spec/cases.md).

The characters (and pending hits) come from the first case of the case file FILE. The orders are
printed as JSON in the `orders` schema of spec/cases.md: `{"orders": [...]}`. A post with problems
prints `{"errors": [{"line", "code", "message"}]}` (and each problem on stderr) and exits 1;
nothing of such a post is recorded (spec/posting.md). Unreadable files exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The subcommand's arguments."""
    parser.add_argument("--sheet", required=True, metavar="FILE",
                        help="a case file; its first case's characters are the game's")
    parser.add_argument("postfile", metavar="POSTFILE", help="the post's text ('-' for stdin)")
    parser.add_argument("--poster", metavar="NAME|gm", default=None,
                        help="who posts: a character's name, or gm (default: the case's poster, "
                             "else its only character)")


def _fail(message: str) -> int:
    print(f"fappo-bot parse: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Parse the post; see the module doc for the output and exit status."""
    from fappo_bot.adjudication.loader import (
        BadCase,
        CaseFileError,
        ParseCase,
        SheetCase,
        SpellCase,
        load_case_file,
    )
    from fappo_bot.adjudication.runner import parse_result
    from fappo_bot.adjudication.xp_case import XpCase

    try:
        cases = load_case_file(args.sheet)
    except CaseFileError as exc:
        return _fail(str(exc))
    if not cases:
        return _fail(f"{args.sheet}: the file has no cases")
    first = cases[0]
    if isinstance(first, BadCase):
        return _fail(f"{args.sheet}: case {first.id!r} is malformed: {first.problem}")
    if isinstance(first, SheetCase | SpellCase | XpCase) or not first.characters:
        return _fail(f"{args.sheet}: the first case ({first.id}) has no characters")
    try:
        if args.postfile == "-":
            text = sys.stdin.read()
        else:
            with open(args.postfile, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"{args.postfile}: cannot read it ({exc})")
    poster = args.poster or (first.poster if isinstance(first, ParseCase) else None)
    if poster is None:
        if len(first.characters) != 1:
            names = ", ".join(c.name for c in first.characters)
            return _fail(f"say who posts with --poster (one of {names}, or gm)")
        poster = first.characters[0].name
    if poster.strip().casefold() == "gm":
        poster = "gm"
    else:
        match = next((c for c in first.characters if c.name.casefold() == poster.casefold()),
                     None)
        if match is None:
            names = ", ".join(c.name for c in first.characters)
            return _fail(f"no character called {poster!r} in {args.sheet} (characters: {names})")
        poster = match.name
    pending = getattr(first, "pending", ())
    case = ParseCase(id=first.id, characters=first.characters, pending=pending,
                     config=first.config, poster=poster, post=text)
    result = parse_result(case)
    if result["errors"]:
        print(json.dumps({"errors": result["errors"]}, indent=2))
        for error in result["errors"]:
            print(f"line {error['line']}: {error['message']} ({error['code']})", file=sys.stderr)
        return 1
    print(json.dumps({"orders": result["orders"]}, indent=2))
    return 0
