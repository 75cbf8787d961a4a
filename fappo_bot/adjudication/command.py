"""`fappo-bot adjudicate FILE... [--json] [--case ID]`: check adjudication case files.

Per case `PASS id` or `FAIL id` followed by each differing field (`  path: expected X, got Y`),
then `N passed, N failed` alone on the last line (spec/cases.md). Exit status: 0 when every case
passed, 1 when any failed, 2 when a file could not be read (its message goes to stderr; the
readable files still run). `--json` prints one document with every computed field instead.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The subcommand's arguments."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="case files (YAML)")
    parser.add_argument("--json", action="store_true",
                        help="print every computed field of every case as one JSON document")
    parser.add_argument("--case", action="append", metavar="ID", default=None,
                        help="run only the cases with this id (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Run the cases of every file; see the module doc for the output and exit status."""
    from fappo_bot.adjudication.loader import CaseFileError, load_case_file
    from fappo_bot.adjudication.runner import run_case

    unreadable = False
    outcomes = []
    wanted = {c.casefold() for c in args.case} if args.case else None
    for path in args.files:
        try:
            cases = load_case_file(path)
        except CaseFileError as exc:
            print(f"fappo-bot adjudicate: {exc}", file=sys.stderr)
            unreadable = True
            continue
        for case in cases:
            if wanted is not None and case.id.casefold() not in wanted:
                continue
            outcomes.append(run_case(case))
    if wanted is not None:
        found = {o.id.casefold() for o in outcomes}
        for missing in sorted(wanted - found):
            print(f"fappo-bot adjudicate: no case with the id {missing!r}", file=sys.stderr)
            unreadable = True
    passed = sum(1 for o in outcomes if o.passed)
    failed = len(outcomes) - passed
    try:
        _print(args.json, outcomes, passed, failed)
    except BrokenPipeError:  # the reader stopped early (`| head`): no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    if unreadable:
        return 2
    return 0 if failed == 0 else 1


def _print(as_json: bool, outcomes: list[Any], passed: int, failed: int) -> None:
    if as_json:
        document: dict[str, Any] = {"cases": [o.as_json() for o in outcomes]}
        print(json.dumps(document, indent=2, default=str))
    else:
        for outcome in outcomes:
            print(f"{'PASS' if outcome.passed else 'FAIL'} {outcome.id}")
            if outcome.problem:
                print(f"  {outcome.problem}")
            for difference in outcome.differences:
                print(f"  {difference.line()}")
        print(f"{passed} passed, {failed} failed")
