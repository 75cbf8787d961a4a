"""Malformed Xp cases never crash the runner: every input resolves to a result or a refusal with
a code and a sentence (HELPERS: bad input gets a clear sentence, never a traceback)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.adjudication.xp import resolve_xp_case
from fappo_bot.adjudication.xp_case import XpCase, XpCaseKind

pytestmark = pytest.mark.unit

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-8, 12), st.floats(allow_nan=True),
                    st.sampled_from(["normal", "weak", "Aster", "x", "", "5-6", "dark",
                                     "collateral", "success", "failure", "pc", "npc", "skill",
                                     "SIZE", "BODY", "Robust", "missing", "reduced", "fifth"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["name", "pool", "dice", "sl", "who", "need", "test", "level", "characteristic", "auto",
         "play", "result", "surprise", "luck", "relaunch", "heroic", "xposure", "bonus"]),
        inner, max_size=5)), max_leaves=12)
KEYS = ["pool", "dice", "sl", "who", "need", "type", "sides", "against", "passive", "time_unit",
        "max_units", "opponent", "supporters", "lead", "mode", "members", "order", "augments",
        "target", "insignificant", "leader", "gm", "tasks", "surprises", "events", "options",
        "tie_winner", "difficulty", "merit", "heroic", "name"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(XpCaseKind)),
       st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6))
def test_any_xp_case_resolves_or_is_refused_with_a_code(kind, raw):
    result = resolve_xp_case(XpCase(id="fuzz", kind=kind, raw=raw))
    for error in result["errors"]:
        assert error["code"] and error["message"]


def _xp_cases() -> list[XpCase]:
    from pathlib import Path

    from fappo_bot.adjudication.loader import load_case_file

    root = Path(__file__).parents[1]
    paths = sorted((root / "cases").glob("x*.yaml"))
    return [c for p in paths for c in load_case_file(p) if isinstance(c, XpCase)]


CASES = _xp_cases()


def _mutate(value: object, path: list[str | int], new: object) -> object:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict) and head in value:
        return {**value, head: _mutate(value[head], rest, new)}
    if isinstance(value, list) and isinstance(head, int) and head < len(value):
        return [_mutate(v, rest, new) if i == head else v for i, v in enumerate(value)]
    return value


def _paths(value: object, prefix: list[str | int]) -> list[list[str | int]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, [*prefix, k])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, [*prefix, i])
    return out


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_a_real_case_with_one_field_changed_never_crashes(data):
    """Mutate one field (at any depth) of a project Xp case: still a result or a refusal."""
    case = data.draw(st.sampled_from(CASES))
    raw = dict(case.raw)
    path = data.draw(st.sampled_from(_paths(raw, [])))
    mutated = _mutate(raw, path, data.draw(VALUES))
    assert isinstance(mutated, dict)
    result = resolve_xp_case(XpCase(id=case.id, kind=case.kind, raw=mutated))
    for error in result["errors"]:
        assert error["code"] and error["message"]
