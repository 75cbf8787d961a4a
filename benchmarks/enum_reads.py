"""Where reading enum members through module aliases pays, by module (docs/benchmarks.md).

On Python 3.11, `ActionKind.MOVE` goes through the enum metaclass's `__getattr__` hook even though
the member sits in the class: a read costs about twenty times a read of a module global such as
`_MOVE = ActionKind.MOVE`. A module keeps such aliases only where a benchmark's workload reads its
members `THRESHOLD` times or more: for `resolve_turn` at 1,000 entries that is about half a
percent of the turn, counted in instructions under valgrind (a read spelled out costs about 600
instructions more, the turn about 595 million), a count that does not depend on the load of the
machine as the time shares printed beside it do.

This counts, per module of `fappo_bot`, the member reads each workload executes (lines traced
with `sys.settrace`, each line's reads counted from its syntax), both spelled out and through
aliases, prices them with the measured cost of a read, and prints the verdict per module. The
workloads are the two benchmarks' headline figures: `resolve_turn` with 1,000 entries
(`bench_resolve.py`) and the typical 8-line post parsed, validated and rendered
(`bench_posting.py`).

Run: .venv/bin/python benchmarks/enum_reads.py [--smoke]
"""

from __future__ import annotations

import argparse
import ast
import enum
import gc
import importlib
import pkgutil
import sys
import time
import timeit
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fappo_bot
from benchmarks.bench_posting import CHARACTERS, TYPICAL
from benchmarks.bench_resolve import scene
from fappo_bot.adjudication.loader import character_from_case
from fappo_bot.posting import PostContext, parse_post
from fappo_bot.posting.render import render_reply
from fappo_bot.rules import ActionKind, TurnState, resolve_turn

#: member reads of one module in one run of a workload from which its aliases are worth keeping
THRESHOLD = 5_000


class ModuleReads:
    """One module's enum member reads, by line: (spelled out, through an alias)."""

    def __init__(self, module: ModuleType) -> None:
        source = Path(str(module.__file__)).read_text(encoding="utf-8")
        tree = ast.parse(source)
        self.name = module.__name__
        self.aliases: set[str] = set()
        for node in tree.body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id.startswith("_") and _is_member(module, node.value)):
                self.aliases.add(node.targets[0].id)
        self.lines: dict[int, tuple[int, int]] = {}
        for part in ast.walk(tree):
            direct = _is_member(module, part) and not _defines_alias(tree, part)
            alias = (isinstance(part, ast.Name) and isinstance(part.ctx, ast.Load)
                     and part.id in self.aliases)
            if direct or alias:
                line = getattr(part, "lineno", 0)
                spelled, aliased = self.lines.get(line, (0, 0))
                self.lines[line] = (spelled + direct, aliased + alias)


def _is_member(module: ModuleType, node: ast.AST) -> bool:
    """`EnumClass.MEMBER` where `EnumClass` is an enum the module names."""
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and isinstance(getattr(module, node.value.id, None), enum.EnumMeta)
            and node.attr in getattr(module, node.value.id).__members__)


def _defines_alias(tree: ast.Module, node: ast.AST) -> bool:
    return any(isinstance(top, ast.Assign) and top.value is node for top in tree.body)


def modules() -> dict[str, ModuleReads]:
    """Every module of fappo_bot that reads enum members, by file name."""
    found: dict[str, ModuleReads] = {}
    for info in pkgutil.walk_packages(fappo_bot.__path__, "fappo_bot."):
        if info.name.startswith(("fappo_bot.console", "fappo_bot.storage", "fappo_bot.discord")):
            continue
        module = importlib.import_module(info.name)
        reads = ModuleReads(module)
        if reads.lines:
            found[str(Path(str(module.__file__)).resolve())] = reads
    return found


def traced(work: Callable[[], object], watched: dict[str, ModuleReads]) -> Counter[tuple[str, int]]:
    """How many times each line of the watched modules ran during `work()`."""
    ran: Counter[tuple[str, int]] = Counter()

    def on_call(frame: FrameType, event: str, arg: Any) -> Any:
        filename = frame.f_code.co_filename
        if filename not in watched:
            return None

        def on_line(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                ran[(filename, frame.f_lineno)] += 1
            return on_line

        return on_line

    sys.settrace(on_call)
    try:
        work()
    finally:
        sys.settrace(None)
    return ran


def best_seconds(work: Callable[[], object], repeat: int = 5) -> float:
    """The best processor time of `repeat` runs (the machine may be shared: wall time is not)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def read_cost() -> float:
    """Seconds a member read spelled out costs more than a read through a module global."""
    names = {"ActionKind": ActionKind, "x": ActionKind.ATTACK, "MOVE": ActionKind.MOVE}
    number = 200_000
    spelled = min(timeit.repeat("x is ActionKind.MOVE", timer=time.process_time, globals=names,
                                number=number, repeat=3))
    aliased = min(timeit.repeat("x is MOVE", timer=time.process_time, globals=names,
                                number=number, repeat=3))
    return (spelled - aliased) / number


def workloads(entries: int = 1000) -> list[tuple[str, Callable[[], object]]]:
    state, orders = scene(entries)
    resolve_turn(state, orders)
    post_state = TurnState(characters=tuple(character_from_case(c) for c in CHARACTERS))
    ctx = PostContext.for_poster(post_state, "Kael")

    def post() -> object:
        return render_reply(parse_post(TYPICAL, ctx), post_state)

    post()
    return [(f"resolve_turn, {entries:,} entries", lambda: resolve_turn(state, orders)),
            ("typical 8-line post", post)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args()
    watched = modules()
    jobs = workloads(10 if args.smoke else 1000)
    turns = 1 if args.smoke else 5
    # the read's cost and the workloads' times measured in turns, each the best of five, so that
    # the machine's load (which varies by the minute on a shared one) weighs on both alike
    costs: list[float] = []
    times: list[list[float]] = [[] for _ in jobs]
    for _ in range(turns):
        costs.append(read_cost())
        for seen, (_, work) in zip(times, jobs, strict=True):
            seen.append(best_seconds(work, repeat=1))
    cost = min(costs)
    print(f"a member read spelled out costs {cost * 1e9:.0f} ns more than one through an alias")
    keep: dict[str, list[str]] = {}
    for (label, work), seen in zip(jobs, times, strict=True):
        seconds = min(seen)
        ran = traced(work, watched)
        per: dict[str, list[int]] = {}
        for (filename, line), times in ran.items():
            reads = watched[filename].lines.get(line)
            if reads is not None:
                totals = per.setdefault(watched[filename].name, [0, 0])
                totals[0] += times * reads[0]
                totals[1] += times * reads[1]
        print(f"\n{label}: {seconds * 1e3:.2f} ms; member reads by module "
              f"(share of the workload's time they cost spelled out)")
        print(f"  {'module':<38} {'spelled out':>11} {'via alias':>10} {'share':>7}")
        for name, (spelled, aliased) in sorted(per.items(), key=lambda kv: -sum(kv[1])):
            share = (spelled + aliased) * cost / seconds
            print(f"  {name:<38} {spelled:>11,} {aliased:>10,} {share:>7.1%}")
            if spelled + aliased >= THRESHOLD:
                keep.setdefault(name, []).append(label)
    print(f"\nworth aliasing ({THRESHOLD:,} member reads or more in a workload):")
    for name, labels in sorted(keep.items()):
        print(f"  {name}: {', '.join(labels)}")
    unused = sorted(r.name for r in watched.values() if r.aliases and r.name not in keep)
    print("aliases not worth their names:", ", ".join(unused) if unused else "none")


if __name__ == "__main__":
    main()
