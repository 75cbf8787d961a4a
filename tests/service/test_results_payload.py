"""A results payload is each block's own JSON (`as_json`), and that is what pydantic's dump of
the same notice writes, key for key and in the same order: the payload is stored, and an adapter
or a web page reads it back (`notices.read`)."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.service import notices
from fappo_bot.service import results_report as r
from fappo_bot.service.rulesets.names import NAMINGS

pytestmark = pytest.mark.unit

_text = st.text(max_size=6)
_maybe_text = st.none() | _text
_maybe_int = st.none() | st.integers(-5, 40)
_texts = st.lists(_text, max_size=3).map(tuple)

_targets = st.builds(
    r.TargetLine, name=_text, total=_maybe_int, difficulty=_maybe_int, base=_maybe_text,
    level=_maybe_text, guard=st.integers(0, 3), damage=st.integers(0, 9), specials=_texts,
    eliminated=st.integers(0, 5), effective=st.booleans())
_defences = st.builds(r.Defence, name=_text, ap=_maybe_int)
_actions = st.builds(
    r.ActionLine, actor=_text, kind=_text, group=st.booleans(), skill=_maybe_text,
    task=_maybe_text, target=_maybe_text, targets=_texts, weapon=_maybe_text,
    spell=_maybe_text, item=_maybe_text, ranges=_maybe_int, toward=_maybe_text,
    away=_maybe_text, condition=_maybe_text, total=_maybe_int, difficulty=_maybe_int,
    base=_maybe_text, level=_maybe_text,
    sp=st.dictionaries(_text, st.integers(0, 5), max_size=3), guard=st.integers(0, 3),
    damage=st.integers(0, 9), specials=_texts, eliminated=st.integers(0, 5),
    effective=st.booleans(), shield=st.booleans(), notes=_texts,
    creatures=st.lists(_targets, max_size=2).map(tuple),
    defences=st.lists(_defences, max_size=2).map(tuple))
_hits = st.builds(r.HitLine, id=_text, attacker=_maybe_text, weapon=_maybe_text,
                  levels=st.integers(0, 5), creatures=st.booleans())
_blocks = st.one_of(
    _actions,
    st.builds(r.Refusal, actor=_text, message=_text),
    st.builds(r.Standing, name=_text, health=_text, hits=st.lists(_hits, max_size=2).map(tuple),
              statuses=_texts, withheld=st.booleans()),
    st.builds(r.EventLine, character=_text, kind=_text, detail=_text, levels=st.integers(0, 4)),
    st.builds(r.XpLine, text=_text))


@settings(max_examples=300, deadline=None)
@given(blocks=st.lists(_blocks, max_size=6), characters=st.none() | _texts,
       ruleset=st.sampled_from(NAMINGS), continued=st.booleans())
def test_a_results_payload_is_what_pydantic_dumps(blocks, characters, ruleset, continued):
    notice = notices.results(3, "res-1", blocks, characters, ruleset).model_copy(
        update={"continued": continued})
    payload = notice.payload()
    assert json.dumps(payload) == json.dumps(notice.model_dump(mode="json"))
    assert notices.read("results", payload) == notice


@pytest.mark.parametrize("block", [r.TargetLine, r.Defence, r.ActionLine, r.Refusal, r.HitLine,
                                   r.Standing, r.EventLine, r.XpLine])
def test_each_block_writes_every_field_in_order(block):
    """A field added to a block and not to its `as_json` is caught here, even unset."""
    required = [f for f in fields(block) if f.default is MISSING
                and f.default_factory is MISSING]
    made = block(**{f.name: 1 if f.type == "int" else "x" for f in required})
    assert list(made.as_json()) == [f.name for f in fields(block)]
