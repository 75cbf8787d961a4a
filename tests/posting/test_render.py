"""Renderings (spec/posting.md "The reply"; RULINGS F29; F7 step 8 PUBLISH): snapshots of the
orders and error replies, mention and markdown safety, message splitting, turn results."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fappo_bot.posting.render import (
    no_mentions,
    render_gm_summary,
    render_orders,
    render_problems,
    render_reply,
    safe,
    safe_prose,
    split_message,
)
from fappo_bot.posting.safety import has_live_mention
from fappo_bot.rules.resolve import resolve_turn
from tests.posting.helpers import SKIRMISH, parse, state_of

pytestmark = pytest.mark.unit

ZWSP = "\u200b"
KAEL = [{"name": "Kael", "traits": {"Nimble": 3, "Tireless": 3, "Highborn": 3},
         "skills": {"Swordfighting": 3}, "weapons": ["Broadsword"]}, *SKIRMISH[1:]]


def test_orders_reply_in_the_shape_of_posting_md() -> None:
    state = state_of(KAEL)
    post = parse("2 AP attack Goblin 1 with Broadsword, 1 SP Nimble\n"
                 "1 AP defend against Goblin Archer\nGuard: 1 SP Tireless against Goblin Archer",
                 state=state)
    assert render_orders(post, state) == (
        "Kael: 3/3 AP committed\n"
        "  2 AP  attack Goblin 1 · Broadsword (Swordfighting 3) · 1 SP Nimble\n"
        "  1 AP  defend against Goblin Archer\n"
        "  Guard 1 SP Tireless against Goblin Archer\n"
        "SP left: Nimble 2, Tireless 2, Highborn 3"
    )


def test_error_reply_in_the_shape_of_posting_md() -> None:
    state = state_of(KAEL)
    post = parse("Kael charges.\n\nGuard: 2 SP Nimble against Troll\n2 AP attack Gobbo, 1 SP Nimble\n"
                 "1 AP defend, 1 SP Nimble", state=state)
    assert render_reply(post, state) == (
        "I couldn't use 2 lines of this post (nothing is recorded until they are fixed):\n"
        '  line 4 "2 AP attack Gobbo": no one called "Gobbo" here. Did you mean "Goblin 1", '
        '"Goblin 2" or "Goblin Archer"?\n'
        '  line 5 "1 SP Nimble": Kael has 0 SP left in Nimble (3 spent on Guard and line 4). '
        "Actions, Guard, Reduce and Endure lines all draw on the same pools."
    )


def test_claims_are_pending_and_conditionals_marked() -> None:
    state = state_of(KAEL)
    post = parse("If the door opens: 1 AP attack it with Broadsword, +1 (high ground)",
                 state=state)
    text = render_orders(post, state)
    assert "claims +1 (high ground), pending the GM" in text
    assert "if the door opens: attack the one in the condition" in text
    assert "[conditional:" in text


@pytest.mark.parametrize("mention", ["@everyone", "@here", "<@123>", "<@!123>", "<@&55>",
                                     "<#77>"])
def test_no_mention_survives_any_echo(mention: str) -> None:
    """BRIEF: "Nothing a user writes can ping @everyone/@here/users/roles"."""
    state = state_of(KAEL)
    post = parse(f"1 AP defend\nIntent: {mention}\nOOC: hi {mention}\n"
                 f"Guard: 1 SP Nimble against {mention}", state=state)
    reply = render_reply(post, state)
    assert mention not in reply
    assert not has_live_mention(reply)
    for text in (safe(mention), safe_prose(mention), no_mentions(mention)):
        assert mention not in text and ("@" + ZWSP in text or "#" + ZWSP in text)
        assert not has_live_mention(text) and "<@" not in text and "<#" not in text


def test_names_that_look_like_mentions_or_markdown_are_inert() -> None:
    sheet = [{"name": "@everyone", "weapons": ["Dagger"]}, {"name": "**Bold**_x_`y`"},
             *SKIRMISH[1:3]]
    state = state_of(sheet)
    post = parse("1 AP defend", poster="@everyone", state=state)
    reply = render_reply(post, state)
    assert "@everyone" not in reply and reply.startswith("@" + ZWSP + "everyone: 1/3 AP")
    assert safe("**Bold**_x_`y`") == r"\*\*Bold\*\*\_x\_\`y\`"


def test_code_fences_cannot_swallow_a_message() -> None:
    assert "```" not in safe_prose("look ```python\nx``` end")
    assert "```" not in safe("```")


@settings(deadline=None)
@given(st.text(max_size=500))
def test_safe_never_leaves_a_mention(text: str) -> None:
    """What `safe` and `safe_prose` write holds no mention nor a raw `<@`/`<#`, so nothing after
    them needs to scrub it; `safe` writes one line."""
    for out in (safe(text), safe_prose(text)):
        assert not re.search(r"@everyone|@here|<@[!&]?\d|<#\d", out), out
        assert not has_live_mention(out), out
    assert "\n" not in safe(text)


@pytest.mark.parametrize("name", [
    "@everyone", "@here", "<@123>", "<@!123>", "<@&1>", "<#1>", "@\u200beveryone",
    "<@\u200b123>", "<\u200b@123>", "@\u200b\u200bhere", "a\nb @here\r\n<#1>",
    "**b** __u__ ~~s~~ ||x|| `c` [l](https://e.x) \\@here"])
def test_safe_makes_every_hostile_name_inert_and_one_line(name: str) -> None:
    out = safe(name)
    assert not has_live_mention(out) and "\n" not in out and "](" not in out
    assert not re.search(r"(?<!\\)[*_~|`]", out), out  # every markdown mark escaped


def test_split_message_on_line_boundaries() -> None:
    lines = [f"line {i} " + "x" * 50 for i in range(100)]
    parts = split_message("\n".join(lines), limit=200)
    assert all(len(p) <= 200 for p in parts)
    assert "\n".join(parts).split("\n") == lines


def test_split_message_cuts_a_line_longer_than_the_limit() -> None:
    parts = split_message("word " * 1000, limit=2000)
    assert all(len(p) <= 2000 for p in parts) and len(parts) == 3
    assert split_message("") == [""]
    assert split_message("short") == ["short"]


@settings(deadline=None)
@given(st.text(max_size=3000), st.integers(min_value=1, max_value=300))
def test_split_message_keeps_every_character_within_the_limit(text: str, limit: int) -> None:
    parts = split_message(text, limit)
    assert all(len(p) <= limit for p in parts)
    squeeze = "".join(text.split())
    assert "".join("".join(parts).split()) == squeeze


def _unframed(parts: list[str]) -> str:
    """The parts joined back, without the fences `split_message` added at a cut block."""
    out = []
    for i, part in enumerate(parts):
        lines = part.split("\n")
        if i > 0 and parts[i - 1].endswith("\n```") and lines[0].startswith("```"):
            lines = lines[1:]
        if i < len(parts) - 1 and part.endswith("\n```") and \
                parts[i + 1].split("\n")[0].startswith("```"):
            lines = lines[:-1]
        out.append("\n".join(lines))
    return "\n".join(out)


def _fences_balanced(part: str) -> bool:
    return sum(1 for line in part.split("\n") if line.lstrip().startswith("```")) % 2 == 0


def test_split_message_closes_and_reopens_a_code_block_it_cuts() -> None:
    body = "\n".join(f'{{"order": {i}, "text": "{"x" * 40}"}}' for i in range(120))
    text = f"Canonical JSON:\n```json\n{body}\n```\nCheck it."
    parts = split_message(text, 500)
    assert len(parts) > 5 and all(len(p) <= 500 for p in parts)
    assert all(_fences_balanced(p) for p in parts)
    assert all(p.startswith("```json\n") for p in parts[1:])
    assert _unframed(parts) == text


def test_split_message_cuts_a_long_line_outside_inline_markdown() -> None:
    line = " ".join(["**Big Goblin** hits, ||a secret spoiler here||, `some code`"] * 60)
    parts = split_message(line, 200)
    assert all(len(p) <= 200 for p in parts)
    for part in parts:
        assert part.count("**") % 2 == 0 and part.count("||") % 2 == 0
        assert part.count("`") % 2 == 0, part
    # an escape is never parted from what it escapes, even where no blank is left to cut at
    escaped = split_message("\\*" * 300, 101)
    assert all(len(p) <= 101 and not p.endswith("\\") for p in escaped)
    assert "".join(escaped) == "\\*" * 300


@example(text="\n```\n```", limit=4)  # a real fence on either side of the cut
@settings(deadline=None)
@given(st.lists(st.sampled_from(["`", "```", "```json", "\n", " ", "a", "**", "\\", "xyz"]),
                max_size=300).map("".join),
       st.integers(min_value=1, max_value=300))
def test_split_message_of_code_blocks_loses_nothing(text: str, limit: int) -> None:
    parts = split_message(text, limit)
    assert all(len(p) <= limit for p in parts)
    squeeze = "".join(text.split())
    # either the parts are the text as it was (no block was cut where there was room to frame
    # it: a real fence may then end one part and another begin the next, which the unframing
    # below would take for added ones), or they are once the added fences are taken off
    as_cut = "".join("".join(parts).split())
    assert as_cut == squeeze or "".join("".join(_unframed(parts)).split()) == squeeze


def test_gm_summary() -> None:
    state = state_of()
    orders = [
        *parse("2 AP attack Goblin 1 with Broadsword, 1 SP Nimble\n1 AP defend against "
               "Goblin 1", "Kael", state).orders,
        *parse("3 AP cast Fireball at the Goblins, 1 SP Uncanny", "Zara", state).orders,
        *parse("Character: Goblin 1\n2 AP attack Kael with Dagger", "gm", state).orders,
    ]
    result = resolve_turn(state, orders)
    summary = render_gm_summary(result)
    assert summary.startswith(f"Turn {result.turn}: 4 actions")
    assert "Pending hits: " in summary


def test_refused_orders_in_turn_results() -> None:
    from fappo_bot.rules.orders import Action, ActionKind, Order

    state = state_of()
    bad = Order(actor="Kael", actions=(Action(kind=ActionKind.DEFEND, ap=9),))
    result = resolve_turn(state, [bad])
    assert "Refused: Kael (ap-over-budget)" in render_gm_summary(result)


def test_problem_list_counts_lines_not_problems() -> None:
    post = parse("2 AP attack Gobbo with Spoon")
    assert len(post.problems) == 2
    assert render_problems(post.problems).startswith("I couldn't use 1 line of this post")


def test_render_order_for_a_recorded_order() -> None:
    from fappo_bot.posting.render import render_order

    state = state_of(KAEL)
    (order,) = parse("2 AP attack Goblin 1 with Broadsword, 1 SP Nimble", state=state).orders
    text = render_order(order, state.character("Kael"), 3)
    assert text.splitlines()[0] == "Kael: 2/3 AP committed"
    assert render_order(order).splitlines()[0] == "Kael: 2 AP committed"


def test_gm_summary_counts_damage_and_names_the_dead() -> None:
    """F7 step 8: the GM summary counts the damage and names the dead."""
    from fappo_bot.rules.character import Status, StatusKind
    from fappo_bot.rules.levels import SuccessLevel
    from fappo_bot.rules.results import ActionResult, Event, TurnResult

    state = state_of()
    kael = replace(state.characters[0], health=5, statuses=(Status(kind=StatusKind.BLEEDING),))
    after = replace(state, characters=(kael, *state.characters[1:]))
    result = TurnResult(
        turn=4, state=after,
        actions=(ActionResult(actor="Goblin 1", index=0, kind="attack", target="Kael", total=5,
                              difficulty=2, margin=3, level=SuccessLevel.GREAT, damage=2,
                              specials=("Bleeding",), notes=("flat-footed",)),
                 ActionResult(actor="Mira", index=0, kind="attack", target="Goblin 2",
                              effective=False, notes=("not triggered",))),
        events=(Event(kind="tick", character="Kael", detail="Fire", levels=1),
                Event(kind="died", character="Goblin 2", detail="ten turns Dying")),
    )
    summary = render_gm_summary(result)
    assert summary.splitlines()[0] == ("Turn 4: 2 actions, 2 levels of damage, 0 eliminated, "
                                       "0 orders refused.")
    assert "Died: Goblin 2" in summary


def test_problem_text_does_not_double_a_question_mark() -> None:
    from fappo_bot.posting.errors import PostProblem
    from fappo_bot.posting.render import problem_text
    from fappo_bot.rules.results import ErrorCode

    problem = PostProblem(line=3, code=ErrorCode.SYNTAX, message="against whom?",
                          words="1 AP defend against", expected="against NAME")
    assert problem_text(problem) == (
        'line 3 "1 AP defend against": against whom? Expected: against NAME.'
    )


def test_a_second_post_says_it_replaces_the_first_and_what_changed() -> None:
    """F29 Amb-3 (the last written wins): a Reduce or Guard line that a new post
    drops is named in the reply, never lost in silence."""
    from fappo_bot.posting.render import render_replaced
    from fappo_bot.rules.orders import Order, Reduction

    state = state_of(KAEL)
    first = parse("2 AP attack Goblin 1 with Broadsword\n1 AP defend\n"
                  "Guard: 1 SP Tireless against Goblin Archer", state=state).orders[0]
    first = replace(first, reduce=(Reduction(hit="h1", sp={"Tireless": 2}),))
    second = parse("3 AP defend", state=state).orders[0]
    note = render_replaced(first, second, state.character("Kael"))
    assert note.startswith("This post replaces Kael's orders from an earlier post; what changed:")
    assert "- no longer: 2 AP  attack Goblin 1 · Broadsword (Swordfighting 3)" in note
    assert "- no longer: Reduce 2 SP Tireless on hit h1" in note
    assert "- no longer: Guard 1 SP Tireless against Goblin Archer" in note
    assert "+ now: 3 AP  defend (all attacks)" in note
    assert "SP left" not in note  # the orders changed, not a line of the pools
    assert "(the same orders)" in render_replaced(second, second)
    assert "(a pass)" in render_replaced(Order(actor="Kael", passed=True), second)


def test_rule_tags_stay_out_of_player_replies_and_results() -> None:
    """`[F:L221-225]` is a GM's reference; the reply and the channel do without."""
    from fappo_bot.posting.safety import without_rule_tags

    assert without_rule_tags("Use a ranged weapon [F:L221-225].") == "Use a ranged weapon."
    assert without_rule_tags("Costs [F:L78-82, L90] apply") == "Costs apply"
    assert without_rule_tags("see F12 [R1]") == "see F12 [R1]"


def test_a_name_ending_in_s_takes_an_apostrophe_alone() -> None:
    """`Rats' Fist`, not `Rats's Fist` (the pending hits of the example adventure)."""
    from fappo_bot.posting.safety import possessive

    assert (possessive("Rats"), possessive("Kael"), possessive("GOBLINS")) == (
        "Rats'", "Kael's", "GOBLINS'")


