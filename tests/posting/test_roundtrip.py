"""Property: any action written in any documented form (posting.md: synonyms, AP forms, clause
order, separators, `at` symbols, markdown, line or bracket form, conditions) parses back to the
same order (RULINGS F29 P1: "Using SPs, dividing APs, etc. happen exactly as described")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.posting.models import order_to_case
from tests.posting.helpers import SKIRMISH, parse, state_of, subset

pytestmark = pytest.mark.unit

RICH = {**SKIRMISH[0], "ap": 30, "traits": {"Nimble": 20, "Tireless": 20, "Highborn": 20},
        "floating": 20}
STATE = state_of([RICH, *SKIRMISH[1:]])
TARGETS = ["Goblin 1", "Goblin 2", "Troll", "Mira", "Goblins"]
POOLS = ["Nimble", "Tireless", "Highborn", "floating"]
POOL_SPELLINGS = {"Nimble": ["Nimble", "nimble", "Agile", "NIMBLE"], "Tireless": ["Tireless",
                  "Energetic"], "Highborn": ["Highborn", "Worldly", "Aristocratic"],
                  "floating": ["floating", "float"]}
AP_FORMS = ["{n} AP {body}", "{n} AP: {body}", "{n} AP - {body}", "({n} AP) {body}",
            "{n} APs {body}", "{n}AP {body}"]
SEPARATORS = [", ", " + ", "; ", " | "]
READING_CODES = {"syntax", "unknown-name", "ambiguous-name", "ap-mismatch"}
REASONS = ["high ground", "in the dark", "flanking", "rain"]


@st.composite
def names(draw: st.DrawFn, name: str) -> str:
    style = draw(st.sampled_from(["same", "lower", "upper", "the"]))
    return {"same": name, "lower": name.lower(), "upper": name.upper(),
            "the": f"the {name}"}[style]


@st.composite
def sp_clauses(draw: st.DrawFn) -> tuple[dict[str, int], list[str]]:
    pools = draw(st.lists(st.sampled_from(POOLS), unique=True, max_size=3))
    expected: dict[str, int] = {}
    texts: list[str] = []
    for pool in pools:
        amount = draw(st.integers(1, 2))
        expected[pool] = amount
        written = draw(st.sampled_from(POOL_SPELLINGS[pool]))
        texts.append(draw(st.sampled_from([f"{amount} SP {written}", f"{amount} sp {written}",
                                           f"{amount} SP from {written}"])))
    return expected, texts


@st.composite
def actions(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    kind = draw(st.sampled_from(["attack", "defend", "skill", "move", "stand", "tend", "watch"]))
    expected: dict[str, Any] = {"kind": kind}
    ap = draw(st.integers(2 if kind == "stand" else 1, 3))  # F8: stand up costs 2 AP
    expected["ap"] = ap
    clauses: list[str] = []
    if kind == "attack":
        target = draw(st.sampled_from(TARGETS))
        verb = draw(st.sampled_from(["attack", "hit", "strike", "stab", "slash", "Attack"]))
        body = f"{verb} {draw(names(target))}"
        expected["target"] = target
        weapon = draw(st.sampled_from([None, "Broadsword", "Long Bow", "Fist"]))
        if weapon:
            expected["weapon"] = weapon
            clauses.append(f"{draw(st.sampled_from(['with', 'using', 'WITH']))} "
                           f"{draw(names(weapon))}")
        if draw(st.booleans()):
            expected["special"] = "Bleeding"
            clauses.append("going for Bleeding")
    elif kind == "defend":
        body = draw(st.sampled_from(["defend", "parry", "Defend"]))
        against = draw(st.sampled_from([None, *TARGETS]))
        if against:
            expected["against"] = against
            clauses.append(f"{draw(st.sampled_from(['against', 'vs']))} {draw(names(against))}")
    elif kind == "skill":
        skill = draw(st.sampled_from(["Acrobatics", "Searching", "Climbing"]))
        expected["skill"] = skill
        body = draw(st.sampled_from([skill, skill.lower(), f"use {skill}", skill[:5]]))
        target = draw(st.sampled_from([None, *TARGETS]))
        if target:
            expected["target"] = target
            body += f" {draw(st.sampled_from(['on', 'at', 'against', '->', '@']))} {target}"
        if draw(st.booleans()):
            expected["task"] = "get over the wall"
            body += ": get over the wall"
    elif kind == "move":
        ranges = ap + 1
        expected["ranges"] = ranges
        body = f"{draw(st.sampled_from(['move', 'run', 'Move']))} {ranges}"
        if draw(st.booleans()):
            body += " ranges"
        direction = draw(st.sampled_from([None, "toward", "away"]))
        if direction:
            target = draw(st.sampled_from(TARGETS))
            expected[direction] = target
            body += f" {'toward' if direction == 'toward' else 'away from'} {target}"
    elif kind == "stand":
        body = draw(st.sampled_from(["stand up", "get up"]))
    elif kind == "tend":
        target = draw(st.sampled_from(TARGETS))
        expected["target"] = target
        body = f"tend {target}"
    else:
        body = "watch"
        if draw(st.booleans()):
            expected["task"] = "archers on the roof"
            body += " for archers on the roof"
    sp, sp_texts = draw(sp_clauses())
    if sp:
        expected["sp"] = sp
    clauses.extend(sp_texts)
    if draw(st.booleans()):
        value = draw(st.integers(-3, 3).filter(bool))
        reason = draw(st.sampled_from(REASONS))
        expected["claim"] = {"value": value, "reason": reason}
        clauses.append(f"{value:+d} ({reason})")
    first = [c for c in clauses if c.startswith(("with", "using", "WITH"))]
    rest = draw(st.permutations([c for c in clauses if c not in first]))
    text = body
    for clause in [*first, *rest]:
        sep = " " if clause in first else draw(st.sampled_from(SEPARATORS))
        if sep == " + " and clause[:1] in "+-":
            sep = ", "
        text += sep + clause
    written = draw(st.sampled_from(AP_FORMS)).format(n=ap, body=text)
    if draw(st.booleans()) and kind == "attack":
        condition = draw(st.sampled_from(["the door opens", "anything moves"]))
        expected["if"] = condition
        written = f"If {condition}: {written}"
    return expected, written


@st.composite
def posts(draw: st.DrawFn) -> tuple[list[dict[str, Any]], str]:
    items = draw(st.lists(actions(), min_size=1, max_size=3))
    expected = [e for e, _ in items]
    form = draw(st.sampled_from(["lines", "brackets", "one bracket", "markdown"]))
    if form == "lines":
        text = "Kael moves.\n" + "\n".join(w for _, w in items)
    elif form == "brackets":
        text = "Kael moves " + " and then ".join(f"[{w}]" for _, w in items) + " quickly."
    elif form == "one bracket":
        if any("If " in w for _, w in items):
            items = [(e, w) for e, w in items if "If " not in w] or items[:1]
            expected = [e for e, _ in items]
        text = "Kael [" + ", ".join(w for _, w in items) + "] moves."
    else:
        marks = ["**{}**", "- {}", "> {}", "1. {}", "_{}_", "||{}||", "* {}"]
        text = "\n".join(draw(st.sampled_from(marks)).format(w) for _, w in items)
    return expected, text


@given(posts())
@settings(max_examples=400, deadline=None)
def test_any_documented_form_parses_back(post: tuple[list[dict[str, Any]], str]) -> None:
    expected, text = post
    parsed = parse(text, state=STATE)
    reading = [p for p in parsed.problems if p.code.value in READING_CODES]
    assert not reading, (text, [str(p) for p in reading])  # rules problems (concentration) may be
    (block,) = parsed.blocks
    got = order_to_case(block.order)["actions"]
    assert subset(expected, got), (text, got)
    for action in got:  # nothing invented: only the fields written
        assert set(action) <= {"kind", "ap", "target", "weapon", "special", "against", "skill",
                               "task", "ranges", "toward", "away", "sp", "claim", "if"}, action


PENDING = [{"id": "h1", "target": "Kael", "attacker": "Goblin 1", "weapon": "Dagger", "levels": 2},
           {"id": "h2", "target": "Kael", "attacker": "Troll", "weapon": "Fist", "levels": 3}]
HIT_STATE = state_of([RICH, *SKIRMISH[1:]], PENDING)
HIT_NAMES = {"h1": ["h1", "the dagger hit", "Goblin 1's hit", "the Goblin 1 hit",
                    "the dagger"],
             "h2": ["h2", "the Troll's hit", "the fist hit", "troll's attack", "the fist"]}
WHYS = ["I rolled with it", "it glanced off, barely", "armour held"]


@st.composite
def guard_lines(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    sp, texts = draw(sp_clauses().filter(lambda x: bool(x[0])))
    against = draw(st.sampled_from([*TARGETS, "any", "all"]))
    sep = draw(st.sampled_from([", ", " + "]))
    keyword = draw(st.sampled_from(["Guard:", "guard:", "GUARD -", "Guard"]))
    if keyword == "Guard" and not texts[0][0].isdigit():
        keyword = "Guard:"
    text = f"{keyword} {sep.join(texts)} {draw(st.sampled_from(['against', 'vs']))} {against}"
    return {"against": "any" if against in ("any", "all") else against, "sp": sp}, text


@st.composite
def reduce_lines(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    sp, texts = draw(sp_clauses().filter(lambda x: bool(x[0])))
    hit = draw(st.sampled_from(["h1", "h2"]))
    why = draw(st.sampled_from(WHYS))
    written_hit = draw(st.sampled_from(HIT_NAMES[hit]))
    tail = draw(st.sampled_from([f" ({why})", f" - {why}", f": {why}", f", {why}"]))
    text = f"Reduce: {' + '.join(texts)} {draw(st.sampled_from(['on', 'from']))} {written_hit}"
    return {"hit": hit, "sp": sp, "why": why}, text + tail


@given(st.lists(guard_lines(), max_size=3), st.lists(reduce_lines(), max_size=2),
       st.booleans())
@settings(max_examples=300, deadline=None)
def test_guard_and_reduce_lines_parse_back(guards: list[tuple[dict[str, Any], str]],
                                           reduces: list[tuple[dict[str, Any], str]],
                                           brackets: bool) -> None:
    lines = [t for _, t in guards] + [t for _, t in reduces]
    if brackets:
        lines = [f"Kael grits his teeth [{line}]" for line in lines]
    text = "\n".join(["1 AP defend", *lines])
    parsed = parse(text, state=HIT_STATE)
    reading = [p for p in parsed.problems if p.code.value in READING_CODES]
    assert not reading, (text, [str(p) for p in reading])
    order = order_to_case(parsed.blocks[0].order)
    assert order.get("guard", []) == [g for g, _ in guards], text
    assert order.get("reduce", []) == [r for r, _ in reduces], text
