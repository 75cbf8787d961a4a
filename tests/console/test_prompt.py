"""The prompt as a new player types at it: an empty answer takes the default the
question offers, a plain word does not swallow the command typed after it, a mistyped command
gets a suggestion. Real service and SQLite; the typing comes from a list."""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from fappo_bot.console.app import open_table, prompt_loop, run_script
from fappo_bot.console.commands import COMMANDS
from fappo_bot.console.transcript import COMMANDS as TRANSCRIPT_COMMANDS

pytestmark = pytest.mark.integration

ADVENTURE = Path(__file__).resolve().parents[2] / "examples" / "adventure"
SETUP = f"""\
/newgame "Prompt" --players alice
/addchar {ADVENTURE / "kael.yaml"} --player alice
/group {ADVENTURE / "goblins.yaml"}
/open
/as Kael
2 AP attack Goblins with Broadsword
1 AP defend

/as gm
"""


async def typed(tmp_path: Path, lines: list[str]) -> str:
    """What the screen shows when `lines` are typed at the prompt after SETUP."""
    script = tmp_path / "setup.txt"
    script.write_text(SETUP, encoding="utf-8")
    args = argparse.Namespace(config=None, data_dir=tmp_path / "data", database_url=None,
                              script=script)
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    keys: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(keys)
        except StopIteration:
            raise EOFError from None

    async with open_table(args) as table:
        assert await run_script(table, script, console) == 0, out.getvalue()[-2000:]
        out.truncate(0)
        out.seek(0)
        await prompt_loop(table, console, ask)
    return out.getvalue()


async def test_an_empty_answer_takes_the_default_the_question_offers(tmp_path):
    screen = await typed(tmp_path, ["/review Kael", "", "", "/quit"])
    assert "(empty: no)" in screen  # the default itself, not the word "default"
    assert "No more questions." in screen


async def test_a_plain_word_does_not_swallow_the_next_command(tmp_path):
    screen = await typed(tmp_path, ["clear", "/status", "/quit"])
    assert "Turn 1: open" in screen  # /status ran
    # and "clear" was a one-line post: table talk (no mechanics line), shown with no reply
    assert "clear" in screen and "bot · reply" not in screen


async def test_a_mistyped_command_gets_a_suggestion(tmp_path):
    screen = await typed(tmp_path, ["/resolv", "/quit"])
    assert "unknown command /resolv: did you mean /resolve?" in screen


def test_every_command_the_transcript_reads_is_in_the_command_table():
    """The explicit table (console/commands.py) and the transcript reader agree on the names;
    `as`, `dm` and `post` are steps of their own, not commands."""
    assert set(COMMANDS) == TRANSCRIPT_COMMANDS - {"as", "dm", "post"}


async def test_a_command_body_does_not_swallow_the_command_after_it(tmp_path):
    """A slip new players make in a command's body: a DM not ended by a blank line or a "."
    took the next command into the secret orders, and a bare /edit waited for a body."""
    screen = await typed(tmp_path, ["/edit", "/as Kael", "/dm 1 AP defend", "/as gm", "/status",
                                    "/quit"])
    assert "/edit needs the number of a message" in screen
    assert " alice (Kael) ─" in screen and " gm ─" in screen  # both seat changes ran
    assert "Kael         posted (by DM)" in screen  # the DM was read, and /status ran
    assert "/as gm" not in screen.split("DM to the bot")[1].split("bot · reply")[0]


async def test_the_end_of_the_input_ends_the_last_post_which_counts(tmp_path):
    """Piped input whose last post has no blank line after it: the post was dropped without a
    word; it counts, then the table leaves."""
    screen = await typed(tmp_path, ["/as Kael", "3 AP defend"])
    assert "Kael: 3/3 AP committed" in screen
    assert "+ now: 3 AP  defend (all attacks)" in screen


async def test_a_lone_question_mark_shows_the_help(tmp_path):
    """Not "unknown assertion '?'": the transcripts' assertions mean nothing to a player."""
    screen = await typed(tmp_path, ["?", "/quit"])
    assert "unknown assertion" not in screen
    assert screen.count("/as NAME              change seat") == 2  # at the start, and for "?"
