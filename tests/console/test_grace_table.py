"""Grace at the local table, with an injected clock: the table is its own scheduler, so a
deadline that finds a late player with grace left moves once and the table says so, in the
game's time zone; once the grace is spent, time is called as without it."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from fappo_bot.console.app import open_table, run_script
from tests.console.test_transcripts import ROOT, table_args

pytestmark = pytest.mark.integration

ADVENTURE = ROOT / "examples" / "adventure"


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at


async def _run(table, console, tmp_path: Path, name: str, lines: list[str]) -> None:
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert await run_script(table, script, console) == 0, console.file.getvalue()[-3000:]


async def test_grace_moves_the_deadline_once_then_time_is_called(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    clock = Clock()
    kael, skarg = ADVENTURE / "kael.yaml", ADVENTURE / "skarg.yaml"
    async with open_table(table_args(tmp_path / "data", tmp_path / "x.txt")) as table:
        table.services.deps.clock.now = clock.now  # type: ignore[method-assign]
        await _run(table, console, tmp_path, "setup", [
            "/as gm", '/newgame "Grace" --players alice',
            f"/addchar {kael} --player alice", f"/enemy {skarg}",
            "/set timezone Europe/Berlin", "/set grace 1", "/set grace_period 12h",
            "/set reminders none", "/open", "/npc", "3 AP defend", ".",
            "/calltime at 20:00", "?expect Thu 2026-12-03 20:00 CET"])
        clock.at += timedelta(hours=9)  # 20:00 in Berlin: Kael has not posted
        await _run(table, console, tmp_path, "deadline", [
            "/status",
            "?expect Grace: turn 1's deadline moves by 12h, to Fri 2026-12-04 08:00 CET, "
            "because Kael had not posted yet",
            "/status", "?expect Deadline: Fri 2026-12-04 08:00 CET"])
        clock.at += timedelta(hours=12)
        await _run(table, console, tmp_path, "again", [
            "/status", "?expect Time is called on turn 1", "?expect-not Grace:"])
    screen = out.getvalue()
    assert screen.count("│ Grace: turn 1") == 1  # shown once (the ?expect lines echo it too)
