"""docs/players.md, "Playing Xp", stays true: every example Xp post (the ```xp-post NAME
blocks) reads with no problem against the Xp example adventure's sheets, and the reply the guide
shows is the bot's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fappo_bot.posting_xp import XpPostContext, parse_xp_post, render_xp_reply
from fappo_bot.sheets import read_sheet
from fappo_bot.sheets.xp import xp_sheet_from_dict

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"^```xp-post (\w+)\n(.*?)^```", GUIDE, flags=re.MULTILINE | re.DOTALL)
SHEETS = {
    name.title(): xp_sheet_from_dict(read_sheet(
        (ROOT / "examples" / "xp-adventure" / f"{name}.yaml").read_text(encoding="utf-8")))
    for name in ("nefer", "khai", "guard")
}


def context(poster: str) -> XpPostContext:
    return XpPostContext(sheets={poster: SHEETS[poster]}, names=tuple(SHEETS))


def test_the_guide_has_xp_examples() -> None:
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize(("poster", "text"), EXAMPLES)
def test_every_xp_example_post_reads(poster: str, text: str) -> None:
    parsed = parse_xp_post(text, context(poster))
    assert parsed.ok, parsed.problems
    assert parsed.actions


def test_the_reply_the_guide_shows_is_the_bots() -> None:
    poster, text = EXAMPLES[0]
    reply = render_xp_reply(parse_xp_post(text, context(poster)), {poster: SHEETS[poster]})
    shown = GUIDE.split(f"```xp-post {poster}\n{text}```", 1)[1]
    block = re.search(r"```text\n(.*?)```", shown, flags=re.DOTALL)
    assert block is not None and block.group(1).strip() == reply
