"""A person at the terminal: `fappo-bot play` under a pseudo-terminal (pexpect) plays one turn
interactively: a fresh table offers the example, a post, /resolve with its review question."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
MIRA = ROOT / "examples" / "adventure" / "mira.yaml"
KAEL = ROOT / "examples" / "adventure" / "kael.yaml"


def spawn(data_dir: Path):
    return pexpect.spawn(
        sys.executable,
        ["-m", "fappo_bot.cli", "play", "--data-dir", str(data_dir), "--no-color", "--width", "100"],
        cwd=str(ROOT), encoding="utf-8", timeout=60, dimensions=(50, 100),
    )


def test_one_turn_played_at_the_prompt(tmp_path):
    child = spawn(tmp_path / "data")
    try:
        child.expect(r"Replay the example adventure")
        child.expect(r"\[Y/n\]")
        child.sendline("n")
        child.expect_exact("[gm]> ")
        child.sendline('/newgame "Pty Test"')
        child.expect_exact("[gm]> ")
        child.sendline(f"/addchar {MIRA} --new-player bob")
        child.expect_exact("[gm]> ")
        child.sendline(f"/addchar {KAEL} --new-player alice")
        child.expect_exact("[gm]> ")
        child.sendline("/open")
        child.expect("Turn 1 is open")
        child.expect_exact("[gm]> ")
        # a multi-line post, ended by a blank line, exactly as typed in the channel
        child.sendline("/as Mira")
        child.expect_exact("[bob (Mira)]> ")
        child.sendline("Mira creeps along the wall.")
        child.expect_exact("... ")
        child.sendline("2 AP Stealth: slip past the guard")
        child.expect_exact("... ")
        child.sendline("")
        child.expect("Mira: 2/3 AP committed")
        child.expect_exact("[bob (Mira)]> ")
        # a secret order by DM: its seat sees it, the others only a count
        child.sendline("/as Kael")
        child.expect_exact("[alice (Kael)]> ")
        child.sendline("/dm 1 AP defend")
        child.expect_exact("... ")
        child.sendline(".")
        child.expect("Kael: 1/3 AP committed")
        child.expect_exact("[alice (Kael)]> ")
        child.sendline("/as gm")
        child.expect("While you were away")
        child.expect("Everyone is in for turn 1")
        child.expect_exact("[gm]> ")
        child.sendline("/calltime")
        child.expect_exact("[gm]> ")
        child.sendline("/resolve")
        child.expect("slip past the guard: difficulty")
        child.expect_exact("answer> ")
        child.sendline("hard")  # refused: a number is needed, and the question comes again
        child.expect("answer refused")
        child.expect_exact("answer> ")
        child.sendline("4")
        child.expect("Turn 1 results")
        child.expect(r"Mira tries Stealth \(slip past the guard\): 6 vs 4, Solid Success")
        # Kael's order came by DM but targets no other player's character: public once the
        # turn resolves (F29 Amb-4); a defence no attack tested is left out
        child.expect("Where things stand")
        child.expect("Kael: Healthy")
        child.expect_exact("[gm]> ")
        child.sendline("/quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_fresh_table_without_a_terminal_replays_the_example(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "fappo_bot.cli", "play", "--data-dir", str(tmp_path / "d"),
         "--no-color", "--width", "110"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False, cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "adventure.txt: 95 steps" in done.stdout
    assert "assertions passed" in done.stdout


@pytest.mark.parametrize("python_env", [{}, {"PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}],
                         ids=["C-locale", "ascii-terminal"])
def test_bytes_the_terminal_cannot_decode_are_refused_and_what_was_stored_stays(
        tmp_path, python_env):
    # the C locale: Python reads the terminal as UTF-8 (or ASCII) and stands a lone surrogate
    # in for each byte it cannot decode, which no database can store
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONIOENCODING"))}
    env.update(LC_ALL="C", **python_env)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "fappo_bot.cli", "play", "--data-dir", str(tmp_path / "data"), "--no-color",
         "--width", "100"], cwd=str(ROOT), env=env, timeout=60, dimensions=(50, 100))
    refused = b"Not taken: the terminal sent bytes that are not UTF-8"
    try:
        child.expect(rb"\[Y/n\]")
        child.sendline(b"n")
        child.expect_exact(b"[gm]> ")
        child.sendline(b'/newgame "Bytes"')
        child.expect_exact(b"[gm]> ")
        child.sendline(f"/addchar {MIRA} --new-player bob".encode())
        child.expect_exact(b"[gm]> ")
        child.sendline(b"/open")
        child.expect_exact(b"[gm]> ")
        child.sendline(b"/as Mira")
        child.expect_exact(b"[bob (Mira)]> ")
        child.sendline(b"2 AP Stealth: slip past the guard")
        child.expect_exact(b"... ")
        child.sendline(b"")
        child.expect_exact(b"Mira: 2/3 AP committed")
        child.expect_exact(b"[bob (Mira)]> ")
        # a new post, and an edit of the stored one, each with a byte that is no UTF-8
        child.sendline(b"3 AP Stealth: run \xff away")
        child.expect_exact(b"... ")
        child.sendline(b"")
        child.expect_exact(refused)
        child.expect_exact(b"3 AP Stealth: run ")  # what was read, shown to type again
        child.expect_exact(b"[bob (Mira)]> ")
        child.sendline(b"/edit 1")
        child.expect_exact(b"... ")
        child.sendline(b"1 AP Stealth: hide \xfe")
        child.expect_exact(b"... ")
        child.sendline(b"")
        child.expect_exact(refused)
        child.expect_exact(b"[bob (Mira)]> ")
        child.sendline(b"/status")
        child.expect_exact(b"[bob (Mira)]> ")
        status = child.before
        child.sendline(b"/quit")
        child.expect(pexpect.EOF)
        seen = child.before
    finally:
        child.close()
    assert child.exitstatus == 0
    assert b"Mira         posted" in status, status
    # the stored post stands as it was, and neither refused text reached the database
    with closing(sqlite3.connect(tmp_path / "data" / "fappo.sqlite3")) as db:
        revisions = db.execute("SELECT text FROM post_revisions").fetchall()
    assert revisions == [("2 AP Stealth: slip past the guard",)]
    assert b"internal error" not in seen and b"Traceback" not in seen
