"""The transcript format of the local table (docs/local-table.md): pure parsing."""

from __future__ import annotations

import pytest

from fappo_bot.console.transcript import (
    StepKind,
    TranscriptSyntaxError,
    load_transcript,
    parse_transcript,
)

pytestmark = pytest.mark.unit

SAMPLE = """\
# set-up
/as gm
/newgame "Goblin Warren" --players alice bob
/addchar --player alice
name: Kael
traits: {Nimble: 5}
.
/as Kael
**Kael**
Kael charges.
2 AP attack Goblins with Broadsword, 1 SP Nimble

?expect Kael: 2/3 AP committed
/dm 1 AP defend against Mira
Guard: 1 SP Nimble against Mira
.
/post
first paragraph

second paragraph
.
/as gm
/resolve
> 4
>
> yes
?expect-not secret
"""


def test_every_kind_of_step_is_read_with_its_line():
    steps = parse_transcript(SAMPLE)
    assert not steps.errors
    kinds = [s.kind for s in steps.steps]
    assert kinds == [
        StepKind.SEAT, StepKind.COMMAND, StepKind.COMMAND, StepKind.SEAT, StepKind.POST,
        StepKind.EXPECT, StepKind.DM, StepKind.POST, StepKind.SEAT, StepKind.COMMAND,
        StepKind.ANSWER, StepKind.ANSWER, StepKind.ANSWER, StepKind.EXPECT_NOT,
    ]
    newgame = steps.steps[1]
    assert newgame.name == "newgame" and newgame.args == ("Goblin Warren", "--players", "alice", "bob")
    assert newgame.line == 3
    addchar = steps.steps[2]
    assert addchar.text == "name: Kael\ntraits: {Nimble: 5}"
    post = steps.steps[4]
    assert post.line == 9
    assert post.text.splitlines() == [
        "**Kael**", "Kael charges.", "2 AP attack Goblins with Broadsword, 1 SP Nimble"
    ]
    assert steps.steps[5].text == "Kael: 2/3 AP committed"


def test_dm_takes_its_first_line_and_the_following_ones():
    steps = parse_transcript(SAMPLE).steps
    dm = steps[6]
    assert dm.text == "1 AP defend against Mira\nGuard: 1 SP Nimble against Mira"


def test_a_post_block_keeps_blank_lines_inside():
    steps = parse_transcript(SAMPLE).steps
    assert steps[7].text == "first paragraph\n\nsecond paragraph"


def test_answers_are_trimmed_and_an_empty_answer_is_kept():
    steps = parse_transcript(SAMPLE).steps
    assert [s.text for s in steps[10:13]] == ["4", "", "yes"]


def test_every_problem_is_reported_with_its_line():
    bad = "/as\n/frobnicate\n?expect\n?expekt x\n/post\nno end"
    result = parse_transcript(bad)
    lines = sorted(e.line for e in result.errors)
    assert lines == [1, 2, 3, 4, 5]
    messages = " ".join(e.message for e in result.errors)
    assert "unknown command /frobnicate" in messages
    assert "?expect needs the text" in messages
    assert "not closed" in messages


def test_a_bad_quote_is_an_error_not_a_traceback():
    result = parse_transcript('/newgame "unclosed\n')
    assert result.errors and "cannot split" in result.errors[0].message


def test_load_raises_one_error_listing_all_problems(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("/nope\n/as a b\n", encoding="utf-8")
    with pytest.raises(TranscriptSyntaxError) as info:
        load_transcript(path)
    text = str(info.value)
    assert "bad.txt:line 1" in text and "bad.txt:line 2" in text


def test_describe_round_trips_a_command():
    step = parse_transcript('/newgame "Goblin Warren" --players alice\n').steps[0]
    assert step.describe() == "/newgame 'Goblin Warren' --players alice"


def test_an_assertion_line_ends_a_post_and_is_kept():
    steps = parse_transcript("/as Kael\n2 AP attack Goblins\n?expect 2/3 AP\n").steps
    assert [s.kind for s in steps] == [StepKind.SEAT, StepKind.POST, StepKind.EXPECT]
    assert steps[1].text == "2 AP attack Goblins"


def test_a_stray_full_stop_posts_nothing_and_a_body_ends_at_a_command():
    """A lone "." outside a block (one typed once too often) ended nothing and went to the
    channel as an empty post; a DM body not closed took the next command into the orders."""
    steps = parse_transcript("/status\n.\n/dm 1 AP defend\n/as gm\n/edit\n/status\n").steps
    assert [(s.kind, s.name or s.text) for s in steps] == [
        (StepKind.COMMAND, "status"), (StepKind.DM, "1 AP defend"), (StepKind.SEAT, "gm"),
        (StepKind.COMMAND, "edit"), (StepKind.COMMAND, "status")]
