"""The bot benchmark still drives the bot end to end (a short load, then a 60-combatant turn's
review and resolution through the fake Discord in its own process): a change to the bot's
answers (a deferred review, a paged panel) must not leave `benchmarks/bench_bot.py` broken.
It asserts that the figures came out, not what they are: speed is the benchmark's business."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_bot_benchmark_runs_through_its_load_and_a_resolution() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/bench_bot.py", "--rate", "10", "--seconds", "1",
         "--rooms", "2", "--runs", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"post -> reply p50 [\d.]+ ms, p99 [\d.]+ ms", done.stdout), done.stdout
    assert re.search(r"'Resolve the turn' -> last result message \d+ ms", done.stdout), \
        done.stdout
