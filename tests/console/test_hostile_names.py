"""Hostile names at the local table: a whole game whose names are mentions (a character called
`<@123456789012345678>` was announced raw: "... (played by bob) joins the game"), played through
every kind of screen the table writes (new game, joins, sheets, status, seats and games lists,
review questions, refusals, results, rest and adventure-end reports): nothing live is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console.test_transcripts import ROOT, replay

pytestmark = pytest.mark.integration

LIVE = ("@everyone", "@here", "<@", "<#")
NAMES = {"kael": "<@123456789012345678>", "mira": "Mira @everyone **b** ||s||",
         "skarg": "Skarg <@&999> <#777> @here"}


async def test_no_screen_of_a_hostile_game_shows_a_live_mention(tmp_path: Path) -> None:
    for key, name in NAMES.items():
        text = (ROOT / "examples" / "adventure" / f"{key}.yaml").read_text(encoding="utf-8")
        (tmp_path / f"{key}.yaml").write_text(text.replace(f"name: {key.title()}",
                                                           f"name: \"{name}\""),
                                              encoding="utf-8")
    script = tmp_path / "hostile.txt"
    script.write_text("\n".join([
        "/as gm",
        '/newgame "<@1> @everyone Road"',
        "/addchar kael.yaml --new-player alice",
        "/addchar mira.yaml --new-player bob",
        "/enemy skarg.yaml",
        "/seats", "/games", "/use <#1> @here",
        '/use "<@1> @everyone Road"',  # typed as it was named: found, though listed inert
        "/open",
        "/as <@123456789012345678>", "/pass @everyone",  # the character's name as written
        "2 AP Stealth: slip past the guard", "1 AP defend", "",
        "/as bob", "3 AP defend", "",
        "/npc", "3 AP defend", ".",
        "/as gm", "/status", "/review",
        "/calltime", "> yes", "/resolve", "> 4",
        "/endscene night",
        "/endadventure 2",
        "", ]), encoding="utf-8")
    code, screen = await replay(tmp_path, script)
    assert "joins the game" in screen and "Turn 1" in screen
    typed = [line for line in screen.splitlines() if " › /" in line]  # commands as typed
    found = [line for line in screen.splitlines()
             if line not in typed and any(live in line for live in LIVE)]
    assert not found, "\n".join(found[:10])
    assert "<\u200b@\u200b123456789012345678> (played by alice) joins the game" in screen
    assert 'Now at "<\u200b@\u200b1> @\u200beveryone Road"' in screen
    assert "─ alice (<\u200b@\u200b123456789012345678>) ─" in screen  # Kael's player's seat
    assert "is not in the game" not in screen
    assert code == 0, screen[-3000:]


async def test_no_screen_obeys_a_terminal_escape_in_a_name_or_a_post(tmp_path: Path) -> None:
    """A name or a post holding an escape sequence (clear the screen, set the window's title,
    write the clipboard: OSC 52) was written to the terminal as it was, and the terminal obeyed
    it. The table shows such characters as symbols (ESC as ␛), in every panel and prompt."""
    evil = "\x1b[2J\x1b]52;c;cHduZWQ=\x07\x9b31m"
    text = (ROOT / "examples" / "adventure" / "kael.yaml").read_text(encoding="utf-8")
    (tmp_path / "kael.yaml").write_text(
        text.replace("name: Kael", f'name: "Kael{evil.replace(chr(27), chr(92) + "e")}"'
                     .replace("\x07", "\\a").replace("\x9b", "\\x9b")), encoding="utf-8")
    script = tmp_path / "escapes.txt"
    script.write_text("\n".join([
        f'/newgame "Road{evil}" --players alice',
        "/addchar kael.yaml --player alice",
        "/open",
        "/as alice",
        f"Kael shouts{evil}.",
        "1 AP defend",
        "",
        "/seats",
        f"?expect nothing{evil}",  # a failed assertion prints what the seat saw, and the text
        "",
    ]), encoding="utf-8")
    code, screen = await replay(tmp_path, script)
    assert code == 1  # the one failed assertion, on purpose
    assert "joins the game" in screen and "1/3 AP committed" in screen
    assert not any(c in screen for c in "\x1b\x07\x9b"), repr(screen[:400])
    assert "Road␛[2J␛]52;c;cHduZWQ=␇�31m" in screen
    assert "shouts␛[2J" in screen
