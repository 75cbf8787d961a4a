"""Every script in `benchmarks/` still runs: each is started at its smallest size (`--smoke`) and
must exit 0, so that a change to the code a benchmark drives (a repository added to the unit of
work, a renamed use case) breaks CI instead of the next person who measures. It asserts that the
figures came out, never what they are: speed is the benchmarks' business (docs/benchmarks.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py") if p.name != "__init__.py")

#: what a script's output must hold beyond its exit status: the line its main figure is on
FIGURES = {
    "bench_board.py": [r"6 combatants: CPU a refresh [\d.]+ ms",
                       r"60 combatants: CPU a refresh [\d.]+ ms"],
    "bench_bot.py": [r"post -> reply p50 [\d.]+ ms, p99 [\d.]+ ms",
                     r"CPU a post: bot [\d.]+ ms \([\d.]+ on the loop's thread",
                     r"'Resolve the turn' -> last result message \d+ ms"],
    "bench_load.py": [r"latency p50 +[\d.]+ ms"],
    "bench_post_path.py": [r"CPU a post min [\d.]+ ms, median [\d.]+ ms"],
    "bench_posting.py": [r"typical 8-line post, parse\+validate\+render: best"],
    "bench_resolve.py": [r"resolve_turn, 1 timed turns per size"],
    "bench_scale.py": [r"outbox +\d+ rooms: first [\d.]+ ms, steady [\d.]+ ms",
                       r"start-up +\d+ games: process start to ready [\d.]+ s",
                       r"catch-up +\d+ rooms with a missed post each, unpaced: last room read",
                       r"catch-up plan +\d+ games", r"history +close\+resolve: after 3 turns"],
    "bench_service.py": [r"fake +post +\d+ posts", r"fake +resolve +6 combatants"],
    "bench_storage.py": [r"sqlite +ingest", r"sqlite +resolve +6 combatants"],
    "bench_web.py": [r"party page +p50 [\d.]+ ms, p99 [\d.]+ ms",
                     r"turn page \(\d+ turns\) +p50 [\d.]+ ms, p99 [\d.]+ ms",
                     r"story page \(\d+ turns\) +p50 [\d.]+ ms"],
    "bench_xp.py": [r"exact odds, pools 1-30"],
    "enum_reads.py": [r"resolve_turn, 10 entries: [\d.]+ ms"],
    "fuzz_posts.py": [r"turns resolved, 0 failures"],
}

pytestmark = pytest.mark.e2e


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)


def test_every_benchmark_has_its_expected_figures_listed() -> None:
    assert sorted(FIGURES) == SCRIPTS


#: the scripts that start a process of their own or a real bot: tens of seconds on a busy machine
SLOW = {"bench_bot.py"}


@pytest.mark.parametrize(
    "script", [pytest.param(s, marks=pytest.mark.slow) if s in SLOW else s for s in SCRIPTS]
)
def test_the_benchmark_runs_at_its_smallest_size(script: str) -> None:
    done = _run(f"benchmarks/{script}", "--smoke")
    assert done.returncode == 0, done.stderr[-3000:]
    for figure in FIGURES.get(script, []):
        assert re.search(figure, done.stdout), (figure, done.stdout[-3000:])


@pytest.mark.postgres
@pytest.mark.slow
def test_the_storage_benchmark_runs_on_postgresql() -> None:
    done = _run("benchmarks/bench_storage.py", "--smoke", "--db", "postgres")
    assert done.returncode == 0, done.stderr[-3000:]
    if "postgres: skipped" in done.stdout:
        pytest.skip(done.stdout.strip().splitlines()[-1])
    assert re.search(r"postgres +resolve +6 combatants", done.stdout), done.stdout[-3000:]


@pytest.mark.slow
def test_the_bot_benchmark_measures_its_floor_on_a_busy_machine() -> None:
    """`--floor`: the same loads against a bare discord.py bot (what the bot's figure stands on);
    `--hogs`: beside spinning processes."""
    done = _run("benchmarks/bench_bot.py", "--smoke", "--floor", "--hogs", "1")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "the floor: a bare discord.py bot" in done.stdout, done.stdout[-3000:]
    assert "1 spinning processes beside it" in done.stdout, done.stdout[-3000:]
    assert re.search(r"CPU a post: bot [\d.]+ ms", done.stdout), done.stdout[-3000:]
