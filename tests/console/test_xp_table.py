"""A PLOT at the local table (RULINGS X14), replayed with a fixed seed so that its plot
points are known: the table's services take their salts from the composition root, and this test
gives the PLOT use cases the seed `salt0001` (8 plot points, 13 GM points)."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from rich.console import Console

from fappo_bot.console.app import open_table, run_script
from tests.console.test_transcripts import table_args

pytestmark = pytest.mark.integration

PLOT = Path(__file__).parent / "xp" / "plot.txt"


async def test_a_plot_is_played_at_the_table(tmp_path):
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    async with open_table(table_args(tmp_path / "data", PLOT)) as table:
        plots = table.services.xp_plots
        plots.deps = dataclasses.replace(plots.deps, salts=lambda: "salt0001")
        code = await run_script(table, PLOT, console)
    screen = out.getvalue()
    assert code == 0, screen[-4000:]
    assert "assertions passed" in screen


RULES = Path(__file__).parent / "xp" / "rules.txt"


async def test_the_xp_rules_besides_the_rolls_are_played_at_the_table(tmp_path):
    """tests/console/xp/rules.txt: the 2 Passions and 2 Flaws of a new sheet, the flag
    xp_failure_takes_longer, ranks and /xp rank, /xp event and a Cut! asked in a post."""
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    async with open_table(table_args(tmp_path / "data", RULES)) as table:
        code = await run_script(table, RULES, console)
    screen = out.getvalue()
    assert code == 0, screen[-4000:]
    assert "assertions passed" in screen
