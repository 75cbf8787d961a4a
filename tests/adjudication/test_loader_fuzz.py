"""Whatever a case file holds, loading a case never raises: it is a typed case or a BadCase with
a message (spec/cases.md: a malformed case is a `bad-case` failure, never a traceback)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.adjudication.loader import BadCase, parse_case
from fappo_bot.adjudication.runner import run_case

pytestmark = pytest.mark.unit

KEYS = ["id", "kind", "characters", "orders", "pending", "options", "expect", "sheet", "effects",
        "ranges", "break", "allocate", "elapsed", "check", "poster", "post", "name", "traits",
        "skills", "weapons", "health", "status", "actions", "actor", "ap", "sp", "target",
        "damage", "tier", "max", "spells", "guard", "reduce", "if", "index", "code"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.sampled_from(
    ["Kael", "Nimble", "Broadsword", "turn", "sheet", "spell", "rest", "heal", "parse", "master",
     "Battered 2", "attack", "prone", "night", "", "gm", "x"]))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner,
                                                                max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), values, max_size=6))
def test_any_case_entry_loads_without_raising(raw: dict[str, Any]) -> None:
    case = parse_case(raw, "fuzz.yaml", 0)
    assert case.id
    if isinstance(case, BadCase):
        assert case.problem
    outcome = run_case(case)  # never raises either
    assert outcome.passed in (True, False)
