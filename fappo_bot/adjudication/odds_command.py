"""`fappo-bot odds POOL [SL] [--need N] [--not-heroic] [--exact] [--json]`: the exact odds of an
Xp roll (RULINGS X0, X3, X4, X5), for example `fappo-bot odds 6d superior`.

Every figure is computed exactly (`rules_xp.odds`), never sampled: the distribution of successes
and of net successes (0 on a fumble), and the chances of success, failure, fumble and exposures.
Heroic bonus dice are included unless `--not-heroic` (an NPC's roll, X5 Amb-2).
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The subcommand's arguments."""
    parser.add_argument("pool", help="dice in the pool: 6, 6d or 6d6")
    parser.add_argument("sl", nargs="?", default="normal",
                        help="superiority level: hopeless, weak, poor, normal (default), "
                             "advantage, superior, dominant, or a number (4 and up: above "
                             "Dominant)")
    parser.add_argument("--need", type=int, default=1, help="successes needed (default 1)")
    parser.add_argument("--not-heroic", action="store_true",
                        help="no bonus dice on natural 6s (an NPC's roll)")
    parser.add_argument("--exact", action="store_true",
                        help="print every probability as an exact fraction")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    """Print the odds; a bad pool, level or need is one sentence on stderr and exit status 2.
    The pool and level are read by `rules_xp.notation` and the table drawn by `render_xp`, as
    at the local table and on the bot."""
    from fappo_bot.render_xp import render_odds
    from fappo_bot.rules_xp.errors import XpError
    from fappo_bot.rules_xp.notation import parse_level, parse_pool
    from fappo_bot.rules_xp.odds import odds

    try:
        pool = parse_pool(args.pool)
        level = parse_level(args.sl)
        result = odds(pool, level, heroic=not args.not_heroic, need=args.need)
    except XpError as exc:
        print(f"fappo-bot odds: {exc}", file=sys.stderr)
        return 2
    if args.json:
        figures: dict[str, Any] = {
            "pool": pool, "sl": level, "heroic": not args.not_heroic, "need": args.need,
            "success": result.success, "failure": result.failure, "fumble": result.fumble,
            "exposed": result.exposed, "mean_successes": result.mean_successes,
            "successes": result.successes, "net": result.net, "exposures": result.exposures,
        }
        print(json.dumps(_jsonable(figures), indent=2))
        return 0
    print(render_odds(result, level, exact=args.exact))
    return 0


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value
