"""Transcripts played at the local table with the real service, storage (SQLite in a temporary
data directory), parser and engine: the example adventure and the small drills of data/."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from fappo_bot.console.app import open_table, run_script

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
ADVENTURE = ROOT / "examples" / "adventure" / "adventure.txt"
DRILLS = sorted((Path(__file__).parent / "data").glob("*.txt"))


def table_args(data_dir: Path, script: Path) -> argparse.Namespace:
    return argparse.Namespace(
        config=None, data_dir=data_dir, database_url=None, script=script, interactive=False,
        example=None, game=None, seat="gm", width=110, no_color=True,
    )


async def replay(tmp_path: Path, script: Path) -> tuple[int, str]:
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    async with open_table(table_args(tmp_path / "data", script)) as table:
        code = await run_script(table, script, console)
    return code, out.getvalue()


async def test_the_example_adventure_plays_end_to_end(tmp_path):
    code, screen = await replay(tmp_path, ADVENTURE)
    assert code == 0, screen[-4000:]
    assert "assertions passed" in screen
    # every outcome the README promises is on the screen
    for text in ("4 eliminated", "Bleeding", "Reduce 2 SP Tireless", "it did not happen",
                 "Skarg: Dead", "2 CC banked", "NPC orders sealed"):
        assert text in screen


XP_ADVENTURE = ROOT / "examples" / "xp-adventure" / "adventure.txt"


async def test_the_xp_example_adventure_plays_end_to_end_and_its_dice_replay(tmp_path):
    """An Xp game at the table, sheets to results; every die shown comes from the
    seed the audit log keeps for its roller."""
    from fappo_bot.render_xp import faces_text
    from fappo_bot.rules_xp.dice import RandomDice
    from fappo_bot.service.xp_rolls import generator

    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    async with open_table(table_args(tmp_path / "data", XP_ADVENTURE)) as table:
        code = await run_script(table, XP_ADVENTURE, console)
        log = await table.services.games.audit_log(table.need_game(), "gm", None)
    screen = out.getvalue()
    assert code == 0, screen[-4000:]
    assert "23 assertions passed" in screen
    rolls = [r for e in log if e.action == "xp.turn" for r in e.detail["rolls"]]
    assert len(rolls) == 5  # turn 1: Khai, Nefer and the guard; turn 2: the chain of two
    for entry in rolls:
        again = RandomDice(generator(entry["seed"])).take(len(entry["dice"]))
        assert list(again) == entry["dice"]
        assert entry["dice"][: len(entry["base"])] == entry["base"]
        if entry["base"]:  # a chain broken before a member: no dice (X11)
            assert faces_text(entry["base"]) in screen  # as render_xp shows every roll


@pytest.mark.parametrize("script", DRILLS, ids=[p.stem for p in DRILLS])
async def test_drills(tmp_path, script):
    code, screen = await replay(tmp_path, script)
    assert code == 0, screen[-4000:]


async def test_a_replay_twice_in_one_database_makes_two_games(tmp_path):
    drill = Path(__file__).parent / "data" / "posting.txt"
    assert (await replay(tmp_path, drill))[0] == 0
    code, screen = await replay(tmp_path, drill)
    assert code == 0, screen[-3000:]
    assert "table:posting-drill-2" in screen


async def test_a_failing_assertion_fails_the_replay_with_a_diff(tmp_path):
    script = tmp_path / "wrong.txt"
    script.write_text(
        "/newgame Wrong\n/addchar %s --new-player alice\n/open\n/as Kael\n1 AP defend\n\n"
        "?expect Kael: 2/3 AP committed\n" % (ROOT / "examples" / "adventure" / "kael.yaml"),
        encoding="utf-8",
    )
    code, screen = await replay(tmp_path, script)
    assert code == 1
    assert "line 7 [alice]" in screen
    assert "expected: Kael: 2/3 AP committed" in screen
    assert "nearest:  Kael: 1/3 AP committed" in screen


async def test_an_unreadable_transcript_runs_nothing(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("/newgame Never\n/frobnicate\n", encoding="utf-8")
    code, screen = await replay(tmp_path, script)
    assert code == 2
    assert "line 2: unknown command /frobnicate" in screen
    assert "Never" not in screen.split("cannot read")[0]


@pytest.mark.e2e
def test_the_cli_replays_and_exits_1_on_a_failed_assertion(tmp_path):
    script = tmp_path / "wrong.txt"
    script.write_text("/newgame Wrong\n?expect-not Wrong\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "fappo_bot.cli", "play", "--script", str(script),
         "--data-dir", str(tmp_path / "d"), "--no-color", "--width", "100"],
        capture_output=True, text=True, check=False, cwd=ROOT,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "shows what it must not" in done.stdout


@pytest.mark.e2e
def test_play_sits_down_at_the_newest_game_and_reads_typed_input(tmp_path):
    cli = [sys.executable, "-m", "fappo_bot.cli", "play", "--data-dir", str(tmp_path / "d"),
           "--no-color", "--width", "100"]
    drill = Path(__file__).parent / "data" / "secret.txt"
    first = subprocess.run([*cli, "--script", str(drill)], capture_output=True, text=True,
                           check=False, cwd=ROOT)
    assert first.returncode == 0, first.stdout[-2000:]
    typed = "/status\n/as Kael\nKael stretches.\n1 AP defend\n\n/as Mira\n/quit\n"
    done = subprocess.run(cli, input=typed, capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert 'Now at "Duel at Dawn"' in done.stdout
    assert "Turn 2: open" in done.stdout
    assert "Kael: 1/3 AP committed" in done.stdout


@pytest.mark.postgres
async def test_the_table_plays_on_postgresql(tmp_path):
    """`--database-url`: the same table on PostgreSQL; the table upgrades the empty database."""
    from tests.conftest import create_postgres_database, drop_postgres_database

    url = create_postgres_database()
    try:
        drill = Path(__file__).parent / "data" / "secret.txt"
        args = table_args(tmp_path / "unused", drill)
        args.database_url = url
        out = io.StringIO()
        async with open_table(args) as table:
            code = await run_script(table, drill, Console(file=out, width=110, color_system=None))
        assert code == 0, out.getvalue()[-3000:]
        assert not (tmp_path / "unused").exists()  # no SQLite file was made
    finally:
        drop_postgres_database(url)


def test_play_names_its_example_adventures():
    """`fappo-bot play --example [NAME]`: the FAPPO adventure by default, the Xp one by name."""
    from fappo_bot.cli import build_parser
    from fappo_bot.console.example import EXAMPLES

    parser, _ = build_parser()
    assert parser.parse_args(["play", "--example"]).example == "adventure"
    assert parser.parse_args(["play"]).example is None
    named = parser.parse_args(["play", "--example", "xp-adventure"]).example
    assert EXAMPLES[named].resolve() == XP_ADVENTURE.resolve()
    assert EXAMPLES["adventure"].resolve() == ADVENTURE.resolve()
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "--example", "dragons"])


async def test_play_example_xp_adventure_replays_it_then_goes_on(tmp_path, monkeypatch):
    """`--example xp-adventure` replays the Xp example, then hands over to the prompt."""
    from fappo_bot.console import app

    prompted = []

    async def prompt(table, console):
        prompted.append(table.game_id)

    monkeypatch.setattr(app, "prompt_loop", prompt)
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    args = table_args(tmp_path / "data", None)
    args.example = "xp-adventure"
    async with open_table(args) as table:
        code = await app._play(table, args, console)
    screen = out.getvalue()
    assert code == 0, screen[-4000:]
    assert "Turn 1 results (Xp)" in screen and "23 assertions passed" in screen
    assert prompted and prompted[0] is not None  # at the example's game


FIRST_EVENING = Path(__file__).parent / "data" / "first-evening.txt"
SECOND_EVENING = Path(__file__).parent / "data" / "second-evening.txt"


@pytest.mark.parametrize("width", [40, 20])
async def test_on_a_narrow_screen_every_panel_shows_its_whole_audience_tag(tmp_path, width):
    """Narrow panels cut off the audience tag (`only bob (Mira)` drawn as
    `only bob (Mi─╯`). Both evenings replayed on a narrow terminal: every panel's bottom border
    ends with a whole tag, the long form where it fits, else the short one (`only bob`)."""
    screen = []
    for script in (FIRST_EVENING, SECOND_EVENING):
        out = io.StringIO()
        console = Console(file=out, width=width, color_system=None)
        args = table_args(tmp_path / script.stem, script)
        async with open_table(args) as table:
            assert await run_script(table, script, console) == 0, out.getvalue()[-3000:]
        screen.extend(out.getvalue().splitlines())
    import re

    bottoms = [line for line in screen if line.startswith("╰")]
    assert len(bottoms) > 50
    tags = [re.fullmatch(r"╰─+ (.+) ─╯", line) for line in bottoms]
    assert all(tags), [line for line, tag in zip(bottoms, tags, strict=True) if not tag][:5]
    for tag in {t.group(1) for t in tags if t}:
        assert tag in ("#table · everyone", "everyone") or re.fullmatch(
            r"only [a-z]+( \([A-Za-z, ]+\))?(, [a-z]+( \([A-Za-z, ]+\))?)*", tag), tag
    assert max(len(line) for line in screen if line.startswith(("╭", "│", "╰"))) <= width


async def test_the_reveal_shows_no_json_and_the_export_keeps_it(tmp_path):
    """Every reveal dumped about 2 KB of canonical JSON to every seat. The example
    adventure's three reveals show the orders, the commitment and how to check them; the
    export keeps the JSON of each sealed turn, and it hashes to the commitment published
    before the players' orders."""
    import hashlib

    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    async with open_table(table_args(tmp_path / "data", ADVENTURE)) as table:
        assert await run_script(table, ADVENTURE, console) == 0, out.getvalue()[-3000:]
        document = await table.services.transfer.export(table.need_game(), "gm")
    screen = out.getvalue()
    assert screen.count("NPC orders revealed") == 3 and screen.count("How to check") == 3
    assert '"actions"' not in screen and '"actor"' not in screen
    sealed = [t for t in document.turns if t.npc_commitment]
    assert len(sealed) == 3 and all(t.npc_canonical and t.npc_salt for t in sealed)
    for turn in sealed:
        digest = hashlib.sha256(f"{turn.npc_salt}\n{turn.npc_canonical}".encode()).hexdigest()
        assert digest == turn.npc_commitment
    assert '"actor":"Skarg"' in sealed[0].npc_canonical
