"""`fappo-bot odds POOL [SL] [--need N] [--not-heroic] [--exact] [--json]`: the exact odds of an
Xp roll (RULINGS X0, X3, X4, X5), for example `fappo-bot odds 6d superior`.

Every figure is computed exactly (`rules_xp.odds`), never sampled: the distribution of successes
and of net successes (0 on a fumble), and the chances of success, failure, fumble and exposures.
Heroic bonus dice are included unless `--not-heroic` (an NPC's roll, X5 Amb-2).
"""

from __future__ import annotations

import argparse
import json
import re
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


def _pool(text: str) -> int:
    match = re.fullmatch(r"\s*(-?\d+)\s*(?:d\s*6?)?\s*", text, re.IGNORECASE)
    if match is None:
        raise ValueError(f"the pool {text!r} is not a number of dice (for example 6, 6d or 6d6)")
    return int(match.group(1))


def run(args: argparse.Namespace) -> int:
    """Print the odds; a bad pool, level or need is one sentence on stderr and exit status 2."""
    from fappo_bot.rules_xp.errors import XpError
    from fappo_bot.rules_xp.odds import odds
    from fappo_bot.rules_xp.roll import target_label
    from fappo_bot.rules_xp.tables import sl_name, sl_named

    try:
        pool = _pool(args.pool)
        level = int(args.sl) if re.fullmatch(r"[+-]?\d+", args.sl.strip()) else sl_named(args.sl)
        if pool > 200:
            raise ValueError("pools above 200 dice are not computed")
        result = odds(pool, level, heroic=not args.not_heroic, need=args.need)
    except (ValueError, XpError) as exc:
        print(f"fappo-bot odds: {exc}", file=sys.stderr)
        return 2
    heroic = "heroic" if not args.not_heroic else "not heroic"
    title = (f"{pool}d at {sl_name(level).title()} ({target_label(result.sl)}), {heroic}, "
             f"need {args.need}")
    figures: dict[str, Any] = {
        "pool": pool, "sl": level, "heroic": not args.not_heroic, "need": args.need,
        "success": result.success, "failure": result.failure, "fumble": result.fumble,
        "exposed": result.exposed, "mean_successes": result.mean_successes,
        "successes": result.successes, "net": result.net, "exposures": result.exposures,
    }
    if args.json:
        print(json.dumps(_jsonable(figures), indent=2))
        return 0
    show = (lambda p: f"{_percent(p)}  ({p})") if args.exact else _percent
    print(title)
    print(f"{'successes':>9}  {'exactly':>9}  {'at least':>9}  {'net':>9}")
    at_least = Fraction(1)
    for count, p in enumerate(result.successes):
        net = result.net[count] if count < len(result.net) else Fraction(0)
        line = f"{count:>9}  {_percent(p):>9}  {_percent(at_least):>9}  {_percent(net):>9}"
        if args.exact:
            line += f"  {p}"
        print(line)
        at_least -= p
    print(f"success: {show(result.success)}")
    print(f"failure: {show(result.failure)}")
    print(f"fumble (more 1s than successes): {show(result.fumble)}")
    print(f"at least one exposure: {show(result.exposed)}")
    print(f"expected successes: {float(result.mean_successes):.3f}")
    return 0


def _percent(p: Fraction) -> str:
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    return f"{value:.4f}%" if value < 0.01 else f"{value:.2f}%"


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value
