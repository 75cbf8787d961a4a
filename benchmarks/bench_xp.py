"""The Xp dice-pool rules: exact odds for every pool and level, and rolls per second against the
`d20` dice library, side by side in one run.

1. Exact odds (`rules_xp.odds`) for pools of 1 to 30 dice at every superiority level (Hopeless to
   Dominant, and above Dominant), heroic and not, with every figure (success, fumble, exposures,
   the distributions) computed. Goals: each under 10 ms, the whole table under 1 s.
2. Rolls per second: our `roll` of a plain pool (non-heroic, Normal: faces drawn from a seeded
   `random.Random`, then successes, 1s, fumble and exposures counted) against `d20.roll("6d6")`
   rolling the equivalent plain pool (faces and their total), the two timed in alternation in the
   same process. Goal: ahead of d20. The heroic roll is shown beside it.

Run: `.venv/bin/python benchmarks/bench_xp.py [--repeat N] [--rolls N] [--pool 6] [--smoke]`
(`pip install -e .[bench]` brings d20).
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from fappo_bot.rules_xp.dice import RandomDice
from fappo_bot.rules_xp.odds import odds
from fappo_bot.rules_xp.roll import roll

LEVELS = (-3, -2, -1, 0, 1, 2, 3, 4)
ODDS_EACH_MS, ODDS_TABLE_S = 10.0, 1.0


def machine_speed() -> str:
    """A calibration line: the same loop as the other benchmarks print."""
    start = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i
    return f"machine: a 1,000,000-step Python loop takes {(time.perf_counter() - start) * 1e3:.0f} ms"


def one_odds(pool: int, sl: int, heroic: bool) -> None:
    result = odds(pool, sl, heroic=heroic)
    _ = (result.success, result.failure, result.fumble, result.exposed, result.successes,
         result.net, result.exposures, result.mean_successes)


def bench_odds(repeat: int) -> tuple[float, tuple[int, int, bool], float]:
    """(slowest single computation in ms and which, whole table in s), each the best of `repeat`."""
    best: dict[tuple[int, int, bool], float] = {}
    tables = []
    for _ in range(repeat):
        table_start = time.perf_counter()
        for pool in range(1, 31):
            for sl in LEVELS:
                for heroic in (False, True):
                    start = time.perf_counter()
                    one_odds(pool, sl, heroic)
                    took = time.perf_counter() - start
                    key = (pool, sl, heroic)
                    best[key] = min(best.get(key, took), took)
        tables.append(time.perf_counter() - table_start)
    worst = max(best, key=lambda k: best[k])
    return best[worst] * 1e3, worst, min(tables)


def _ours(pool: int, heroic: bool, n: int) -> float:
    dice = RandomDice(random.Random(2026))
    start = time.perf_counter()
    for _ in range(n):
        roll(pool, 0, heroic=heroic, dice=dice)
    return n / (time.perf_counter() - start)


def _d20(expression: str, n: int) -> float:
    import d20

    random.seed(2026)  # d20 draws from the module's generator
    start = time.perf_counter()
    for _ in range(n):
        d20.roll(expression)
    return n / (time.perf_counter() - start)


def bench_rolls(pool: int, n: int, repeat: int) -> dict[str, float]:
    """Best rolls per second of each contender, timed in alternation."""
    best: dict[str, float] = {}
    for _ in range(repeat):
        for name, run in (("ours, plain", lambda: _ours(pool, False, n)),
                          (f"d20 {pool}d6", lambda: _d20(f"{pool}d6", n)),
                          ("ours, heroic", lambda: _ours(pool, True, n))):
            best[name] = max(best.get(name, 0.0), run())
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="best of N runs (default 5)")
    parser.add_argument("--rolls", type=int, default=20_000, help="rolls per timing (20,000)")
    parser.add_argument("--pool", type=int, default=6, help="dice in the rolled pool (6)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args()
    if args.smoke:
        args.repeat, args.rolls = 1, 100
    gc.collect()
    print(machine_speed())
    each_ms, worst, table_s = bench_odds(args.repeat)
    pool, sl, heroic = worst
    print(f"exact odds, pools 1-30 x {len(LEVELS)} levels x heroic/plain "
          f"({30 * len(LEVELS) * 2} tables): whole table {table_s * 1e3:.0f} ms "
          f"(goal < {ODDS_TABLE_S * 1e3:.0f} ms: {'met' if table_s < ODDS_TABLE_S else 'MISSED'}); "
          f"slowest {each_ms:.2f} ms ({pool}d at SL {sl:+d}, {'heroic' if heroic else 'plain'}; "
          f"goal < {ODDS_EACH_MS:.0f} ms: {'met' if each_ms < ODDS_EACH_MS else 'MISSED'})")
    try:
        import d20  # noqa: F401
    except ImportError:
        print("rolls per second: d20 is not installed (pip install -e .[bench]); skipped")
        return
    rates = bench_rolls(args.pool, args.rolls, args.repeat)
    for name, rate in rates.items():
        print(f"rolls per second, {args.pool} dice, {name}: {rate:,.0f}")
    ours, theirs = rates["ours, plain"], rates[f"d20 {args.pool}d6"]
    print(f"ours / d20 = {ours / theirs:.1f}x (goal: ahead of d20: "
          f"{'met' if ours > theirs else 'MISSED'})")


if __name__ == "__main__":
    main()
